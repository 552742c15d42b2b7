package dev.hotspare.fleet.events.internal;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.node.ObjectNode;
import dev.hotspare.fleet.events.EventForwarder;
import dev.hotspare.fleet.events.EventForwarderProvider;
import dev.hotspare.fleet.events.EventForwarderProvider.ForwarderContext;
import dev.hotspare.fleet.events.FleetEvent;
import dev.hotspare.json.Documents;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code webhook} forwarder: posts each event as a JSON object to a URL with the JDK's {@link HttpClient}.
 * Configured per forwarder in the scheduler's {@code forwarders.webhook.<name>} block: {@code url} (required),
 * {@code timeout} (seconds per attempt, default 5), {@code headers}, {@code retries} (default 3) and {@code metadata}
 * (sent with every event).
 *
 * <p>It never holds the thread that hands it an event: the request goes out asynchronously, a failed attempt
 * (no answer, a timeout, a 5xx, 408 or 429) is retried after 0.5 s, 1 s, 2 s, … (at most 30 s) on the fleet's
 * {@link TaskScheduler}, and the returned future completes once the event is delivered or finally refused. At most
 * {@value #MAX_PENDING} events (by default) wait or travel at once per forwarder; beyond that an event is dropped
 * (the future fails with "queue full") and counted, so a dead endpoint costs bounded memory.
 *
 * <p>Failure messages name the forwarder, the URL without credentials or query, and the last HTTP status or
 * error — never a header value.
 */
public final class WebhookEventForwarder implements EventForwarder {

    /** Events waiting or travelling at once, per forwarder. */
    public static final int MAX_PENDING = 1_000;
    /** Default seconds per attempt. */
    public static final long DEFAULT_TIMEOUT_SECONDS = 5;
    /** Default retries after the first attempt. */
    public static final int DEFAULT_RETRIES = 3;

    private static final Duration FIRST_BACKOFF = Duration.ofMillis(500);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

    private final String name;
    private final URI url;
    private final Duration timeout;
    private final Map<String, String> headers;
    private final int retries;
    private final Map<String, Object> metadata;
    private final TaskScheduler tasks;
    private final HttpClient client;
    private final int maxPending;
    private final Semaphore pending;
    private final AtomicLong dropped = new AtomicLong();

    /**
     * A webhook forwarder.
     *
     * @param name     its name in the config
     * @param url      where events are posted
     * @param timeout  how long one attempt may take
     * @param headers  headers sent with every event
     * @param retries  attempts after the first fails
     * @param metadata data sent with every event
     * @param tasks      where retries are scheduled
     * @param maxPending the most events waiting or travelling at once; more are dropped
     */
    public WebhookEventForwarder(String name, URI url, Duration timeout, Map<String, String> headers, int retries,
                                 Map<String, Object> metadata, TaskScheduler tasks, HttpClient client, int maxPending) {
        this.name = Objects.requireNonNull(name, "name");
        this.url = Objects.requireNonNull(url, "url");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.headers = Map.copyOf(headers);
        this.retries = retries;
        this.metadata = new LinkedHashMap<>(metadata);
        this.tasks = Objects.requireNonNull(tasks, "tasks");
        this.client = Objects.requireNonNull(client, "client");
        this.maxPending = maxPending;
        this.pending = new Semaphore(maxPending);
    }

    @Override
    public String name() {
        return "webhook/" + name;
    }

    /**
     * Events dropped because the most events were already waiting or travelling.
     *
     * @return the count
     */
    public long dropped() {
        return dropped.get();
    }

    @Override
    public void forward(FleetEvent event) throws Exception {
        forwardAsync(event).get();
    }

    @Override
    public CompletableFuture<Void> forwardAsync(FleetEvent event) {
        if (!pending.tryAcquire()) {
            dropped.incrementAndGet();
            // RejectedExecutionException: the dispatcher counts it as dropped.
            return CompletableFuture.failedFuture(new java.util.concurrent.RejectedExecutionException(name() + ": queue full ("
                    + maxPending + " events waiting for " + where() + "); event dropped"));
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        done.whenComplete((ok, failure) -> pending.release());
        HttpRequest request;
        try {
            HttpRequest.Builder builder = HttpRequest.newBuilder(url).timeout(timeout)
                    .header("Content-Type", "application/json; charset=utf-8")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body(event)));
            headers.forEach(builder::header);
            request = builder.build();
        } catch (RuntimeException e) {
            done.completeExceptionally(new IllegalStateException(name() + ": cannot build the request to " + where()));
            return done;
        }
        attempt(request, 0, done);
        return done;
    }

    private void attempt(HttpRequest request, int attempt, CompletableFuture<Void> done) {
        client.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, failure) -> {
            String outcome;
            boolean retryable;
            if (failure == null && response.statusCode() / 100 == 2) {
                done.complete(null);
                return;
            }
            if (failure != null) {
                outcome = "no answer (" + reason(failure) + ")";
                retryable = true;
            } else {
                int status = response.statusCode();
                outcome = "answered " + status;
                retryable = status >= 500 || status == 408 || status == 429;
            }
            if (!retryable || attempt >= retries) {
                done.completeExceptionally(new IllegalStateException(name() + ": POST " + where() + " " + outcome
                        + " after " + (attempt + 1) + (attempt == 0 ? " attempt" : " attempts")));
                return;
            }
            try {
                tasks.schedule(backoff(attempt), () -> attempt(request, attempt + 1, done));
            } catch (RuntimeException schedulerGone) {
                done.completeExceptionally(new IllegalStateException(name() + ": POST " + where() + " " + outcome
                        + "; no retry (shutting down)"));
            }
        });
    }

    /** 0.5 s, 1 s, 2 s, ... up to 30 s. */
    static Duration backoff(int attempt) {
        Duration wait = FIRST_BACKOFF.multipliedBy(1L << Math.min(attempt, 16));
        return wait.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : wait;
    }

    private static String reason(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        if (cause instanceof java.net.http.HttpTimeoutException) {
            return "timed out";
        }
        if (cause instanceof java.net.ConnectException) {
            return "connection refused";
        }
        String message = cause.getMessage();
        return message == null || message.isBlank() ? "connection failed" : message;
    }

    /** The URL for messages: scheme, host, port and path — no user info, no query. */
    private String where() {
        return url.getScheme() + "://" + url.getHost() + (url.getPort() >= 0 ? ":" + url.getPort() : "")
                + (url.getRawPath() == null ? "" : url.getRawPath());
    }

    private byte[] body(FleetEvent event) {
        ObjectNode body = Documents.nodes().objectNode();
        body.put("type", event.type().name());
        body.put("scheduler", event.scheduler());
        event.room().ifPresent(room -> body.put("room", room));
        body.put("at", event.at().toString());
        body.put("timestamp", event.at().getEpochSecond());
        ObjectNode eventMetadata = body.putObject("metadata");
        event.metadata().forEach(eventMetadata::put);
        ObjectNode forwarder = body.putObject("forwarder");
        forwarder.put("name", name);
        forwarder.set("metadata", Documents.convert(metadata, ObjectNode.class));
        try {
            return Documents.jsonWriter().writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
        } catch (JacksonException e) {
            throw new IllegalStateException("cannot write event " + event.type(), e);
        }
    }

    /** ServiceLoader entry for plugin {@code webhook}. */
    public static final class Provider implements EventForwarderProvider {

        /** The JDK client every webhook forwarder shares (its threads are daemons). */
        private static final class Client {
            static final HttpClient SHARED = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                    .followRedirects(HttpClient.Redirect.NEVER).build();
        }

        /** A provider; forwarders share one HTTP client. */
        public Provider() {
        }

        @Override
        public String plugin() {
            return "webhook";
        }

        /**
         * Without a fleet's task scheduler, retries run on a private timer on the system clock.
         *
         * @param name   the forwarder's name
         * @param config its settings
         * @return the forwarder
         */
        @Override
        public EventForwarder create(String name, Map<String, Object> config) {
            java.util.concurrent.ScheduledExecutorService timer = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread thread = new Thread(r, "hotspare-webhook-" + name);
                thread.setDaemon(true);
                return thread;
            });
            return create(name, config, new ForwarderContext(TaskScheduler.system(timer, java.time.Clock.systemUTC())));
        }

        @Override
        public EventForwarder create(String name, Map<String, Object> config, ForwarderContext context) {
            String path = "forwarders.webhook." + name;
            Object url = config.get("url");
            URI uri;
            try {
                uri = url instanceof String text ? new URI(text) : null;
            } catch (java.net.URISyntaxException e) {
                uri = null;
            }
            if (uri == null || uri.getHost() == null
                    || !("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))) {
                throw new ValidationException(Problem.of(path + ".url", url == null ? Problem.MISSING : url,
                        "a webhook forwarder needs the http or https URL it posts events to"));
            }
            long timeoutSeconds = number(config.get("timeout"), DEFAULT_TIMEOUT_SECONDS, path + ".timeout");
            int retries = (int) number(config.get("retries"), DEFAULT_RETRIES, path + ".retries");
            Map<String, String> headers = new LinkedHashMap<>();
            if (config.get("headers") instanceof Map<?, ?> given) {
                given.forEach((k, v) -> headers.put(String.valueOf(k), String.valueOf(v)));
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> metadata = config.get("metadata") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
            return new WebhookEventForwarder(name, uri, Duration.ofSeconds(timeoutSeconds), headers, retries, metadata,
                    context.tasks(), Client.SHARED, MAX_PENDING);
        }

        private static long number(Object value, long fallback, String path) {
            if (value == null) {
                return fallback;
            }
            if (value instanceof Number n && n.longValue() >= 0 && n.doubleValue() == n.longValue()) {
                return n.longValue();
            }
            throw new ValidationException(Problem.of(path, value, "expected a whole number"));
        }
    }
}
