package dev.hotspare.fleetserver;

import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.events.EventDispatcher;
import dev.hotspare.fleet.lock.spi.LockStore;
import dev.hotspare.fleet.runtime.Fleet;
import dev.hotspare.fleet.runtime.SchedulerOperations;
import dev.hotspare.fleet.runtime.internal.Worker;
import dev.hotspare.fleet.spi.RoomStatusStore;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.fleet.spi.UsageHistory;
import dev.hotspare.fleet.spi.UsageMetrics;
import dev.hotspare.kpi.KpiListener;
import dev.hotspare.memory.InMemoryLockStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.memory.InMemoryRoomStatusStore;
import dev.hotspare.memory.InMemorySchedulerStore;
import dev.hotspare.memory.InMemoryUsageHistory;
import dev.hotspare.micrometer.KpiSnapshot;
import dev.hotspare.micrometer.KpiSummary;
import dev.hotspare.micrometer.MicrometerKpis;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.TaskScheduler;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A game-fleet service: Maestro's HTTP API (docs/fleet-service.md) over hotspare's scheduler operations, room
 * service and worker, on whatever SPI implementations it is given — in memory by default, Redis + PostgreSQL
 * + Kubernetes through {@link FleetServiceSettings}.
 *
 * <pre>{@code
 * try (FleetService service = FleetService.builder(TaskScheduler.system(executor, Clock.systemUTC())).build()) {
 *     service.start();
 *     System.out.println("listening on " + service.address());
 * }
 * }</pre>
 *
 * Any number of services may run against the same stores: each runs a {@link Worker}, and the lock protocol
 * lets only one of them act on a scheduler's rooms at a time.
 */
public final class FleetService implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FleetService.class);

    /** The largest request body accepted by default (1 MiB: a scheduler config is a few KiB). */
    public static final int DEFAULT_MAX_BODY_BYTES = 1 << 20;

    /** Largest request line plus headers (8 KiB; larger ones get 431 or 414). */
    public static final int MAX_HEADER_BYTES = 8 * 1024;

    /** The most threads serving requests by default. */
    public static final int DEFAULT_MAX_THREADS = 64;

    /** How long a silent connection is kept by default. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);

    /** Counter: events dropped because the dispatcher's or a forwarder's queue was full (docs/kpis.md). */
    public static final String EVENTS_DROPPED = "hotspare.fleet.events.dropped";

    /** The longest a player event waits for its forwarded answers by default (then 502 FORWARD_TIMEOUT). */
    public static final Duration DEFAULT_FORWARD_RESPONSE_WAIT = Duration.ofSeconds(10);

    /** The Maestro API version this service implements, sent as {@code X-Maestro-Version}. */
    public static final String DEFAULT_API_VERSION = "9.6.1";

    private final Builder settings;
    private final Fleet fleet;
    private final FleetApi api;
    private final Authenticator authenticator;
    private dev.hotspare.time.TaskScheduler.Cancellable insecureWarning;
    private Server server;
    private ServerConnector connector;
    private boolean closed;

    private FleetService(Builder b) {
        this.settings = b;
        KpiListener kpis = new MicrometerKpis(b.meters);
        // Events the dispatcher or a forwarder's own queue dropped (docs/fleet.md: "dropped and counted").
        io.micrometer.core.instrument.FunctionCounter.builder(EVENTS_DROPPED, b.events, EventDispatcher::dropped)
                .description("Events dropped because a forwarding queue was full").register(b.meters);
        Fleet.Builder fleetBuilder = Fleet.builder().scheduler(b.tasks).schedulerStore(b.schedulers).roomStatusStore(b.rooms)
                .usageHistory(b.usageHistory).lockStore(b.lockStore).memberDriver(b.driver).usageMetrics(b.usageMetrics)
                .autoscaler(b.autoscaler).events(b.events).listener(kpis).settings(b.fleetSettings);
        this.fleet = fleetBuilder.build();
        // A synchronous update waits for its rolling replace; give it the replace timeout plus the lock wait.
        Duration operationWait = b.fleetSettings.replaceTimeout().plus(b.fleetSettings.lockWait())
                .plus(b.fleetSettings.pollInterval().multipliedBy(2));
        this.authenticator = b.insecureNoAuth ? Authenticator.disabled(b.roomTokenKey) : Authenticator.of(b.adminTokens, b.roomTokenKey);
        this.api = new FleetApi(fleet.operations(), fleet.rooms(), b.schedulers, b.rooms, b.driver, fleet.locks(), b.addresses,
                Map.copyOf(b.healthChecks), b.maxBodyBytes, b.apiVersion, operationWait,
                this::syncWorker, () -> KpiSnapshot.of(b.meters), () -> prometheusText(b.meters),
                maxConcurrentRequests(b.maxThreads), b.tasks.clock(),
                scheduler -> fleet.worker().watcher(scheduler).flatMap(dev.hotspare.fleet.runtime.internal.Watcher::lastError),
                authenticator, b.forwardResponseWait);
        this.api.ownershipView(() -> dev.hotspare.ownership.runtime.OwnershipMember.describe(fleet.ownership(),
                "this instance acts on every scheduler (in memory, or --ownership false)"));
    }

    /**
     * A builder whose stores, locks and rooms are in memory until replaced; {@code tasks} runs the worker, lock
     * renewals and rolling replaces, and its clock stamps everything.
     *
     * @return a builder whose stores, locks and rooms are in memory until replaced; {@code tasks} runs the worker,
     *         lock renewals and rolling replaces, and its clock stamps everything
     */
    public static Builder builder(TaskScheduler tasks) {
        return new Builder(tasks);
    }

    /**
     * Binds the HTTP server and starts the worker.
     */
    public synchronized FleetService start() {
        if (server != null || closed) {
            throw new IllegalStateException("fleet service already started or closed");
        }
        // A bounded pool: requests beyond it wait in Jetty's queue instead of each growing a thread. A request
        // that waits for a rolling replace holds one of these threads; every other request is short.
        QueuedThreadPool threads = new QueuedThreadPool(settings.maxThreads, Math.min(8, settings.maxThreads),
                (int) Duration.ofMinutes(1).toMillis());
        threads.setName("fleet-http");
        threads.setDaemon(true);
        threads.setReservedThreads(0);
        server = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendDateHeader(true);
        http.setRequestHeaderSize(MAX_HEADER_BYTES);
        if (settings.tls != null) {
            // TLS from the PEM files: HTTP/1.1 over TLS on the same port; any host name may be asked for (clients
            // reach the service by IP or by a name the certificate may not list).
            org.eclipse.jetty.util.ssl.SslContextFactory.Server ssl = new org.eclipse.jetty.util.ssl.SslContextFactory.Server();
            ssl.setKeyStore(settings.tls);
            ssl.setKeyStorePassword(new String(PemKeyStore.PASSWORD));
            org.eclipse.jetty.server.SecureRequestCustomizer secure = new org.eclipse.jetty.server.SecureRequestCustomizer();
            secure.setSniHostCheck(false);
            http.addCustomizer(secure);
            connector = new ServerConnector(server, 1, 1,
                    new org.eclipse.jetty.server.SslConnectionFactory(ssl, org.eclipse.jetty.http.HttpVersion.HTTP_1_1.asString()),
                    new HttpConnectionFactory(http));
        } else {
            connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
        }
        connector.setHost(settings.bind.getHostString());
        connector.setPort(settings.bind.getPort());
        // A client that stops sending (half a request) or reading is dropped after this long; it holds no thread
        // while it is silent, only its socket.
        connector.setIdleTimeout(settings.idleTimeout.toMillis());
        server.addConnector(connector);
        server.setErrorHandler(new JsonErrorHandler(settings.apiVersion));
        server.setHandler(new GracefulHandler(api));
        server.setStopTimeout(settings.shutdownTimeout.toMillis());
        server.setStopAtShutdown(false);
        try {
            server.start();
        } catch (Exception e) {
            try {
                server.stop();
            } catch (Exception suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new UncheckedIOException("cannot listen on " + settings.bind.getHostString() + ":" + settings.bind.getPort(),
                    e instanceof java.io.IOException io ? io : new java.io.IOException(e.getMessage(), e));
        }
        fleet.start();
        if (!authenticator.enabled()) {
            // Said at start and every minute after, so that no one runs an open service without seeing it.
            warnInsecure();
            insecureWarning = settings.tasks.scheduleAtFixedRate(Duration.ofMinutes(1), Duration.ofMinutes(1), FleetService::warnInsecure);
        }
        // DEBUG: the program prints its own "listening" line with the stores; one line is enough at INFO.
        LOG.debug("fleet service listening on {}", address());
        return this;
    }

    private static void warnInsecure() {
        LOG.warn("authentication is OFF (insecure no-auth): anyone who can reach this port can change every scheduler "
                + "and speak for every room; see SECURITY.md");
    }

    /**
     * The token {@code room} of {@code scheduler} must send on its reports ({@code Authorization: Bearer ...}),
     * when the driver has that room. A Kubernetes room finds it in its pod as {@code HOTSPARE_ROOM_TOKEN}; a room
     * of the in-memory driver, or a program embedding the service, reads it here.
     *
     * @param scheduler the room's scheduler
     * @return the room's token, or empty when the driver has no such room
     */
    public Optional<String> roomToken(String scheduler, String room) {
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(room, "room");
        return settings.driver.find(scheduler, room).map(found -> authenticator.roomToken(scheduler, room));
    }

    /**
     * {@code https} when the service was given a certificate ({@link Builder#tls}), else {@code http}.
     *
     * @return the URL scheme clients use
     */
    public String scheme() {
        return settings.tls != null ? "https" : "http";
    }

    /**
     * Whether requests must carry tokens (false only after {@link Builder#insecureNoAuth()}).
     */
    public boolean authenticationEnabled() {
        return authenticator.enabled();
    }

    private void syncWorker() {
        try {
            fleet.worker().sync();
        } catch (RuntimeException e) {
            LOG.warn("worker sync after a scheduler change failed; the next periodic sync retries", e);
        }
    }

    /**
     * The bound address (with the real port when the builder asked for port 0).
     */
    public synchronized InetSocketAddress address() {
        if (server == null) {
            throw new IllegalStateException("fleet service not started");
        }
        return new InetSocketAddress(settings.bind.getAddress(), connector.getLocalPort());
    }

    /**
     * The bound port.
     */
    public int port() {
        return address().getPort();
    }

    /**
     * The scheduler operations the routes call, for embedding programs and tests.
     */
    public SchedulerOperations operations() {
        return fleet.operations();
    }

    /**
     * The rooms' driver (in memory unless the builder was given another).
     */
    public MemberDriver memberDriver() {
        return settings.driver;
    }

    /**
     * Requests served at once for {@code maxThreads} threads: three quarters of them, and at least four fewer, so
     * Jetty's acceptor and selector and the probes always find a thread; beyond that a request is answered 503 with
     * {@code Retry-After} at once (8 threads: 4 requests, 64: 48).
     *
     * @param maxThreads the request threads
     */
    static int maxConcurrentRequests(int maxThreads) {
        return Math.max(1, Math.min(maxThreads * 3 / 4, maxThreads - 4));
    }

    /** The Prometheus text of {@code meters}, when it is (or holds) a Prometheus registry. */
    private static Optional<String> prometheusText(MeterRegistry meters) {
        if (meters instanceof PrometheusMeterRegistry prometheus) {
            return Optional.of(prometheus.scrape());
        }
        if (meters instanceof io.micrometer.core.instrument.composite.CompositeMeterRegistry composite) {
            return composite.getRegistries().stream().filter(PrometheusMeterRegistry.class::isInstance)
                    .map(r -> ((PrometheusMeterRegistry) r).scrape()).findFirst();
        }
        return Optional.empty();
    }

    /**
     * The KPI summary of the meters this service records (what it prints when it stops), one line each.
     */
    public List<String> kpiSummary() {
        return KpiSummary.lines(settings.meters);
    }

    /**
     * The worker of this service.
     */
    public Worker worker() {
        return fleet.worker();
    }

    /** The time between two autoscaler ticks of a scheduler (for tests of how the service was built). */
    Duration autoscalePeriod() {
        return settings.autoscaler.settings().period();
    }

    /**
     * Stops gracefully within the shutdown timeout (default 30 s): stops accepting connections and answers new
     * requests 503, lets the requests in flight finish — rolling updates get half the grace period to finish, then
     * are cancelled so that they roll back, and near its end whatever still runs is handed over: it stops at its next
     * poll, between two decisions, releases its locks and leaves its persisted release (replacing or rolling back)
     * for the next instance to resume — answers their clients, stops the worker (whose replaces, removals and
     * resumed releases release their locks as they end), and closes what was registered with {@link Builder#onClose}.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (insecureWarning != null) {
            insecureWarning.cancel();
        }
        if (server != null) {
            long started = System.nanoTime();
            long grace = settings.shutdownTimeout.toNanos();
            long handover = handoverAt(grace, settings.fleetSettings.pollInterval().toNanos());
            Thread stages = new Thread(() -> {
                try {
                    TimeUnit.NANOSECONDS.sleep(grace / 2);
                    LOG.info("shutting down: cancelling the rolling updates still running, so they roll back");
                    fleet.updates().cancelRunning();
                    TimeUnit.NANOSECONDS.sleep(handover - grace / 2);
                    LOG.warn("shutting down: grace period nearly over; handing what still runs over to the next instance");
                    fleet.updates().stopRunning();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "fleet-service-shutdown-stages");
            stages.setDaemon(true);
            stages.start();
            try {
                // Stops accepting, answers new requests on open connections 503, and waits up to the shutdown
                // timeout for the requests in flight.
                server.stop();
            } catch (Exception e) {
                LOG.warn("stopping the HTTP server failed", e);
            } finally {
                stages.interrupt();
            }
            fleet.updates().stopRunning();
            // A handed-over release stops at its next poll; the leases it holds must be gone before the clients
            // close, or the next owner waits for their TTL before it can resume the release.
            try {
                fleet.updates().whenLocksReleased().get(Math.max(1_000, settings.shutdownTimeout
                        .minusNanos(System.nanoTime() - started).toMillis()), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                LOG.warn("rolling updates did not stop within the grace period; their leases end by TTL");
            }
            Duration left = settings.shutdownTimeout.minusNanos(System.nanoTime() - started);
            Duration wait = left.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : left;
            try {
                if (!fleet.shutdown(wait).get(wait.toMillis() + 1_000, TimeUnit.MILLISECONDS)) {
                    LOG.warn("worker did not finish within {}; its leases end by TTL", settings.shutdownTimeout);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                LOG.warn("worker shutdown failed", e);
            }
        }
        List<AutoCloseable> resources = new ArrayList<>(settings.closeables);
        java.util.Collections.reverse(resources);
        for (AutoCloseable resource : resources) {
            try {
                resource.close();
            } catch (Exception e) {
                LOG.warn("closing {} failed", resource, e);
            }
        }
    }

    /**
     * When, into a grace period, running releases are handed over: at nine tenths of it, but at least three polls
     * before its end and never before the cancel at its half. A handed-over release stops only at its next poll and
     * only then answers a client waiting for it ({@code ?wait=true}); once the grace period ends the HTTP server
     * closes that client's connection, so with a short grace period (8 s and a 1 s poll: 0.8 s left) the answer
     * would be lost.
     */
    static long handoverAt(long graceNanos, long pollNanos) {
        return Math.max(graceNanos / 2, Math.min(graceNanos * 9 / 10, graceNanos - 3 * pollNanos));
    }

    /** Builds a {@link FleetService}. */
    public static final class Builder {
        private final TaskScheduler tasks;
        private SchedulerStore schedulers;
        private RoomStatusStore rooms;
        private UsageHistory usageHistory;
        private LockStore lockStore;
        private MemberDriver driver;
        private UsageMetrics usageMetrics = UsageMetrics.none();
        private RoomAddresses addresses = RoomAddresses.none();
        private Autoscaler autoscaler = Autoscaler.standard();
        private EventDispatcher events;
        private final Map<String, Runnable> healthChecks = new LinkedHashMap<>();
        private final List<AutoCloseable> closeables = new ArrayList<>();
        private InetSocketAddress bind = new InetSocketAddress("127.0.0.1", 0);
        private int maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
        private int maxThreads = DEFAULT_MAX_THREADS;
        private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
        private dev.hotspare.fleet.runtime.FleetSettings fleetSettings = dev.hotspare.fleet.runtime.FleetSettings.DEFAULTS;
        private String apiVersion = DEFAULT_API_VERSION;
        private Duration shutdownTimeout = Duration.ofSeconds(30);
        private MeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        private List<String> adminTokens = List.of();
        private Duration forwardResponseWait = DEFAULT_FORWARD_RESPONSE_WAIT;
        private boolean insecureNoAuth;
        private byte[] roomTokenKey = randomKey();
        /** The TLS key and certificate chain, when the service speaks HTTPS. */
        private java.security.KeyStore tls;

        private Builder(TaskScheduler tasks) {
            this.tasks = Objects.requireNonNull(tasks, "tasks");
            this.schedulers = new InMemorySchedulerStore();
            this.rooms = new InMemoryRoomStatusStore();
            this.usageHistory = new InMemoryUsageHistory();
            this.lockStore = new InMemoryLockStore(tasks.clock());
            this.driver = InMemoryMemberDriver.builder(tasks).build();
            // Webhook retries run on the service's task scheduler.
            this.events = EventDispatcher.builder().tasks(tasks).build();
        }

        /**
         * Where the service records its KPIs (lock waits and lease losses, scale operations, rooms per status;
         * docs/kpis.md). Default: a Prometheus registry, read by {@code GET /kpis} and scraped at
         * {@code GET /metrics}; pass your own to share it with the rest of the program ({@code /metrics} then
         * answers 404 unless it is, or holds, a Prometheus registry).
         *
         * @param value the registry
         * @return this builder
         */
        public Builder meterRegistry(MeterRegistry value) {
            this.meters = Objects.requireNonNull(value, "meterRegistry");
            return this;
        }

        /**
         * Where schedulers, versions and releases live (default in memory).
         *
         * @param value the registry
         */
        public Builder schedulerStore(SchedulerStore value) {
            this.schedulers = Objects.requireNonNull(value, "schedulerStore");
            return this;
        }

        /**
         * Where room statuses and pings live (default in memory).
         *
         * @param value the registry
         */
        public Builder roomStatusStore(RoomStatusStore value) {
            this.rooms = Objects.requireNonNull(value, "roomStatusStore");
            return this;
        }

        /**
         * The autoscaler's usage points (default in memory).
         *
         * @param value the registry
         */
        public Builder usageHistory(UsageHistory value) {
            this.usageHistory = Objects.requireNonNull(value, "usageHistory");
            return this;
        }

        /**
         * The lease store behind the scheduler locks (default in memory).
         *
         * @param value the registry
         */
        public Builder lockStore(LockStore value) {
            this.lockStore = Objects.requireNonNull(value, "lockStore");
            return this;
        }

        /**
         * Creates and deletes rooms (default in memory: a room is {@code creating} until it pings, as on Kubernetes).
         *
         * @param value the registry
         * @return this builder
         */
        public Builder memberDriver(MemberDriver value) {
            this.driver = Objects.requireNonNull(value, "memberDriver");
            return this;
        }

        /**
         * cpu / mem usage for cpu and mem triggers (default none).
         *
         * @param value the registry
         */
        public Builder usageMetrics(UsageMetrics value) {
            this.usageMetrics = Objects.requireNonNull(value, "usageMetrics");
            return this;
        }

        /**
         * Room addresses for the address route (default none).
         *
         * @param value the registry
         */
        public Builder roomAddresses(RoomAddresses value) {
            this.addresses = Objects.requireNonNull(value, "roomAddresses");
            return this;
        }

        /**
         * The autoscaler; its period is the watchers' tick (default Maestro's 10 s).
         *
         * @param value the registry
         */
        public Builder autoscaler(Autoscaler value) {
            this.autoscaler = Objects.requireNonNull(value, "autoscaler");
            return this;
        }

        /**
         * Where room and scheduler events go (default nowhere).
         *
         * @param value the registry
         */
        public Builder events(EventDispatcher value) {
            this.events = Objects.requireNonNull(value, "events");
            return this;
        }

        /**
         * A check run by {@code GET /healthcheck}; it fails by throwing. The service is healthy when every check
         * passes.
         */
        public Builder healthCheck(String name, Runnable check) {
            healthChecks.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(check, "check"));
            return this;
        }

        /**
         * Closed (in reverse order of registration) when the service closes: clients, pools, executors.
         */
        public Builder onClose(AutoCloseable resource) {
            closeables.add(Objects.requireNonNull(resource, "resource"));
            return this;
        }

        /**
         * Address and port to listen on (default 127.0.0.1, an ephemeral port).
         *
         * @param value the registry
         */
        public Builder bind(InetSocketAddress value) {
            this.bind = Objects.requireNonNull(value, "bind");
            return this;
        }

        /**
         * The largest request body; larger ones get 413 (default 1 MiB).
         *
         * @param value the registry
         */
        public Builder maxBodyBytes(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("maxBodyBytes: bad value '" + value + "': must be at least 1");
            }
            this.maxBodyBytes = value;
            return this;
        }

        /**
         * The most threads serving HTTP requests (default {@value FleetService#DEFAULT_MAX_THREADS}, at least 8);
         * more requests wait in a queue rather than each taking a thread.
         *
         * @param value the thread count
         * @return this builder
         */
        public Builder maxThreads(int value) {
            if (value < 8) {
                throw new IllegalArgumentException("maxThreads: bad value '" + value + "': must be at least 8");
            }
            this.maxThreads = value;
            return this;
        }

        /**
         * How long a connection may stay silent (not sending the rest of a request, not reading an answer) before
         * it is closed (default 30 s).
         *
         * @param value the idle timeout
         * @return this builder
         */
        public Builder idleTimeout(Duration value) {
            this.idleTimeout = positive("idleTimeout", value);
            return this;
        }




        /**
         * The {@code X-Maestro-Version} header value (default {@value FleetService#DEFAULT_API_VERSION}).
         *
         * @param value the registry
         */
        public Builder apiVersion(String value) {
            this.apiVersion = Objects.requireNonNull(value, "apiVersion");
            return this;
        }







        /** The fleet settings set so far, for the settings that open a service to complete after tuning. */
        dev.hotspare.fleet.runtime.FleetSettings currentFleetSettings() {
            return fleetSettings;
        }

        /**
         * The fleet's settings (default {@link dev.hotspare.fleet.runtime.FleetSettings#DEFAULTS}): periods, timeouts,
         * limits, and — with an {@code instanceId} — the division of schedulers with the other instances on the same
         * lock store (docs/operations.md). The one place they are written out and checked; this service adds none.
         *
         * @param value checked when it was built
         * @return this builder
         */
        public Builder fleetSettings(dev.hotspare.fleet.runtime.FleetSettings value) {
            this.fleetSettings = Objects.requireNonNull(value, "fleetSettings");
            return this;
        }

        /**
         * How long {@link FleetService#close()} waits for running replaces (default 30 s).
         *
         * @param value the registry
         */
        public Builder shutdownTimeout(Duration value) {
            this.shutdownTimeout = positive("shutdownTimeout", value);
            return this;
        }

        /**
         * The longest a player event waits for the answers of forwarders with {@code forwardResponse: true}
         * (default {@link FleetService#DEFAULT_FORWARD_RESPONSE_WAIT}, at most 60 s); after it the route answers
         * 502 FORWARD_TIMEOUT and the deliveries go on in the background.
         *
         * @param value the cap
         * @return this builder
         */
        public Builder forwardResponseWait(Duration value) {
            positive("forwardResponseWait", value);
            if (value.compareTo(Duration.ofSeconds(60)) > 0) {
                throw new IllegalArgumentException("forwardResponseWait: bad value '" + value + "': must be at most PT60S");
            }
            this.forwardResponseWait = value;
            return this;
        }

        /**
         * The bearer tokens admin routes accept (several at once, so one can be replaced without downtime: add the
         * new one, move the clients, drop the old one). Each at least
         * {@value Authenticator#MIN_ADMIN_TOKEN_LENGTH} characters with no white space. Required unless
         * {@link #insecureNoAuth()}.
         *
         * @param tokens the admin tokens
         * @return this builder
         */
        public Builder adminTokens(java.util.Collection<String> tokens) {
            List<String> copy = List.copyOf(tokens);
            for (int i = 0; i < copy.size(); i++) {
                String token = copy.get(i);
                if (token.length() < Authenticator.MIN_ADMIN_TOKEN_LENGTH || token.chars().anyMatch(Character::isWhitespace)) {
                    // The value is a secret: only its length is said.
                    throw new IllegalArgumentException("adminTokens[" + i + "]: bad value '<redacted, " + token.length()
                            + " characters>': must be at least " + Authenticator.MIN_ADMIN_TOKEN_LENGTH
                            + " characters with no white space");
                }
            }
            this.adminTokens = copy;
            return this;
        }

        /**
         * The secret room tokens are derived from (at least {@value Authenticator#MIN_ROOM_KEY_BYTES} bytes;
         * default a random key made when the builder is). Instances that share stores, and a service that restarts
         * while its rooms live on (Kubernetes), must be given the same key, or the rooms' tokens stop being valid.
         *
         * @param key the secret's bytes
         */
        public Builder roomTokenKey(byte[] key) {
            if (key.length < Authenticator.MIN_ROOM_KEY_BYTES) {
                throw new IllegalArgumentException("roomTokenKey: bad value '<redacted, " + key.length + " bytes>': must be at least "
                        + Authenticator.MIN_ROOM_KEY_BYTES + " bytes");
            }
            this.roomTokenKey = key.clone();
            return this;
        }

        /**
         * Serves HTTPS (TLS through Jetty) with the certificate chain and unencrypted PKCS#8 private key in these
         * PEM files (default: plain HTTP). The files are read now; a bad one is named with what is wrong.
         *
         * @param certificate the certificate chain, the server's certificate first
         * @param key         its private key
         * @return this builder
         * @throws dev.hotspare.validation.ValidationException naming the file and what is wrong with it
         */
        public Builder tls(java.nio.file.Path certificate, java.nio.file.Path key) {
            this.tls = PemKeyStore.load(Objects.requireNonNull(certificate, "certificate"), Objects.requireNonNull(key, "key"));
            return this;
        }

        /**
         * Turns authentication off: every route answers anyone, and the service logs a warning at start and every
         * minute while it runs. For a laptop or a test, never for a network others can reach.
         *
         * @return this builder
         */
        public Builder insecureNoAuth() {
            this.insecureNoAuth = true;
            return this;
        }

        /**
         * The service, not yet started.
         *
         * @throws IllegalStateException when authentication is on and no admin token was given
         */
        public FleetService build() {
            if (!insecureNoAuth && adminTokens.isEmpty()) {
                throw new IllegalStateException("adminTokens: bad value '<none>': authentication is on by default; give at least "
                        + "one admin token, or turn authentication off with insecureNoAuth()");
            }
            return new FleetService(this);
        }

        private static byte[] randomKey() {
            byte[] key = new byte[Authenticator.MIN_ROOM_KEY_BYTES];
            new java.security.SecureRandom().nextBytes(key);
            return key;
        }

        private static Duration positive(String field, Duration value) {
            Objects.requireNonNull(value, field);
            if (value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(field + ": bad value '" + value + "': must be positive");
            }
            return value;
        }
    }
}
