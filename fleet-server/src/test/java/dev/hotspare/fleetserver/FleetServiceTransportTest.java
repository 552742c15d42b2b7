package dev.hotspare.fleetserver;

import tools.jackson.databind.JsonNode;
import dev.hotspare.json.Documents;
import dev.hotspare.time.TaskScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The HTTP transport as a hostile client meets it, over raw sockets: malformed requests the server parses itself
 * still get Maestro's JSON error body and the version header (never an HTML page naming a Java exception), an
 * announced oversize body gets 413 before it is sent, and hundreds of clients sending half a request hold no
 * request thread and do not stop the service from answering others.
 */
class FleetServiceTransportTest {

    private static final int MAX_THREADS = 16;

    private ScheduledThreadPoolExecutor executor;
    private FleetService service;

    @BeforeEach
    void start() {
        executor = new ScheduledThreadPoolExecutor(2);
        service = FleetService.builder(TaskScheduler.system(executor, Clock.systemUTC())).insecureNoAuth()
                .maxBodyBytes(1024).maxThreads(MAX_THREADS).idleTimeout(Duration.ofSeconds(30))
                .build().start();
    }

    @AfterEach
    void stop() {
        service.close();
        executor.shutdownNow();
    }

    /** One raw answer: status line, headers (names lower-cased), body. */
    record Raw(int status, List<String> headers, String body) {
        String header(String name) {
            String prefix = name.toLowerCase(Locale.ROOT) + ":";
            return headers.stream().filter(h -> h.toLowerCase(Locale.ROOT).startsWith(prefix))
                    .map(h -> h.substring(prefix.length()).trim()).findFirst().orElse(null);
        }

        JsonNode json() {
            try {
                return Documents.jsonReader().readTree(body);
            } catch (tools.jackson.core.JacksonException e) {
                throw new AssertionError("not JSON: " + body, e);
            }
        }
    }

    private Raw send(String request) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", service.port()), 5_000);
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            return read(socket.getInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Raw read(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed before the headers ended: " + head);
            }
            head.write(b);
            matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        List<String> lines = new ArrayList<>(List.of(head.toString(StandardCharsets.ISO_8859_1).split("\r\n")));
        int status = Integer.parseInt(lines.remove(0).split(" ")[1]);
        Raw partial = new Raw(status, lines, "");
        String length = partial.header("Content-Length");
        byte[] body = length == null ? in.readAllBytes() : in.readNBytes(Integer.parseInt(length));
        return new Raw(status, lines, new String(body, StandardCharsets.UTF_8));
    }

    private static void assertMaestroError(Raw answer, int status, String code) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(status);
        assertThat(answer.header("X-Maestro-Version")).isEqualTo(FleetService.DEFAULT_API_VERSION);
        assertThat(answer.header("Content-Type")).startsWith("application/json");
        JsonNode body = answer.json();
        assertThat(body.path("code").asString()).isEqualTo(code);
        assertThat(body.path("success").asBoolean(true)).isFalse();
        assertThat(body.path("error").asString()).isNotEmpty();
        assertThat(body.path("description").asString()).isNotEmpty();
        assertThat(answer.body()).doesNotContain("Exception", "java.", "<html", "at org.");
    }

    @Test
    void aMalformedPercentEscapeInThePathIsAJsonBadRequest() {
        assertMaestroError(send("GET /scheduler/%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"), 400, "BAD_REQUEST");
    }

    @Test
    void aMalformedPercentEscapeInTheQueryIsAJsonBadRequestNamingTheParameter() {
        Raw answer = send("GET /scheduler/pong/rooms?metric=%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertMaestroError(answer, 400, "BAD_REQUEST");
        assertThat(answer.json().path("description").asString()).isEqualTo("query: bad value '%zz': not a valid percent-encoded query parameter");
    }

    @Test
    void aContentLengthThatIsNotANumberIsAJsonBadRequest() {
        assertMaestroError(send("PUT /scheduler/pong/rooms/r1/ping HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}"),
                400, "BAD_REQUEST");
    }

    @Test
    void anAnnouncedOversizeBodyIs413BeforeItIsSent() {
        Raw answer = send("POST /scheduler HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 5000000\r\n\r\nname: a");
        assertMaestroError(answer, 413, "BODY_TOO_LARGE");
        assertThat(answer.json().path("description").asString()).isEqualTo("body: bad value '5000000 bytes': the limit is 1024 bytes");
    }

    @Test
    void anUnannouncedOversizeBodyIs413() {
        String chunk = "x".repeat(4000);
        Raw answer = send("POST /scheduler HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                + Integer.toHexString(chunk.length()) + "\r\n" + chunk + "\r\n0\r\n\r\n");
        assertMaestroError(answer, 413, "BODY_TOO_LARGE");
    }

    @Test
    void oversizeHeadersAreAJsonError() {
        Raw answer = send("GET /healthcheck HTTP/1.1\r\nHost: x\r\nX-Big: " + "y".repeat(20_000) + "\r\n\r\n");
        assertMaestroError(answer, 431, "HEADERS_TOO_LARGE");
    }

    @Test
    void aRequestLineThatIsNotHttpIsAJsonBadRequest() {
        assertMaestroError(send("HELLO\r\n\r\n"), 400, "BAD_REQUEST");
    }

    @Test
    void threeHundredHalfSentRequestsHoldNoRequestThreadAndOthersAreStillAnswered() throws IOException {
        Http http = new Http(service.port());
        assertThat(http.get("/healthcheck").status()).isEqualTo(200);
        List<Socket> halfSent = new ArrayList<>();
        try {
            for (int i = 0; i < 300; i++) {
                Socket socket = new Socket();
                socket.connect(new InetSocketAddress("127.0.0.1", service.port()), 5_000);
                // Half of them stop inside the headers, the other half inside an announced body.
                String half = i % 2 == 0
                        ? "PUT /scheduler/pong/rooms/r" + i + "/ping HTTP/1.1\r\nHost: x\r\nContent-Le"
                        : "PUT /scheduler/pong/rooms/r" + i + "/ping HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"time";
                socket.getOutputStream().write(half.getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                halfSent.add(socket);
            }
            // Every connection is open and waiting; the service still answers at once.
            for (int i = 0; i < 20; i++) {
                assertThat(http.get("/healthcheck").status()).isEqualTo(200);
            }
            assertThat(httpThreads()).as("request threads").isLessThanOrEqualTo(MAX_THREADS);
        } finally {
            for (Socket socket : halfSent) {
                socket.close();
            }
        }
    }

    @Test
    void aSilentClientIsDisconnectedAfterTheIdleTimeout() throws IOException {
        executor.shutdownNow();
        service.close();
        executor = new ScheduledThreadPoolExecutor(2);
        service = FleetService.builder(TaskScheduler.system(executor, Clock.systemUTC())).insecureNoAuth()
                .idleTimeout(Duration.ofMillis(500)).build().start();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", service.port()), 5_000);
            socket.getOutputStream().write("PUT /scheduler/pong/rooms/r/ping HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"
                    .getBytes(StandardCharsets.US_ASCII));
            socket.setSoTimeout(60_000);
            // The server gives up on the body: it answers (or just closes) instead of waiting forever.
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                byte[] rest = socket.getInputStream().readAllBytes();
                return rest.length == 0 || new String(rest, StandardCharsets.UTF_8).contains("\"success\":false");
            });
        }
    }

    private static long httpThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("fleet-http")).count();
    }
}
