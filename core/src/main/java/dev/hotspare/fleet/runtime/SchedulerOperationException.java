package dev.hotspare.fleet.runtime;

import dev.hotspare.validation.Problem;

import java.util.List;
import java.util.Objects;

/** A scheduler operation was refused; {@link #code()} says why, {@link #problems()} lists every input problem. */
public final class SchedulerOperationException extends RuntimeException {

    private final ErrorCode code;
    private final List<Problem> problems;

    public SchedulerOperationException(ErrorCode code, List<Problem> problems) {
        super(code + ": " + String.join("; ", problems.stream().map(Problem::describe).toList()));
        this.code = Objects.requireNonNull(code, "code");
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("problems: a SchedulerOperationException needs at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    public SchedulerOperationException(ErrorCode code, Problem problem) {
        this(code, List.of(problem));
    }

    /**
     * The error code.
     */
    public ErrorCode code() {
        return code;
    }

    /**
     * What was wrong, each naming a field and the bad value.
     */
    public List<Problem> problems() {
        return problems;
    }
}
