package dev.hotspare.fleetserver;

import dev.hotspare.validation.Problem;

import java.util.List;
import java.util.stream.Collectors;

/**
 * An answer other than success, carried up to the router, which writes it as Maestro's error body
 * {@code {code, error, description, success:false}} with {@link #status()}.
 */
final class ApiException extends RuntimeException {

    private final int status;
    private final String code;
    private final String error;
    private final String description;

    ApiException(int status, String code, String error, String description) {
        super(code + ": " + description, null, false, false);
        this.status = status;
        this.code = code;
        this.error = error;
        this.description = description;
    }

    ApiException(int status, String code, String error, List<Problem> problems) {
        this(status, code, error, problems.stream().map(Problem::describe).collect(Collectors.joining("; ")));
    }

    static ApiException badRequest(String code, String error, Problem problem) {
        return new ApiException(400, code, error, List.of(problem));
    }

    static ApiException unprocessable(String code, String error, Problem problem) {
        return new ApiException(422, code, error, List.of(problem));
    }

    int status() {
        return status;
    }

    String code() {
        return code;
    }

    String error() {
        return error;
    }

    String description() {
        return description;
    }
}
