package dev.hotspare.fleetserver;

import dev.hotspare.json.Documents;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Maestro's error body for every failure Jetty answers itself, before or around a route: a request it cannot
 * parse (a bad percent-escape, {@code Content-Length: abc}, headers or a URI too large), an announced body over
 * the limit, a request refused during shutdown, an idle timeout. Jetty's own error pages are HTML and may name
 * exceptions; this writes {@code {code, error, description, success:false}} with {@code X-Maestro-Version}, and
 * never a Java class name.
 */
final class JsonErrorHandler extends ErrorHandler {

    private final String apiVersion;

    JsonErrorHandler(String apiVersion) {
        this.apiVersion = apiVersion;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        int status = response.getStatus() >= 400 ? response.getStatus() : HttpStatus.INTERNAL_SERVER_ERROR_500;
        Object message = request.getAttribute(ERROR_MESSAGE);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, FleetApi.JSON_CONTENT_TYPE);
        response.getHeaders().put(FleetApi.VERSION_HEADER, apiVersion);
        response.getHeaders().put(FleetApi.HOTSPARE_VERSION_HEADER, dev.hotspare.internal.HotspareVersion.current());
        response.write(true, ByteBuffer.wrap(body(status, message == null ? null : message.toString())), callback);
        return true;
    }

    /** The answer to a request so malformed that Jetty never made a request of it. */
    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(HttpHeader.CONTENT_TYPE, FleetApi.JSON_CONTENT_TYPE);
        fields.put(FleetApi.VERSION_HEADER, apiVersion);
        fields.put(FleetApi.HOTSPARE_VERSION_HEADER, dev.hotspare.internal.HotspareVersion.current());
        return ByteBuffer.wrap(body(status, reason));
    }

    static byte[] body(int status, String reason) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", code(status));
        body.put("error", error(status));
        body.put("description", describe(status, reason));
        body.put("success", false);
        return Documents.toJsonLine(body).getBytes(StandardCharsets.UTF_8);
    }

    private static String code(int status) {
        return switch (status) {
            case 400 -> "BAD_REQUEST";
            case 404 -> "ROUTE_NOT_FOUND";
            case 408 -> "REQUEST_TIMEOUT";
            case 413 -> "BODY_TOO_LARGE";
            case 414 -> "URI_TOO_LONG";
            case 431 -> "HEADERS_TOO_LARGE";
            case 503 -> "UNAVAILABLE";
            case 500 -> "INTERNAL";
            default -> "HTTP_" + status;
        };
    }

    private static String error(int status) {
        return switch (status) {
            case 408 -> "request timed out";
            case 413 -> "request body too large";
            case 414 -> "request URI too long";
            case 431 -> "request headers too large";
            case 503 -> "the service is unavailable";
            case 500 -> "internal error";
            default -> status < 500 ? "bad request" : "server error";
        };
    }

    /**
     * Jetty's reason (e.g. "Bad Content-Length", "Bad URI"), unless it could name a Java class or be empty; the
     * status alone is then described.
     */
    private static String describe(int status, String reason) {
        boolean usable = reason != null && !reason.isBlank() && reason.length() <= 200
                && !reason.contains("Exception") && !reason.contains("java.") && !reason.contains("org.");
        String what = usable ? reason.strip() : HttpStatus.getMessage(status);
        return "request: " + what + (status == 503 ? "; retry later" : "");
    }
}
