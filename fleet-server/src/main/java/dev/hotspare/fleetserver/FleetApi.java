package dev.hotspare.fleetserver;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.ObjectWriter;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.SchedulerConfig.MaxSurge;
import dev.hotspare.fleet.events.EventDispatcher;
import dev.hotspare.fleet.lock.LockId;
import dev.hotspare.fleet.lock.LockId.LockKind;
import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.fleet.lock.spi.Lease;
import dev.hotspare.fleet.runtime.RoomService;
import dev.hotspare.fleet.runtime.SchedulerOperations;
import dev.hotspare.fleet.runtime.SchedulerOperations.ErrorCode;
import dev.hotspare.fleet.runtime.SchedulerOperations.SchedulerOperationException;
import dev.hotspare.fleet.runtime.SchedulerOperations.SchedulerStatus;
import dev.hotspare.fleet.runtime.SchedulerOperations.UpdateHandle;
import dev.hotspare.fleet.runtime.SchedulerOperations.VersionDiff;
import dev.hotspare.fleet.spi.Release.OperationStatus;
import dev.hotspare.fleet.spi.RoomStatusStore;
import dev.hotspare.fleet.spi.SchedulerRecord;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.fleet.spi.SchedulerStore.SchedulerNotFoundException;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.json.Documents;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.spi.StoreUnavailableException;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Suggestions;
import dev.hotspare.validation.ValidationException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Maestro's HTTP routes (docs/fleet-service.md): a small router as a Jetty handler, the request parsing, and
 * the one place where every failure of a route becomes Maestro's error body
 * {@code {code, error, description, success:false}} (failures Jetty detects before a route runs go through
 * {@link JsonErrorHandler}, which writes the same body). No answer ever carries a stack trace; unexpected failures
 * are logged here and answered with a generic 500. Routes run on the server's bounded thread pool and may block.
 */
final class FleetApi extends Handler.Abstract {

    private static final Logger LOG = LoggerFactory.getLogger(FleetApi.class);
    /** Who changed which scheduler: its own logger name, so it can be routed to an audit file. */
    private static final Logger AUDIT = LoggerFactory.getLogger("dev.hotspare.fleetserver.audit");
    private static final ObjectReader JSON_READER = Documents.jsonReader();
    private static final ObjectWriter JSON_WRITER = Documents.jsonWriter();
    static final String VERSION_HEADER = "X-Maestro-Version";
    /** The hotspare build that answered, on every answer (Maestro's header carries the API version instead). */
    static final String HOTSPARE_VERSION_HEADER = "X-Hotspare-Version";
    static final String JSON_CONTENT_TYPE = "application/json; charset=utf-8";
    /** Largest report timestamp: the end of year 9999, in seconds since the epoch. */
    static final long MAX_TIMESTAMP = 253_402_300_799L;

    private final SchedulerOperations operations;
    private final RoomService roomService;
    private final SchedulerStore schedulers;
    private final RoomStatusStore rooms;
    private final MemberDriver driver;
    private final LockManager locks;
    private final RoomAddresses addresses;
    private final Map<String, Runnable> healthChecks;
    private final int maxBodyBytes;
    /** Bodies up to this many times the limit are read and dropped before the 413, so the client sees it. */
    private static final int DRAIN_FACTOR = 4;
    private final String apiVersion;
    private final Duration operationWait;
    private final Runnable schedulersChanged;
    private final Supplier<Object> kpis;
    /** The Prometheus text of the service's meters, when its registry is a Prometheus one. */
    private final Supplier<Optional<String>> prometheus;
    /** Requests being served now, bounded: more get 503 with Retry-After instead of waiting for a thread. */
    private final java.util.concurrent.Semaphore inFlight;
    private final int maxConcurrentRequests;
    /** What this instance's worker last failed to do for a scheduler (cleared when a tick succeeds). */
    private final java.util.function.Function<String, Optional<String>> workerErrors;
    private final List<Route> routes = new ArrayList<>();
    private final OperationLog operationLog;
    /**
     * Schedulers seen to exist, for the room routes: a room pings every few seconds, and without this each ping
     * would be a scheduler-store round trip. Only hits are kept, briefly, and a delete here drops its entry.
     */
    private final Cache<String, Boolean> knownSchedulers;
    /** What {@code GET /ownership} answers: the live instances and what each owns, or that work is not divided. */
    private volatile Supplier<Object> ownershipView = () -> Map.of("enabled", false);
    private final Authenticator authenticator;
    /** The longest a player event waits for forwarders with {@code forwardResponse: true}. */
    private final Duration forwardResponseWait;

    FleetApi(SchedulerOperations operations, RoomService roomService, SchedulerStore schedulers, RoomStatusStore rooms,
             MemberDriver driver, LockManager locks, RoomAddresses addresses, Map<String, Runnable> healthChecks,
             int maxBodyBytes, String apiVersion, Duration operationWait, Runnable schedulersChanged,
             Supplier<Object> kpis, Supplier<Optional<String>> prometheus, int maxConcurrentRequests, java.time.Clock clock,
             java.util.function.Function<String, Optional<String>> workerErrors, Authenticator authenticator,
             Duration forwardResponseWait) {
        this.authenticator = authenticator;
        this.forwardResponseWait = forwardResponseWait;
        this.kpis = kpis;
        this.operationLog = new OperationLog(clock);
        this.prometheus = prometheus;
        this.maxConcurrentRequests = maxConcurrentRequests;
        this.inFlight = new java.util.concurrent.Semaphore(maxConcurrentRequests);
        this.workerErrors = workerErrors;
        this.operations = operations;
        this.roomService = roomService;
        this.schedulers = schedulers;
        this.rooms = rooms;
        this.driver = driver;
        this.locks = locks;
        this.addresses = addresses;
        this.healthChecks = healthChecks;
        this.maxBodyBytes = maxBodyBytes;
        this.apiVersion = apiVersion;
        this.operationWait = operationWait;
        this.schedulersChanged = schedulersChanged;
        // Expiry on the service's clock, so it follows virtual time like everything else.
        this.knownSchedulers = Caffeine.newBuilder().ticker(() -> clock.millis() * 1_000_000L)
                .expireAfterWrite(Duration.ofSeconds(2)).maximumSize(10_000).build();
        route("GET", "/healthcheck", this::healthcheck);
        route("PUT", "/scheduler/{scheduler}/rooms/{room}/ping", this::roomReport);
        route("PUT", "/scheduler/{scheduler}/rooms/{room}/status", this::roomReport);
        route("GET", "/scheduler/{scheduler}/rooms/{room}/address", this::address);
        route("POST", "/scheduler/{scheduler}/rooms/{room}/playerevent", this::playerEvent);
        route("POST", "/scheduler/{scheduler}/rooms/allocate", this::allocate);
        route("GET", "/scheduler/{scheduler}/rooms", this::roomsByMetric);
        route("POST", "/scheduler", this::create);
        route("GET", "/scheduler/{scheduler}", this::statusOrConfig);
        route("PUT", "/scheduler/{scheduler}", this::update);
        route("POST", "/scheduler/{scheduler}", this::scale);
        route("DELETE", "/scheduler/{scheduler}", this::delete);
        route("PUT", "/scheduler/{scheduler}/image", this::image);
        route("PUT", "/scheduler/{scheduler}/min", this::min);
        route("GET", "/scheduler/{scheduler}/config", this::config);
        route("GET", "/scheduler/{scheduler}/releases", this::releases);
        route("PUT", "/scheduler/{scheduler}/rollback", this::rollback);
        route("PUT", "/scheduler/{scheduler}/diff", this::diff);
        route("GET", "/scheduler/{scheduler}/locks", this::listLocks);
        route("GET", "/scheduler/{scheduler}/operations", this::listOperations);
        route("GET", "/scheduler/{scheduler}/operations/{operation}", this::getOperation);
        route("DELETE", "/scheduler/{scheduler}/operations/{operation}", this::cancelOperation);
        route("DELETE", "/scheduler/{scheduler}/locks/{kind}", this::forceRelease);
        route("GET", "/ownership", request -> Answer.ok(ownershipView.get()));
        route("GET", "/kpis", request -> Answer.ok(Map.of("meters", kpis.get())));
        route("GET", "/metrics", request -> new Answer(200, new PlainText(PROMETHEUS_CONTENT_TYPE, prometheus.get()
                .orElseThrow(() -> new ApiException(404, "METRICS_NOT_ENABLED", "metrics not enabled", List.of(Problem.of(
                        "meterRegistry", "<not Prometheus>", "the service was given a registry without a Prometheus one; "
                                + "read GET /kpis, or pass a PrometheusMeterRegistry")))))));
    }

    /** Sets what {@code GET /ownership} answers (the service does, once its fleet is built). */
    void ownershipView(Supplier<Object> view) {
        this.ownershipView = java.util.Objects.requireNonNull(view, "view");
    }

    // --- routing ------------------------------------------------------------------------------------------------

    /** A route's work: returns the status and body of a successful answer, throws for everything else. */
    @FunctionalInterface
    private interface Action {
        Answer handle(Request request) throws Exception;
    }

    private record Answer(int status, Object body, Map<String, String> headers) {
        Answer(int status, Object body) {
            this(status, body, Map.of());
        }

        static Answer ok(Object body) {
            return new Answer(200, body);
        }
    }

    /** A body that is not JSON (the Prometheus text format). */
    private record PlainText(String contentType, String text) {
    }

    static final String PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    /** Paths served even when the service is saturated: probes and scrapes must see a busy service, not a 503. */
    private static final Set<String> UNLIMITED = Set.of("/healthcheck", "/metrics");

    private static final Map<String, Object> SUCCESS = Map.of("success", true);

    private record Route(String method, List<String> pattern, Authenticator.Access access, Action action) {
        Optional<Map<String, String>> match(List<String> segments) {
            if (segments.size() != pattern.size()) {
                return Optional.empty();
            }
            Map<String, String> params = new LinkedHashMap<>();
            for (int i = 0; i < pattern.size(); i++) {
                String p = pattern.get(i);
                if (p.startsWith("{")) {
                    params.put(p.substring(1, p.length() - 1), segments.get(i));
                } else if (!p.equals(segments.get(i))) {
                    return Optional.empty();
                }
            }
            return Optional.of(params);
        }
    }

    private void route(String method, String path, Action action) {
        routes.add(new Route(method, segments(path), access(path), action));
    }

    /**
     * Who a route is for: the health probe is public; a room's reports take its own token; its address, its own
     * or an admin one; everything else (schedulers, operations, locks, scaling, releases, allocation, room
     * lists, KPIs and metrics) an admin token.
     */
    private static Authenticator.Access access(String path) {
        if (path.equals("/healthcheck")) {
            return Authenticator.Access.PUBLIC;
        }
        if (path.startsWith("/scheduler/{scheduler}/rooms/{room}/")) {
            return path.endsWith("/address") ? Authenticator.Access.ROOM_OR_ADMIN : Authenticator.Access.ROOM;
        }
        return Authenticator.Access.ADMIN;
    }

    private static List<String> segments(String path) {
        return Arrays.stream(path.split("/")).filter(s -> !s.isEmpty()).toList();
    }

    /**
     * Reads the body without holding a thread (a client sending half a request costs a socket, not a thread, until
     * the idle timeout), then runs the route on a pool thread.
     */
    @Override
    public boolean handle(org.eclipse.jetty.server.Request request, Response response, Callback callback) {
        Optional<String> ambiguous = ambiguousPath(request.getHttpURI().getPath());
        if (ambiguous.isPresent()) {
            // Before any route, the in-flight limit or authentication: Jetty resolves "..", so without this
            // DELETE /scheduler/s/operations/.. would reach DELETE /scheduler/s, past a gateway rule that only
            // lets operations be cancelled.
            Exchange exchange = new Exchange(request, response, new byte[0]);
            respond(exchange, error(ApiException.badRequest("BAD_PATH", "ambiguous path", Problem.of("path",
                    abbreviate(ambiguous.get()), "dot segments ('.', '..'), empty segments ('//'), encoded '.', '/' or "
                            + "'\\' and ';' parameters are refused; send the path as docs/fleet-service.md writes it")), exchange),
                    callback);
            return true;
        }
        String path = request.getHttpURI().getDecodedPath();
        if (path != null && UNLIMITED.contains(path)) {
            return admitted(request, response, callback);
        }
        if (!inFlight.tryAcquire()) {
            Exchange exchange = new Exchange(request, response, new byte[0]);
            respond(exchange, new Answer(503, error(new ApiException(503, ErrorCode.UNAVAILABLE.name(), "the service is busy",
                    List.of(Problem.of("requests", maxConcurrentRequests, "this many requests are being served already; "
                            + "retry after the time in Retry-After"))), exchange).body(), Map.of("Retry-After", "1")), callback);
            return true;
        }
        // Released once the answer is written (or failed), whichever path the request takes.
        Callback releasing = Callback.from(callback, (Runnable) inFlight::release);
        try {
            return admitted(request, response, releasing);
        } catch (RuntimeException | Error e) {
            inFlight.release();
            throw e;
        }
    }

    /**
     * The raw (still encoded) path when it could mean two things: a dot segment, an empty segment, an encoded
     * dot, slash or backslash, a backslash, or a {@code ;} parameter (all of which Jetty resolves or strips before
     * the decoded path a route sees). A trailing slash is allowed, as before.
     */
    static Optional<String> ambiguousPath(String raw) {
        if (raw == null || raw.isEmpty()) {
            return Optional.empty();
        }
        String lower = raw.toLowerCase(Locale.ROOT);
        if (lower.contains("//") || lower.contains("%2e") || lower.contains("%2f") || lower.contains("%5c")
                || lower.contains("\\") || lower.contains(";")) {
            return Optional.of(raw);
        }
        for (String segment : raw.split("/")) {
            if (segment.equals(".") || segment.equals("..")) {
                return Optional.of(raw);
            }
        }
        return Optional.empty();
    }

    private boolean admitted(org.eclipse.jetty.server.Request request, Response response, Callback callback) {
        long declared = request.getLength();
        if (declared > maxBodyBytes) {
            Exchange exchange = new Exchange(request, response, new byte[0]);
            Answer refusal = error(tooLarge(String.valueOf(declared)), exchange);
            if (declared <= (long) maxBodyBytes * DRAIN_FACTOR) {
                // A body a little over the limit is read and dropped first: answering while the client is still
                // sending makes the connection close under it, and many clients then report a reset, not the 413.
                Executor executor = request.getComponents().getExecutor();
                Content.Source.asByteArrayAsync(request, (int) declared).whenComplete((ignored, failure) ->
                        executor.execute(() -> respond(exchange, refusal, callback)));
            } else {
                respond(exchange, refusal, callback);
            }
            return true;
        }
        CompletableFuture<byte[]> body = Content.Source.asByteArrayAsync(request, maxBodyBytes);
        if (body.isDone()) {
            serve(request, response, callback, body);
        } else {
            Executor executor = request.getComponents().getExecutor();
            body.whenComplete((bytes, failure) -> executor.execute(() -> serve(request, response, callback, body)));
        }
        return true;
    }

    private void serve(org.eclipse.jetty.server.Request request, Response response, Callback callback, CompletableFuture<byte[]> body) {
        Exchange exchange;
        try {
            exchange = new Exchange(request, response, body.join());
        } catch (RuntimeException failure) {
            exchange = new Exchange(request, response, new byte[0]);
            ApiException why = org.eclipse.jetty.server.Request.getContentBytesRead(request) > maxBodyBytes
                    ? tooLarge("more than " + maxBodyBytes)
                    : ApiException.badRequest("BAD_REQUEST", "bad request", Problem.of("body", "<unreadable>",
                    "the request body could not be read (the client stopped sending it, or it was malformed)"));
            respond(exchange, error(why, exchange), callback);
            return;
        }
        Answer answer;
        try {
            answer = dispatch(exchange);
        } catch (Throwable failure) {
            answer = error(failure, exchange);
        }
        respond(exchange, answer, callback);
    }

    private ApiException tooLarge(String size) {
        // The unread rest of the body is never read: the answer closes the connection.
        return new ApiException(413, "BODY_TOO_LARGE", "request body too large",
                List.of(Problem.of("body", size + " bytes", "the limit is " + maxBodyBytes + " bytes")));
    }

    /** The transport's request and response, with the few things the routes read from them. */
    private record Exchange(org.eclipse.jetty.server.Request request, Response response, byte[] body) {
        String method() {
            return request.getMethod().toUpperCase(Locale.ROOT);
        }

        /** The decoded path: Jetty has refused bad escapes, and {@code ambiguousPath} dot and empty segments. */
        String path() {
            String path = request.getHttpURI().getDecodedPath();
            return path == null ? "/" : path;
        }
    }

    private Answer dispatch(Exchange exchange) throws Exception {
        List<String> segments = segments(exchange.path());
        String method = exchange.method();
        Set<String> allowed = new LinkedHashSet<>();
        for (Route route : routes) {
            Optional<Map<String, String>> params = route.match(segments);
            if (params.isEmpty()) {
                continue;
            }
            if (route.method().equals(method)) {
                authenticator.check(route.access(), Optional.ofNullable(exchange.request().getHeaders().get(HttpHeader.AUTHORIZATION)),
                        params.get().getOrDefault("scheduler", ""), params.get().getOrDefault("room", ""));
                Request parsed = new Request(exchange, params.get(), query(exchange.request().getHttpURI().getQuery()));
                // Checked before the route acts: an update must not be saved and then answered 400.
                waitParameter(parsed);
                return route.action().handle(parsed);
            }
            allowed.add(route.method());
        }
        if (!allowed.isEmpty()) {
            exchange.response().getHeaders().put("Allow", String.join(", ", allowed));
            throw new ApiException(405, "METHOD_NOT_ALLOWED", "method not allowed",
                    List.of(Problem.of("method", method, "this route accepts " + String.join(", ", allowed))));
        }
        throw new ApiException(404, "ROUTE_NOT_FOUND", "route not found",
                List.of(Problem.of("path", exchange.path(), "no such route; see docs/fleet-service.md")));
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> out = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            String name = decode(key);
            if (out.put(name, decode(value)) != null) {
                // Which one would win depends on the reader (a gateway may check the first, a route read the last).
                throw ApiException.badRequest("BAD_QUERY", "bad query parameter",
                        Problem.of(abbreviate(name), abbreviate(raw), "given more than once; send each query parameter once"));
            }
        }
        return out;
    }

    private static String decode(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("BAD_REQUEST", "bad request",
                    Problem.of("query", abbreviate(text), "not a valid percent-encoded query parameter"));
        }
    }

    /** One request: path parameters, query parameters and a size-limited body. */
    private final class Request {
        private final Exchange exchange;
        private final Map<String, String> params;
        private final Map<String, String> query;

        Request(Exchange exchange, Map<String, String> params, Map<String, String> query) {
            this.exchange = exchange;
            this.params = params;
            this.query = query;
        }

        /**
         * Who asked, for the audit log: the {@code X-Requested-By} header (letters, digits and {@code @._:-}, at
         * most 60; anything else is replaced) or "anonymous", and the client's address.
         */
        String who() {
            String by = exchange.request().getHeaders().get("X-Requested-By");
            String name = by == null || by.isBlank() ? "anonymous"
                    : abbreviate(by.strip().replaceAll("[^A-Za-z0-9@._:-]", "_"));
            return name + " from " + org.eclipse.jetty.server.Request.getRemoteAddr(exchange.request());
        }

        String param(String name) {
            return params.get(name);
        }

        Optional<String> query(String name) {
            return Optional.ofNullable(query.get(name));
        }

        boolean hasQuery(String name) {
            return query.containsKey(name);
        }

        /** The body as text (already read, within the size limit). */
        String text() {
            return new String(exchange.body(), StandardCharsets.UTF_8);
        }

        /** The body as a JSON object with only {@code fields}; an empty body is an empty object. */
        JsonNode json(Set<String> fields) throws IOException {
            String text = text();
            if (text.isBlank()) {
                return Documents.nodes().objectNode();
            }
            JsonNode node;
            try {
                node = JSON_READER.readTree(text);
            } catch (JacksonException e) {
                throw new ApiException(400, "BAD_JSON", "request body is not valid JSON", Documents.problemsOf(e));
            }
            if (node == null || !node.isObject()) {
                throw ApiException.badRequest("BAD_JSON", "request body is not valid JSON",
                        Problem.of("", abbreviate(text), "must be a JSON object"));
            }
            List<Problem> unknown = new ArrayList<>();
            for (Iterator<String> names = node.propertyNames().iterator(); names.hasNext(); ) {
                String name = names.next();
                if (!fields.contains(name)) {
                    String hint = Suggestions.closest(name, fields).map(s -> "; did you mean '" + s + "'?").orElse("");
                    unknown.add(Problem.of(name, abbreviate(node.get(name).toString()), "unknown field; expected one of " + fields + hint));
                }
            }
            if (!unknown.isEmpty()) {
                throw new ApiException(422, "UNKNOWN_FIELD", "request body has unknown fields", unknown);
            }
            return node;
        }

    }

    // --- healthcheck ------------------------------------------------------------------------------------------

    private Answer healthcheck(Request request) {
        List<String> failed = new ArrayList<>();
        for (Map.Entry<String, Runnable> check : healthChecks.entrySet()) {
            try {
                check.getValue().run();
            } catch (RuntimeException e) {
                failed.add(check.getKey());
                LOG.warn("healthcheck {} failed: {}", check.getKey(), e.getMessage());
            }
        }
        // Which backend failed is said (its name); why is in the log, which the operator reads.
        if (failed.isEmpty()) {
            return Answer.ok(Map.of("healthy", true));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("healthy", false);
        body.put("failed", failed);
        return new Answer(500, body);
    }

    // --- rooms ----------------------------------------------------------------------------------------------------

    private Answer roomReport(Request request) throws IOException {
        JsonNode body = request.json(Set.of("timestamp", "status", "runningMatches"));
        long timestamp = requiredLong(body, "timestamp");
        String status = requiredText(body, "status");
        Optional<Integer> runningMatches = optionalInt(body, "runningMatches");
        checkTimestamp(timestamp);
        String scheduler = existingScheduler(request);
        existingRoom(scheduler, request.param("room"));
        // Maestro's timestamps are whole seconds, while the service registers a new room as creating at the
        // instant it made it: a report counts as made at the end of its second, so a room's first ping in the
        // second it was created is not taken for stale. Reports within one second apply in arrival order.
        Instant at = Instant.ofEpochSecond(timestamp).plusMillis(999);
        if (runningMatches.isPresent()) {
            roomService.report(scheduler, request.param("room"), status, at, runningMatches.get());
        } else {
            roomService.report(scheduler, request.param("room"), status, at);
        }
        return Answer.ok(SUCCESS);
    }

    /** Seconds since the epoch within what stores can hold; the clock-skew bound is the room service's. */
    private static void checkTimestamp(long timestamp) {
        if (timestamp < 0 || timestamp > MAX_TIMESTAMP) {
            // Beyond this, stores cannot hold the instant (Redis scores are microseconds in a double).
            throw ApiException.unprocessable("INVALID_ARGUMENT", "invalid request", Problem.of("timestamp", timestamp,
                    "must be seconds since the epoch, 0.." + MAX_TIMESTAMP
                            + (timestamp > 100_000_000_000L ? " (this looks like milliseconds)" : "")));
        }
    }

    /** Maestro's player events: forwarded to the scheduler's forwarders; their failure is answered when they ask. */
    private Answer playerEvent(Request request) throws Exception {
        JsonNode body = request.json(Set.of("timestamp", "event", "metadata"));
        long timestamp = requiredLong(body, "timestamp");
        String event = requiredText(body, "event");
        // Checked as a ping's is: a forwarder must not be handed milliseconds, a negative or a future time.
        checkTimestamp(timestamp);
        JsonNode metadata = body.path("metadata");
        if (!metadata.isMissingNode() && !metadata.isNull() && !metadata.isObject()) {
            throw wrongType("metadata", metadata, "must be an object");
        }
        Map<String, String> details = new LinkedHashMap<>();
        if (metadata.isObject()) {
            metadata.properties().forEach(f -> details.put(f.getKey(), f.getValue().isString()
                    ? f.getValue().asString() : f.getValue().toString()));
        }
        String scheduler = existingScheduler(request);
        existingRoom(scheduler, request.param("room"));
        CompletableFuture<List<EventDispatcher.Delivery>> deliveries = roomService.playerEvent(scheduler, request.param("room"),
                event, Instant.ofEpochSecond(timestamp), details);
        List<EventDispatcher.Delivery> failed;
        try {
            // Bounded whatever the forwarders' timeout and retries add up to: a room's request is not held longer.
            failed = deliveries.get(forwardResponseWait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } catch (TimeoutException e) {
            throw new ApiException(502, "FORWARD_TIMEOUT", "a forwarder did not answer in time", List.of(Problem.of("forwarders",
                    forwardResponseWait, "no answer within this cap on a forwarded response; the event stays published and "
                            + "its deliveries go on in the background")));
        }
        if (!failed.isEmpty()) {
            throw new ApiException(502, "FORWARD_FAILED", "a forwarder failed", failed.stream()
                    .map(d -> Problem.of("forwarder", d.forwarder(), d.error().orElse("failed"))).toList());
        }
        return Answer.ok(SUCCESS);
    }

    /** Hands out one match slot: the most used room with a free slot, marked allocated. */
    private Answer allocate(Request request) throws IOException {
        request.json(Set.of());
        String scheduler = existingScheduler(request);
        String room = roomService.allocate(scheduler).orElseThrow(() -> new ApiException(409, "NO_ROOM_AVAILABLE",
                "no room has a free match slot", List.of(Problem.of("scheduler", scheduler,
                        "every ready, allocated and occupied room is full; the autoscaler adds rooms"))));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("success", true);
        body.put("room", room);
        return Answer.ok(body);
    }

    private Answer address(Request request) {
        String scheduler = existingScheduler(request);
        String room = existingRoom(scheduler, request.param("room"));
        Optional<RoomAddresses.Address> address = addresses.find(scheduler, room);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("host", address.map(RoomAddresses.Address::host).orElse(""));
        body.put("ports", address.map(a -> a.ports().stream().map(p -> {
            Map<String, Object> port = new LinkedHashMap<>();
            port.put("port", p.port());
            port.put("name", p.name());
            return port;
        }).toList()).orElse(List.of()));
        return Answer.ok(body);
    }

    private Answer roomsByMetric(Request request) {
        if (request.hasQuery("page") || request.hasQuery("pageSize")) {
            return listRooms(request);
        }
        String metric = request.query("metric").orElse("room");
        if (!RoomStatusStore.ORDERING_METRICS.contains(metric)) {
            throw ApiException.badRequest("INVALID_METRIC", "invalid metric",
                    Problem.of("metric", metric, "must be one of " + new java.util.TreeSet<>(RoomStatusStore.ORDERING_METRICS)));
        }
        String limitText = request.query("limit").orElse("5");
        int limit;
        try {
            limit = Integer.parseInt(limitText);
        } catch (NumberFormatException e) {
            limit = 0;
        }
        if (limit < 1) {
            throw ApiException.badRequest("INVALID_LIMIT", "invalid limit", Problem.of("limit", limitText, "must be an integer greater than 0"));
        }
        String scheduler = existingScheduler(request);
        if (metric.equals("room") || metric.equals("legacy")) {
            // Packing: partly used rooms with free slots first, so empty rooms stay free to be scaled down.
            return Answer.ok(Map.of("rooms", roomService.roomsWithFreeSlots(scheduler, limit)));
        }
        return Answer.ok(Map.of("rooms", rooms.roomsOrderedByMetric(scheduler, metric, limit)));
    }

    /** Largest page of {@code GET /scheduler/{s}/rooms?page=}. */
    static final int MAX_PAGE_SIZE = 1_000;

    /**
     * Every room the scheduler's driver has, by name, a page at a time: its status (from its reports; {@code
     * creating} until it pings), version, driver phase, last ping, matches and allocated slots.
     */
    private Answer listRooms(Request request) {
        int page = pageParameter(request, "page", 1, Integer.MAX_VALUE, 1);
        int pageSize = pageParameter(request, "pageSize", 1, MAX_PAGE_SIZE, 100);
        String scheduler = existingScheduler(request);
        List<dev.hotspare.pool.Member> members = driver.list(scheduler).stream()
                .sorted(java.util.Comparator.comparing(dev.hotspare.pool.Member::id)).toList();
        long from = (long) (page - 1) * pageSize;
        List<Map<String, Object>> out = new ArrayList<>();
        for (int i = (int) Math.min(from, members.size()); i < members.size() && out.size() < pageSize; i++) {
            dev.hotspare.pool.Member member = members.get(i);
            Optional<dev.hotspare.fleet.RoomState> state = rooms.room(scheduler, member.id());
            Map<String, Object> room = new LinkedHashMap<>();
            room.put("id", member.id());
            room.put("status", state.map(r -> r.status().wireName()).orElse("creating"));
            room.put("version", member.templateVersion());
            room.put("phase", member.phase().name().toLowerCase(Locale.ROOT));
            room.put("createdAt", member.createdAt().getEpochSecond());
            state.ifPresent(r -> {
                room.put("lastPing", r.lastPing().getEpochSecond());
                room.put("runningMatches", r.runningMatches());
                room.put("allocatedSlots", r.allocatedSlots());
            });
            out.add(room);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("rooms", out);
        body.put("page", page);
        body.put("pageSize", pageSize);
        body.put("total", members.size());
        return Answer.ok(body);
    }

    private static int pageParameter(Request request, String name, int min, int max, int fallback) {
        Optional<String> text = request.query(name);
        if (text.isEmpty()) {
            return fallback;
        }
        try {
            int value = Integer.parseInt(text.get());
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw ApiException.badRequest("INVALID_PAGE", "invalid page", Problem.of(name, abbreviate(text.get()),
                "must be an integer in " + min + ".." + max));
    }

    // --- schedulers -----------------------------------------------------------------------------------------------

    private Answer create(Request request) throws IOException {
        SchedulerRecord created = operations.create(configText(request));
        AUDIT.info("scheduler {} created at {} by {}", created.name(), created.version(), request.who());
        // This instance's worker picks the scheduler up now rather than at its next sync.
        schedulersChanged.run();
        return new Answer(201, SUCCESS);
    }

    private Answer delete(Request request) throws Exception {
        knownSchedulers.invalidate(request.param("scheduler"));
        await(operations.delete(request.param("scheduler")));
        knownSchedulers.invalidate(request.param("scheduler"));
        AUDIT.info("scheduler {} deleted by {}", request.param("scheduler"), request.who());
        operationLog.forget(request.param("scheduler"));
        // This instance's worker stops watching it now, and its meters go with it (other instances at their sync).
        schedulersChanged.run();
        return Answer.ok(SUCCESS);
    }

    private Answer update(Request request) throws Exception {
        Optional<String> surge = request.query("maxsurge");
        if (surge.isEmpty()) {
            // Without the query parameter, the config's maxSurge (Maestro 10), else 25%.
            return started(request, "update", operations.update(request.param("scheduler"), configText(request)));
        }
        // Maestro 9's maxsurge is a percentage: "25" and "25%" both mean a quarter of the rooms.
        String text = surge.get().trim();
        MaxSurge maxSurge;
        try {
            maxSurge = MaxSurge.parse("maxsurge", text.endsWith("%") ? text : text + "%");
        } catch (ValidationException e) {
            throw ApiException.badRequest("INVALID_MAXSURGE", "invalid maxsurge",
                    Problem.of("maxsurge", surge.get(), "must be a percentage in 1..100, e.g. 25 or 25%"));
        }
        return started(request, "update", operations.update(request.param("scheduler"), configText(request), maxSurge));
    }

    private Answer image(Request request) throws Exception {
        JsonNode body = request.json(Set.of("image"));
        return started(request, "image", operations.updateImage(request.param("scheduler"), optionalText(body, "image")));
    }

    private Answer min(Request request) throws Exception {
        JsonNode body = request.json(Set.of("min"));
        return started(request, "min", operations.updateMin(request.param("scheduler"), optionalInt(body, "min")));
    }

    private Answer statusOrConfig(Request request) {
        String scheduler = request.param("scheduler");
        if (request.hasQuery("config")) {
            return Answer.ok(Map.of("yaml", operations.config(scheduler, Optional.empty())));
        }
        SchedulerStatus status = operations.status(scheduler);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("game", status.game().orElse(""));
        body.put("state", status.state());
        body.put("stateLastChangedAt", status.stateLastChangedAt().getEpochSecond());
        body.put("lastScaleOpAt", status.lastScaleAt().map(Instant::getEpochSecond).orElse(0L));
        body.put("roomsAtCreating", status.rooms().creating());
        body.put("roomsAtOccupied", status.rooms().occupied());
        body.put("roomsAtReady", status.rooms().ready());
        body.put("roomsAtTerminating", status.rooms().terminating());
        body.put("roomsAtAllocated", status.rooms().allocated());
        body.put("roomsAtError", status.rooms().error());
        body.put("runningMatches", status.rooms().runningMatches());
        body.put("allocatedSlots", status.rooms().allocatedSlots());
        body.put("version", status.version().toString());
        status.rolledBackTo().ifPresent(v -> body.put("rolledBackTo", v.toString()));
        workerErrors.apply(scheduler).ifPresent(error -> body.put("error", error));
        return Answer.ok(body);
    }

    private Answer config(Request request) {
        Optional<SchedulerVersion> version = request.query("version").filter(v -> !v.isEmpty()).map(v -> {
            try {
                return SchedulerVersion.parse(v);
            } catch (ValidationException e) {
                throw new ApiException(400, "INVALID_VERSION", "invalid version", e.problems());
            }
        });
        return Answer.ok(Map.of("yaml", operations.config(request.param("scheduler"), version)));
    }

    private Answer scale(Request request) throws Exception {
        JsonNode body = request.json(Set.of("scaleup", "scaledown", "replicas"));
        String scheduler = request.param("scheduler");
        Optional<Integer> up = optionalInt(body, "scaleup");
        Optional<Integer> down = optionalInt(body, "scaledown");
        Optional<Integer> replicas = optionalInt(body, "replicas");
        int given = (up.isPresent() ? 1 : 0) + (down.isPresent() ? 1 : 0) + (replicas.isPresent() ? 1 : 0);
        if (given == 0) {
            throw ApiException.unprocessable(ErrorCode.MISSING_FIELD.name(), message(ErrorCode.MISSING_FIELD),
                    Problem.of("scaleup", Problem.MISSING, "send one of scaleup, scaledown or replicas"));
        }
        if (given > 1) {
            throw ApiException.unprocessable("INVALID_FIELD", "invalid request body",
                    Problem.of("", body.toString(), "send only one of scaleup, scaledown or replicas"));
        }
        if (up.isPresent()) {
            int added = await(operations.scaleUp(scheduler, up.get()));
            AUDIT.info("scheduler {} scaled up by {} rooms (asked {}) by {}", scheduler, added, up.get(), request.who());
        } else if (down.isPresent()) {
            int removed = await(operations.scaleDown(scheduler, down.get()));
            AUDIT.info("scheduler {} scaled down by {} rooms (asked {}) by {}", scheduler, removed, down.get(), request.who());
        } else {
            int change = await(operations.scaleTo(scheduler, replicas.get()));
            AUDIT.info("scheduler {} scaled to {} replicas ({} rooms) by {}", scheduler, replicas.get(),
                    change >= 0 ? "+" + change : String.valueOf(change), request.who());
        }
        return Answer.ok(SUCCESS);
    }

    private Answer releases(Request request) {
        List<Map<String, Object>> releases = operations.releases(request.param("scheduler")).stream().map(r -> {
            Map<String, Object> release = new LinkedHashMap<>();
            release.put("version", r.version().toString());
            release.put("createdAt", r.createdAt().toString());
            r.rolledBackTo().ifPresent(v -> release.put("rolledBackTo", v.toString()));
            return release;
        }).toList();
        return Answer.ok(Map.of("releases", releases));
    }

    private Answer rollback(Request request) throws Exception {
        JsonNode body = request.json(Set.of("version"));
        String text = optionalText(body, "version").orElseThrow(() -> ApiException.unprocessable(ErrorCode.MISSING_FIELD.name(),
                message(ErrorCode.MISSING_FIELD), Problem.of("version", Problem.MISSING, "required")));
        return started(request, "rollback", operations.rollback(request.param("scheduler"), version("version", text)));
    }

    private Answer diff(Request request) throws IOException {
        JsonNode body = request.json(Set.of("version1", "version2"));
        Optional<SchedulerVersion> v1 = optionalText(body, "version1").map(v -> version("version1", v));
        Optional<SchedulerVersion> v2 = optionalText(body, "version2").map(v -> version("version2", v));
        if (v2.isPresent() && v1.isEmpty()) {
            throw ApiException.unprocessable(ErrorCode.MISSING_FIELD.name(), message(ErrorCode.MISSING_FIELD),
                    Problem.of("version1", Problem.MISSING, "required when version2 is given"));
        }
        VersionDiff diff = operations.diff(request.param("scheduler"), v1, v2);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("version1", diff.version1().toString());
        out.put("version2", diff.version2().toString());
        out.put("diff", diff.diff().describe());
        return Answer.ok(out);
    }

    /**
     * A config change was saved as {@code handle}'s version: logged, recorded as an operation, and answered now
     * (the rolling replace goes on in the background, as in Maestro 9), or when it is done with {@code ?wait=true}.
     */
    private Answer started(Request request, String kind, UpdateHandle handle) throws Exception {
        String scheduler = request.param("scheduler");
        OperationLog.Operation operation = operationLog.start(scheduler, kind, handle, request.who());
        AUDIT.info("scheduler {} {} saved as {} ({} change, operation {}) by {}", scheduler, kind, handle.version(),
                handle.diff().kind().name().toLowerCase(Locale.ROOT), operation.id, request.who());
        handle.outcome().whenComplete((status, error) -> AUDIT.info("scheduler {} {} to {} ended {} (operation {})",
                scheduler, kind, handle.version(), error == null ? status : OperationStatus.ERROR, operation.id));
        if (waitParameter(request)) {
            finished(scheduler, handle);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("success", true);
        body.put("version", handle.version().toString());
        body.put("operationId", operation.id);
        body.put("status", operation.status().name().toLowerCase(Locale.ROOT));
        return Answer.ok(body);
    }

    /** {@code ?wait=}: absent or {@code false} answers now, {@code true} after the rolling replace; nothing else. */
    private static boolean waitParameter(Request request) {
        Optional<String> wait = request.query("wait");
        if (wait.isEmpty() || wait.get().equals("false")) {
            return false;
        }
        if (wait.get().equals("true")) {
            return true;
        }
        throw ApiException.badRequest("INVALID_WAIT", "invalid wait", Problem.of("wait", abbreviate(wait.get()),
                "must be true or false"));
    }

    private Answer listOperations(Request request) {
        String scheduler = existingScheduler(request);
        return Answer.ok(Map.of("operations", operationLog.list(scheduler).stream().map(OperationLog.Operation::toJson).toList()));
    }

    private OperationLog.Operation operation(Request request) {
        String scheduler = existingScheduler(request);
        return operationLog.find(scheduler, request.param("operation")).orElseThrow(() -> new ApiException(404,
                "OPERATION_NOT_FOUND", "operation not found", List.of(Problem.of("operation", request.param("operation"),
                        "no such operation of scheduler " + scheduler + " on this instance (each instance lists what it ran; "
                                + "the outcome of every version is in /releases)"))));
    }

    private Answer getOperation(Request request) {
        return Answer.ok(operation(request).toJson());
    }

    private Answer cancelOperation(Request request) {
        OperationLog.Operation operation = operation(request);
        if (operation.status() != OperationStatus.IN_PROGRESS) {
            throw new ApiException(409, "OPERATION_FINISHED", "operation already finished", List.of(Problem.of("operation",
                    operation.id, "ended " + operation.status().name().toLowerCase(Locale.ROOT) + "; nothing to cancel")));
        }
        operation.handle.cancel();
        AUDIT.info("scheduler {} {} to {} cancelled (operation {}) by {}", operation.scheduler, operation.kind,
                operation.handle.version(), operation.id, request.who());
        Map<String, Object> body = new LinkedHashMap<>(operation.toJson());
        body.put("success", true);
        return Answer.ok(body);
    }

    // --- locks --------------------------------------------------------------------------------------------------

    private Answer listLocks(Request request) {
        String scheduler = request.param("scheduler");
        String prefix = LockId.prefixOf(scheduler);
        List<Map<String, Object>> held = new ArrayList<>();
        for (Lease lease : locks.list(scheduler)) {
            Map<String, Object> lock = new LinkedHashMap<>();
            lock.put("kind", lease.key().substring(prefix.length()));
            lock.put("key", lease.key());
            lock.put("owner", lease.ownerToken());
            lock.put("fencingToken", lease.fencingToken());
            lock.put("acquiredAt", lease.acquiredAt().toString());
            lock.put("expiresAt", lease.expiresAt().toString());
            held.add(lock);
        }
        return Answer.ok(Map.of("locks", held));
    }

    private Answer forceRelease(Request request) {
        String kindText = request.param("kind");
        List<String> kinds = Arrays.stream(LockKind.values()).map(LockKind::keySegment).toList();
        LockKind kind = Arrays.stream(LockKind.values()).filter(k -> k.keySegment().equals(kindText.toLowerCase(Locale.ROOT)))
                .findFirst().orElseThrow(() -> new ApiException(404, "LOCK_KIND_NOT_FOUND", "no such lock kind",
                        List.of(Problem.of("kind", kindText, "must be one of " + kinds
                                + Suggestions.closest(kindText, kinds).map(s -> "; did you mean '" + s + "'?").orElse("")))));
        boolean released = locks.forceRelease(LockId.of(request.param("scheduler"), kind));
        AUDIT.warn("scheduler {} lock {} force-released (was held: {}) by {}", request.param("scheduler"), kind, released,
                request.who());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("success", true);
        body.put("released", released);
        return Answer.ok(body);
    }

    // --- helpers ------------------------------------------------------------------------------------------------

    private String existingScheduler(Request request) {
        String scheduler = request.param("scheduler");
        if (knownSchedulers.getIfPresent(scheduler) == null) {
            if (schedulers.get(scheduler).isEmpty()) {
                throw notFound(scheduler);
            }
            knownSchedulers.put(scheduler, Boolean.TRUE);
        }
        return scheduler;
    }

    /**
     * {@code room} when the scheduler's driver has it (in any phase, so a room being deleted can still report
     * terminating); otherwise 404 ROOM_NOT_FOUND. Room routes check this so that a report for a room the service
     * never created is never recorded, listed, allocated or counted towards {@code min}.
     */
    private String existingRoom(String scheduler, String room) {
        boolean found;
        try {
            found = driver.find(scheduler, room).isPresent();
        } catch (ValidationException e) {
            // A name the driver cannot even hold (not a DNS label for pods): no such room either.
            found = false;
        }
        if (!found) {
            throw new ApiException(404, "ROOM_NOT_FOUND", "room not found",
                    List.of(Problem.of("room", room, "scheduler '" + scheduler + "' has no such room")));
        }
        return room;
    }

    private static ApiException notFound(String scheduler) {
        return new ApiException(404, ErrorCode.SCHEDULER_NOT_FOUND.name(), message(ErrorCode.SCHEDULER_NOT_FOUND),
                List.of(Problem.of("scheduler", scheduler, "no scheduler of this name exists")));
    }

    /** A config body (YAML or JSON); text that is neither is a bad request, not an invalid config. */
    private String configText(Request request) throws IOException {
        String text = request.text();
        if (!text.isBlank()) {
            try {
                ConfigDocument.of(text);
            } catch (ValidationException e) {
                throw new ApiException(400, "BAD_JSON", "request body is not valid JSON or YAML", e.problems());
            }
        }
        return text;
    }

    private static SchedulerVersion version(String field, String text) {
        try {
            return SchedulerVersion.parse(text);
        } catch (ValidationException e) {
            throw ApiException.unprocessable("INVALID_FIELD", "invalid request body",
                    Problem.of(field, text, "must look like v1.0: 'v', a major of at least 1, '.', a minor"));
        }
    }

    private static long requiredLong(JsonNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            throw ApiException.unprocessable(ErrorCode.MISSING_FIELD.name(), message(ErrorCode.MISSING_FIELD),
                    Problem.of(field, Problem.MISSING, "required"));
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw wrongType(field, value, "must be an integer");
        }
        return value.asLong();
    }

    private static String requiredText(JsonNode body, String field) {
        return optionalText(body, field).orElseThrow(() -> ApiException.unprocessable(ErrorCode.MISSING_FIELD.name(),
                message(ErrorCode.MISSING_FIELD), Problem.of(field, Problem.MISSING, "required")));
    }

    private static Optional<String> optionalText(JsonNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isString()) {
            throw wrongType(field, value, "must be a string");
        }
        return Optional.of(value.asString());
    }

    private static Optional<Integer> optionalInt(JsonNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt()) {
            throw wrongType(field, value, "must be an integer");
        }
        return Optional.of(value.asInt());
    }

    private static ApiException wrongType(String field, JsonNode value, String why) {
        return ApiException.unprocessable("INVALID_FIELD", "invalid request body", Problem.of(field, abbreviate(value.toString()), why));
    }

    /**
     * Waits for an update's rolling replace; anything but DEPLOYED is an error naming what happened — read back
     * from the releases, so it says whether the previous config really was restored (a restore can be refused,
     * e.g. when another instance took the scheduler's lock meanwhile).
     */
    private void finished(String scheduler, UpdateHandle handle) throws Exception {
        OperationStatus status = await(handle.outcome());
        if (status == OperationStatus.DEPLOYED) {
            return;
        }
        String what;
        try {
            Optional<dev.hotspare.fleet.spi.Release> restored = operations.releases(scheduler).stream()
                    .filter(r -> r.version().compareTo(handle.version()) > 0).reduce((first, second) -> second);
            what = restored.map(r -> "ended " + status + "; the previous config was saved again as " + r.version()
                            + (r.status() == OperationStatus.DEPLOYED ? " and every room is back on it"
                            : " (" + r.status() + ": its rooms may not all be back on it)"))
                    .orElse("ended " + status + "; the previous config could NOT be restored (another instance took the "
                            + "scheduler's lock, or a store failed): the scheduler stays on " + handle.version());
        } catch (RuntimeException e) {
            what = "ended " + status + "; whether the previous config was restored is unknown (the releases could not be read)";
        }
        throw new ApiException(500, "UPDATE_" + status.name(), "the rolling update did not finish",
                List.of(Problem.of("version", handle.version(), what)));
    }

    private <T> T await(CompletableFuture<T> future) throws Exception {
        try {
            return future.get(operationWait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } catch (TimeoutException e) {
            throw new ApiException(500, "TIMEOUT", "the operation did not finish in time",
                    List.of(Problem.of("operation", operationWait, "still running after this long; it continues in the background")));
        }
    }

    private static String message(ErrorCode code) {
        return switch (code) {
            case SCHEDULER_NOT_FOUND -> "scheduler not found";
            case VERSION_NOT_FOUND -> "version not found";
            case NAME_MISMATCH -> "scheduler name in the path differs from the name in the config";
            case MISSING_FIELD -> "a required field is missing";
            case INVALID_CONFIG -> "invalid scheduler config";
            case ALREADY_EXISTS -> "scheduler already exists";
            case LOCKED -> "scheduler is locked by another operation";
            case UNAVAILABLE -> "a store is unavailable";
        };
    }

    private Answer error(Throwable failure, Exchange exchange) {
        Throwable e = failure;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        ApiException api;
        if (e instanceof ApiException known) {
            api = known;
        } else if (e instanceof SchedulerOperationException op) {
            api = new ApiException(op.code().httpStatus(), op.code().name(), message(op.code()), op.problems());
        } else if (e instanceof SchedulerNotFoundException nf) {
            api = notFound(nf.scheduler());
        } else if (e instanceof ValidationException invalid) {
            api = new ApiException(422, "INVALID_ARGUMENT", "invalid request", invalid.problems());
        } else if (e instanceof InterruptedException) {
            // Only close() interrupts request threads: the operation goes on under its locks, or ends by lease TTL.
            Thread.currentThread().interrupt();
            api = new ApiException(503, ErrorCode.UNAVAILABLE.name(), "the service is shutting down",
                    List.of(Problem.of("request", exchange.method() + " " + exchange.path(),
                            "interrupted by shutdown; check the scheduler's status and retry")));
        } else if (e instanceof StoreUnavailableException unavailable) {
            LOG.warn("{} {}: store unavailable: {}", exchange.method(), exchange.path(), unavailable.toString());
            api = new ApiException(503, ErrorCode.UNAVAILABLE.name(), message(ErrorCode.UNAVAILABLE),
                    List.of(Problem.of("store", unavailable.store(), "did not answer; retry later")));
        } else {
            LOG.error("{} {} failed", exchange.method(), exchange.path(), e);
            api = new ApiException(500, "INTERNAL", "internal error",
                    List.of(Problem.of("request", exchange.method() + " " + exchange.path(),
                            "failed unexpectedly; the service log has the details")));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", api.code());
        body.put("error", api.error());
        body.put("description", api.description());
        body.put("success", false);
        return new Answer(api.status(), body, api.status() == 401
                ? Map.of(HttpHeader.WWW_AUTHENTICATE.asString(), "Bearer realm=\"hotspare\"") : Map.of());
    }

    private void respond(Exchange exchange, Answer answer, Callback callback) {
        byte[] bytes;
        int status = answer.status();
        String contentType = JSON_CONTENT_TYPE;
        try {
            if (answer.body() instanceof PlainText text) {
                bytes = text.text().getBytes(StandardCharsets.UTF_8);
                contentType = text.contentType();
            } else {
                bytes = JSON_WRITER.writeValueAsBytes(answer.body());
            }
        } catch (JacksonException e) {
            LOG.error("cannot render answer", e);
            bytes = "{\"code\":\"INTERNAL\",\"error\":\"internal error\",\"description\":\"cannot render the answer\",\"success\":false}"
                    .getBytes(StandardCharsets.UTF_8);
            status = 500;
        }
        Response response = exchange.response();
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
        response.getHeaders().put(VERSION_HEADER, apiVersion);
        response.getHeaders().put(HOTSPARE_VERSION_HEADER, dev.hotspare.internal.HotspareVersion.current());
        answer.headers().forEach((name, value) -> response.getHeaders().put(name, value));
        if (status == 413) {
            // The unread rest of the body would be taken for the next request.
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
        }
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }

    private static String abbreviate(String text) {
        return text.length() <= 60 ? text : text.substring(0, 57) + "...";
    }
}
