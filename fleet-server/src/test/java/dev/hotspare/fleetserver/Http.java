package dev.hotspare.fleetserver;

import tools.jackson.databind.JsonNode;
import dev.hotspare.json.Documents;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/** A real HTTP client against a running fleet service; every answer must be JSON. */
final class Http {

    /** One answer: status, the headers that matter, and the JSON body. */
    record Answer(int status, JsonNode body, String maestroVersion, String contentType, List<String> allow, String raw,
                  java.net.http.HttpHeaders headers) {
        @Override
        public String toString() {
            return status + " " + raw;
        }
    }

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    /** Sent as {@code Authorization: Bearer <token>} when present. */
    private final java.util.Optional<String> token;

    Http(int port) {
        this("http://127.0.0.1:" + port, java.util.Optional.empty());
    }

    private Http(String base, java.util.Optional<String> token) {
        this.base = base;
        this.token = token;
    }

    /** The same server with {@code token} as the bearer token of every request. */
    Http withToken(String token) {
        return new Http(base, java.util.Optional.of(token));
    }

    Answer get(String path) {
        return send("GET", path, null);
    }

    Answer put(String path, String body) {
        return send("PUT", path, body);
    }

    Answer post(String path, String body) {
        return send("POST", path, body);
    }

    Answer delete(String path) {
        return send("DELETE", path, null);
    }

    Answer send(String method, String path, String body) {
        HttpRequest.BodyPublisher publisher = body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body);
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + path)).method(method, publisher)
                .timeout(Duration.ofSeconds(60));
        token.ifPresent(t -> builder.header("Authorization", "Bearer " + t));
        HttpRequest request = builder.build();
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            // Every answer is JSON except the Prometheus text of /metrics.
            boolean text = response.headers().firstValue("Content-Type").orElse("").startsWith("text/plain");
            JsonNode json = text ? tools.jackson.databind.node.MissingNode.getInstance()
                    : Documents.jsonReader().readTree(response.body());
            return new Answer(response.statusCode(), json, response.headers().firstValue("X-Maestro-Version").orElse(null),
                    response.headers().firstValue("Content-Type").orElse(null),
                    response.headers().allValues("Allow"), response.body(), response.headers());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
