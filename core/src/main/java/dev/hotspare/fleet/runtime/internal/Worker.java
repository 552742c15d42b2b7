package dev.hotspare.fleet.runtime.internal;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfigs;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.events.EventDispatcher;
import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.fleet.plan.FleetPlanner;
import dev.hotspare.fleet.runtime.FleetListener;
import dev.hotspare.fleet.runtime.FleetSettings;
import dev.hotspare.fleet.spi.RoomStatusStore;
import dev.hotspare.fleet.spi.SchedulerRecord;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.fleet.spi.UsageHistory;
import dev.hotspare.fleet.spi.UsageMetrics;
import dev.hotspare.json.Documents;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.TaskScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Maestro's worker: every {@code syncPeriod} it loads the schedulers from the {@link SchedulerStore} and keeps
 * exactly one {@link Watcher} per scheduler, starting watchers for new schedulers and stopping those of
 * deleted ones. Any number of workers may run against the same stores: the lock protocol makes sure only one
 * of them acts on a scheduler's rooms at a time.
 *
 * <pre>{@code
 * Worker worker = Worker.builder(schedulerStore, roomStatusStore, usageHistory, memberDriver, lockManager, tasks).build();
 * worker.start();
 * ...
 * worker.shutdown(Duration.ofSeconds(30)).join();
 * }</pre>
 */
public final class Worker {

    private static final Logger LOG = LoggerFactory.getLogger(Worker.class);

    /** How long an allocated match slot waits for its match by default ({@link FleetSettings#allocationTimeout()}). */
    public static final Duration DEFAULT_ALLOCATION_TIMEOUT = FleetSettings.DEFAULTS.allocationTimeout();

    private final WorkerContext context;
    private final Duration syncPeriod;
    private final Cache<Watcher.ConfigKey, SchedulerConfig> configs;
    private final Map<String, Watcher> watchers = new TreeMap<>();
    private volatile Set<String> known = Set.of();
    /** The version whose forwarders each scheduler has on this instance. */
    private final Map<String, dev.hotspare.fleet.versions.SchedulerVersion> forwardersAt = new TreeMap<>();
    private final Runnable keysChanged;
    private TaskScheduler.Cancellable syncing;
    private boolean shuttingDown;

    private Worker(Builder b) {
        FleetListener listener = FleetListener.guarded(b.kpis);
        FleetSettings s = b.settings;
        RoomActions actions = new RoomActions(b.driver, Optional.of(b.rooms), b.events, listener, b.tasks,
                s.pollInterval(), s.limits().maxScaleStep());
        this.context = new WorkerContext(b.schedulers, b.rooms, b.usageHistory, b.usageMetrics, b.driver, b.locks, b.tasks,
                new FleetPlanner(b.autoscaler), actions, b.events, b.parser, s.replaceTimeout(), s.pollInterval(),
                s.pingTimeout(), b.plugins, listener, s.allocationTimeout(), b.owns);
        this.syncPeriod = s.syncPeriod();
        this.keysChanged = b.keysChanged;
        // Same-thread maintenance keeps the cache deterministic on virtual time.
        this.configs = Caffeine.newBuilder().maximumSize(b.configCacheSize).executor(Runnable::run).recordStats().build();
    }

    /**
     * A builder over the stores, driver, locks and scheduler every watcher needs.
     */
    public static Builder builder(SchedulerStore schedulers, RoomStatusStore rooms, UsageHistory usageHistory,
                                  MemberDriver driver, LockManager locks, TaskScheduler tasks) {
        return new Builder(schedulers, rooms, usageHistory, driver, locks, tasks);
    }

    /** Syncs now and then every sync period. */
    public synchronized void start() {
        if (syncing != null) {
            throw new IllegalStateException("worker already started");
        }
        sync();
        syncing = context.tasks().scheduleAtFixedRate(syncPeriod, syncPeriod, this::sync);
    }

    /** One sync: one watcher per scheduler in the store, no more. */
    public synchronized void sync() {
        if (shuttingDown) {
            return;
        }
        List<SchedulerRecord> records;
        try {
            records = context.schedulers().list();
        } catch (RuntimeException e) {
            LOG.warn("worker sync could not list schedulers; keeping the current watchers", e);
            return;
        }
        Set<String> names = records.stream().map(SchedulerRecord::name).collect(Collectors.toSet());
        boolean changed = !names.equals(known);
        known = Set.copyOf(names);
        if (changed) {
            keysChanged.run();
        }
        watchers.keySet().removeIf(name -> {
            if (names.contains(name) && context.ownsNow(name)) {
                return false;
            }
            watchers.get(name).stop();
            return true;
        });
        forwardersAt.keySet().removeIf(name -> {
            if (names.contains(name)) {
                return false;
            }
            context.events().clearSchedulerForwarders(name);
            configs.asMap().keySet().removeIf(key -> key.scheduler().equals(name));
            context.listener().schedulerRemoved(name);
            return true;
        });
        for (SchedulerRecord record : records) {
            String name = record.name();
            // Every instance serves the room routes of every scheduler, so each keeps every scheduler's forwarders,
            // owned or not (the list read above carries the configs: no extra store call). The owner's watcher also
            // configures them at its first tick of a new version.
            if (!record.version().equals(forwardersAt.get(name))) {
                try {
                    context.events().useSchedulerForwarders(name, record.config().tree().path("forwarders"), context.plugins());
                    forwardersAt.put(name, record.version());
                } catch (RuntimeException e) {
                    LOG.warn("scheduler {}: its forwarders cannot be configured; retrying at the next sync: {}", name, e.getMessage());
                }
            }
            if (!context.ownsNow(name)) {
                continue;
            }
            watchers.computeIfAbsent(name, n -> {
                Watcher watcher = new Watcher(n, context, configs);
                watcher.start();
                return watcher;
            });
        }
    }

    /**
     * The schedulers the last sync found in the store, whoever owns them (what an ownership member divides).
     *
     * @return scheduler names
     */
    public Set<String> knownSchedulers() {
        return known;
    }

    /** Syncs soon, off the caller's thread: ownership changed, so the set of watchers should too. */
    public void requestSync() {
        context.tasks().execute(this::sync);
    }

    /**
     * A scale input of {@code scheduler} was recorded (a manual request, a panic input): its watcher, when this
     * started worker runs one (syncing first for a scheduler it has not seen yet), ticks for it soon, off the
     * caller's thread. Otherwise the owner's next tick reads it.
     */
    public void wake(String scheduler) {
        context.tasks().execute(() -> {
            Optional<Watcher> watcher = watcher(scheduler);
            boolean started;
            synchronized (this) {
                started = syncing != null && !shuttingDown;
            }
            if (watcher.isEmpty() && started) {
                sync();
                watcher = watcher(scheduler);
            }
            watcher.ifPresent(Watcher::wake);
        });
    }

    /**
     * Schedulers with a running watcher.
     */
    public synchronized Set<String> watched() {
        return Set.copyOf(watchers.keySet());
    }

    /**
     * The watcher of {@code scheduler}, if one runs.
     */
    public synchronized Optional<Watcher> watcher(String scheduler) {
        return Optional.ofNullable(watchers.get(scheduler));
    }

    /**
     * Hit / miss / load counts of the parsed-config cache.
     */
    public CacheStats configCacheStats() {
        return configs.stats();
    }

    /**
     * Stops syncing and ticking, then waits (on the task scheduler) until running replaces and removals have
     * finished, at most {@code timeout}. Their locks are released as they finish; whatever is still running at
     * the timeout keeps its lease until the TTL ends it.
     *
     * @return a future of whether everything finished within the timeout
     */
    public CompletableFuture<Boolean> shutdown(Duration timeout) {
        List<Watcher> stopping;
        synchronized (this) {
            shuttingDown = true;
            if (syncing != null) {
                syncing.cancel();
            }
            stopping = List.copyOf(watchers.values());
            stopping.forEach(Watcher::stop);
            watchers.clear();
        }
        Instant deadline = context.tasks().clock().instant().plus(timeout);
        CompletableFuture<Boolean> done = new CompletableFuture<>();
        Runnable[] check = new Runnable[1];
        check[0] = () -> {
            boolean busy = stopping.stream().anyMatch(Watcher::busy);
            if (!busy) {
                done.complete(true);
            } else if (!context.tasks().clock().instant().isBefore(deadline)) {
                done.complete(false);
            } else {
                context.tasks().schedule(context.pollInterval(), check[0]);
            }
        };
        check[0].run();
        return done;
    }

    /** Builds a {@link Worker}. */
    public static final class Builder {
        private final SchedulerStore schedulers;
        private final RoomStatusStore rooms;
        private final UsageHistory usageHistory;
        private final MemberDriver driver;
        private final LockManager locks;
        private final TaskScheduler tasks;
        private UsageMetrics usageMetrics = UsageMetrics.none();
        private Autoscaler autoscaler = Autoscaler.standard();
        private EventDispatcher events = EventDispatcher.builder().build();
        private Function<ConfigDocument, SchedulerConfig> parser =
                config -> SchedulerConfigs.parse(config.submitted(), Documents.Format.YAML);
        private FleetSettings settings = FleetSettings.DEFAULTS;
        private long configCacheSize = 10_000;
        private ClassLoader plugins = Worker.class.getClassLoader();
        private FleetListener kpis = FleetListener.NONE;
        private java.util.function.Predicate<String> owns = name -> true;
        private Runnable keysChanged = () -> { };

        private Builder(SchedulerStore schedulers, RoomStatusStore rooms, UsageHistory usageHistory, MemberDriver driver,
                        LockManager locks, TaskScheduler tasks) {
            this.schedulers = Objects.requireNonNull(schedulers, "schedulers");
            this.rooms = Objects.requireNonNull(rooms, "rooms");
            this.usageHistory = Objects.requireNonNull(usageHistory, "usageHistory");
            this.driver = Objects.requireNonNull(driver, "driver");
            this.locks = Objects.requireNonNull(locks, "locks");
            this.tasks = Objects.requireNonNull(tasks, "tasks");
        }

        /**
         * cpu / mem usage source (default: none, for room triggers only).
         */
        public Builder usageMetrics(UsageMetrics value) {
            this.usageMetrics = Objects.requireNonNull(value, "usageMetrics");
            return this;
        }

        /**
         * The autoscaler; its settings' period is the watchers' tick period.
         */
        public Builder autoscaler(Autoscaler value) {
            this.autoscaler = Objects.requireNonNull(value, "autoscaler");
            return this;
        }

        /**
         * Where room and scheduler events go.
         */
        public Builder events(EventDispatcher value) {
            this.events = Objects.requireNonNull(value, "events");
            return this;
        }

        /**
         * How a stored config becomes a {@link SchedulerConfig} (default: {@link SchedulerConfigs#parse}).
         */
        public Builder parser(Function<ConfigDocument, SchedulerConfig> value) {
            this.parser = Objects.requireNonNull(value, "parser");
            return this;
        }






        /**
         * Where {@link dev.hotspare.fleet.events.EventForwarderProvider}s named in scheduler configs are looked up.
         *
         * @return where {@link dev.hotspare.fleet.events.EventForwarderProvider}s named in scheduler configs are
         *         looked up
         */
        public Builder pluginClassLoader(ClassLoader value) {
            this.plugins = Objects.requireNonNull(value, "pluginClassLoader");
            return this;
        }

        /**
         * Most parsed configs kept.
         */
        public Builder configCacheSize(long value) {
            this.configCacheSize = value;
            return this;
        }

        /**
         * Receives the fleet's KPIs (default: none): rooms per status after every watcher tick, and the
         * watchers' scale-ups, scale-downs and dead-room removals. A listener that throws is logged and ignored.
         * Lock KPIs come from the {@link LockManager}'s own {@code listener} option.
         *
         * @return receives the fleet's KPIs (default: none): rooms per status after every watcher tick, and the
         *         watchers' scale-ups, scale-downs and dead-room removals
         */
        public Builder listener(FleetListener value) {
            this.kpis = Objects.requireNonNull(value, "listener");
            return this;
        }


        /**
         * Which schedulers this worker may act on now (default: all). A fleet that divides work between instances
         * passes its ownership here; the worker runs watchers only for owned schedulers and a watcher does nothing
         * from the first tick at which its scheduler is no longer owned.
         *
         * @param value asked at every sync and every tick
         * @return this builder
         */
        public Builder owns(java.util.function.Predicate<String> value) {
            this.owns = Objects.requireNonNull(value, "owns");
            return this;
        }

        /**
         * Told when a sync finds the set of schedulers changed (one created or deleted), so the division of ownership
         * can follow at once rather than at its next heartbeat.
         *
         * @param value called on the sync's thread; must be quick
         * @return this builder
         */
        public Builder keysChanged(Runnable value) {
            this.keysChanged = Objects.requireNonNull(value, "keysChanged");
            return this;
        }

        /**
         * The fleet's settings this worker reads: sync period, poll interval, replace timeout, ping and allocation
         * timeouts and limits (the watchers create rooms in steps of at most the scale step). Default
         * {@link FleetSettings#DEFAULTS}.
         *
         * @param value checked when it was built
         * @return this builder
         */
        public Builder settings(FleetSettings value) {
            this.settings = Objects.requireNonNull(value, "settings");
            return this;
        }

        public Worker build() {
            return new Worker(this);
        }
    }
}
