package dev.hotspare.fleet.runtime;

import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.PolicyTypes;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfigs;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.events.EventDispatcher;
import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.fleet.lock.spi.LockStore;
import dev.hotspare.fleet.runtime.internal.SchedulerQueries;
import dev.hotspare.fleet.runtime.internal.SchedulerScaling;
import dev.hotspare.fleet.runtime.internal.SchedulerUpdates;
import dev.hotspare.fleet.runtime.internal.Worker;
import dev.hotspare.fleet.spi.RoomStatusStore;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.fleet.spi.UsageHistory;
import dev.hotspare.fleet.spi.UsageMetrics;
import dev.hotspare.json.Documents;
import dev.hotspare.memory.InMemoryLockStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.memory.InMemoryRoomStatusStore;
import dev.hotspare.memory.InMemorySchedulerStore;
import dev.hotspare.memory.InMemoryUsageHistory;
import dev.hotspare.ownership.runtime.OwnershipMember;
import dev.hotspare.ownership.runtime.OwnershipMember.OwnershipListener;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.validation.Problem;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A Maestro-style game-room fleet in one object: the scheduler operations ({@link #updates()}, {@link #scaling()},
 * {@link #queries()}), the room protocol ({@link #rooms()}), and the {@link Worker} that runs one watcher per
 * scheduler, all sharing one set of stores, one {@link LockManager} and one autoscaler. Every store is in memory
 * until the builder is given another, so a fleet on the embedded default is one line:
 *
 * <pre>{@code
 * Fleet fleet = Fleet.builder().scheduler(TaskScheduler.system(executor, Clock.systemUTC())).build().start();
 * fleet.operations().create("name: pong\ngame: pong\nimage: pong:1\nautoscaling: {min: 2}\n");
 * fleet.rooms().report("pong", room, "ready", Instant.now());
 * }</pre>
 *
 * For real, pass the adapters' stores ({@code RedisLockStore}, {@code PostgresSchedulerStore}, {@code PodMemberDriver},
 * …); any number of fleets may share the same stores: the lock protocol lets one act on a scheduler at a time.
 */
public final class Fleet implements AutoCloseable {

    private final Builder ports;
    private final FleetSettings settings;
    private final LockManager locks;
    private final SchedulerOperations operations;
    private final RoomService rooms;
    private final Worker worker;
    private final Optional<OwnershipMember> ownership;
    private final Optional<OwnershipMember.OwnedKeys> ownedSchedulers;
    /** Whether this fleet made its ownership member (and so starts and closes it) or was given one. */
    private final boolean ownsMember;

    private Fleet(Builder b, FleetSettings s) {
        this.ports = b;
        this.settings = s;
        TaskScheduler tasks = b.scheduler;
        this.locks = LockManager.builder().lockStore(b.lockStore).scheduler(tasks).ttl(s.lockTtl()).listener(b.listener).build();
        // Configs are checked against the autoscaler's policies (their type names and declared parameters), the
        // fleet's limits and the forwarder plug-ins on the class path.
        PolicyTypes types = b.autoscaler.policies().types();
        java.util.Set<String> forwarderPlugins = EventDispatcher.pluginNames(b.plugins);
        // The same check as hotspare validate's (one validation), forwarder plug-ins included.
        Function<ConfigDocument, List<Problem>> validator = config -> SchedulerConfigs.check(config.submitted(),
                Documents.Format.YAML, types, s.limits(), forwarderPlugins).problems();
        Function<ConfigDocument, SchedulerConfig> parser = config -> SchedulerConfigs.parse(config.submitted(), Documents.Format.YAML, types);
        this.operations = SchedulerOperations.builder(b.schedulers, locks, b.driver, tasks).roomStatuses(b.rooms)
                .events(b.events).validator(validator).parser(parser).autoscaler(b.autoscaler).settings(s)
                .listener(b.listener).wake(this::wakeWatcher).build();
        this.rooms = new RoomService(b.rooms, b.schedulers, b.driver, locks, b.autoscaler, b.events, tasks, parser, b.listener)
                .withMaxClockSkew(s.maxClockSkew()).withWake(this::wakeWatcher);
        OwnershipListener resync = new OwnershipListener() {
            @Override
            public void acquired(String kind, String key, long fencingToken, Duration waited) {
                worker.requestSync();
            }

            @Override
            public void handedOver(String kind, String key) {
                worker.requestSync();
            }

            @Override
            public void lost(String kind, String key) {
                worker.requestSync();
            }
        };
        if (b.ownership != null) {
            this.ownership = Optional.of(b.ownership);
            this.ownsMember = false;
        } else if (s.instanceId().isPresent()) {
            this.ownership = Optional.of(OwnershipMember.builder(s.instanceId().get()).lockStore(b.lockStore).scheduler(tasks)
                    .group(s.ownershipGroup()).leaseTtl(s.ownershipLeaseTtl()).heartbeat(s.ownershipHeartbeat())
                    .listener(b.listener).build());
            this.ownsMember = true;
        } else {
            this.ownership = Optional.empty();
            this.ownsMember = false;
        }
        this.ownedSchedulers = ownership.map(member -> member.track("scheduler", this::knownSchedulers, resync));
        java.util.function.Predicate<String> owns = ownedSchedulers
                .<java.util.function.Predicate<String>>map(owned -> name -> owned.fence(name).isPresent())
                .orElse(name -> true);
        Runnable keysChanged = ownership.<Runnable>map(member -> member::refresh).orElse(() -> { });
        this.worker = Worker.builder(b.schedulers, b.rooms, b.usageHistory, b.driver, locks, tasks).owns(owns)
                .keysChanged(keysChanged)
                .usageMetrics(b.usageMetrics).autoscaler(b.autoscaler).events(b.events).parser(parser)
                .settings(s).pluginClassLoader(b.plugins).listener(b.listener).build();
    }

    /**
     * A builder whose stores, lock store and room driver are in memory until replaced; {@link Builder#scheduler}
     * is the one required setting.
     *
     * @return a builder; {@link Builder#build()} checks every setting
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The settings this fleet was built with, every default filled in.
     *
     * @return the settings, as {@link Builder#settings} takes them
     */
    public FleetSettings settings() {
        return settings;
    }

    /** A scale request or a panic input was recorded: the scheduler's watcher, if it runs here, applies it now. */
    private void wakeWatcher(String scheduler) {
        worker.wake(scheduler);
    }

    private java.util.Set<String> knownSchedulers() {
        return worker.knownSchedulers();
    }

    /**
     * Starts the worker: from now on every scheduler in the store (every owned one, when the fleet divides work
     * between instances) has a watcher.
     */
    public Fleet start() {
        worker.start();
        // After the worker's first listing, so the first division already knows every scheduler.
        ownership.ifPresent(OwnershipMember::start);
        return this;
    }

    /**
     * This instance's membership in a group of instances that divide schedulers between them, when the fleet was
     * built with an {@link FleetSettings#instanceId() instance id}; empty for a fleet that owns every scheduler.
     *
     * @return the ownership member
     */
    public Optional<OwnershipMember> ownership() {
        return ownership;
    }

    /**
     * The schedulers this instance owns and the fenced leases it acts under, when the fleet divides work.
     *
     * @return the owned schedulers' view
     */
    public Optional<OwnershipMember.OwnedKeys> ownedSchedulers() {
        return ownedSchedulers;
    }

    /**
     * Create, update, image, min, rollback, delete.
     */
    public SchedulerUpdates updates() {
        return operations.updates();
    }

    /**
     * Scale up, scale down, scale to a number of replicas.
     */
    public SchedulerScaling scaling() {
        return operations.scaling();
    }

    /**
     * Status, releases, config, diff.
     */
    public SchedulerQueries queries() {
        return operations.queries();
    }

    /**
     * The three groups of scheduler operations in one object.
     */
    public SchedulerOperations operations() {
        return operations;
    }

    /**
     * The room protocol: rooms' pings and status reports (and panic scale).
     */
    public RoomService rooms() {
        return rooms;
    }

    /**
     * The worker running one watcher per scheduler.
     */
    public Worker worker() {
        return worker;
    }

    /**
     * The lock manager every operation and watcher of this fleet uses.
     */
    public LockManager locks() {
        return locks;
    }

    /**
     * Where schedulers live.
     */
    public SchedulerStore schedulerStore() {
        return ports.schedulers;
    }

    /**
     * Where room statuses live.
     */
    public RoomStatusStore roomStatusStore() {
        return ports.rooms;
    }

    /**
     * The rooms' member driver.
     */
    public MemberDriver memberDriver() {
        return ports.driver;
    }

    /**
     * Stops the worker and waits (on the task scheduler) up to {@code timeout} for running replaces and removals,
     * whose locks are released as they finish.
     *
     * @return a future of whether everything finished within the timeout
     */
    public CompletableFuture<Boolean> shutdown(Duration timeout) {
        // The watchers finish first; then the ownership leases go at once, so other instances take over at their next
        // heartbeat rather than after the lease TTL.
        return worker.shutdown(timeout).whenComplete((done, failure) -> closeOwnership());
    }

    /** Stops the worker without waiting; running replaces and removals keep their leases until their TTL. */
    @Override
    public void close() {
        worker.shutdown(Duration.ZERO);
        closeOwnership();
    }

    private void closeOwnership() {
        if (ownsMember) {
            ownership.ifPresent(OwnershipMember::close);
        }
    }

    /**
     * Builds a {@link Fleet}. Ports are named setters (in memory until replaced); time is {@link #scheduler}, the
     * one required setting; {@link #listener} is the one listener. Setters only record: {@link #build()} checks
     * every setting and names each bad one with its value.
     */
    public static final class Builder {
        private TaskScheduler scheduler;
        private SchedulerStore schedulers = new InMemorySchedulerStore();
        private RoomStatusStore rooms = new InMemoryRoomStatusStore();
        private UsageHistory usageHistory = new InMemoryUsageHistory();
        private LockStore lockStore;
        private MemberDriver driver;
        private UsageMetrics usageMetrics = UsageMetrics.none();
        private Autoscaler autoscaler = Autoscaler.standard();
        private EventDispatcher events;
        private FleetListener listener = FleetListener.NONE;
        private ClassLoader plugins = Fleet.class.getClassLoader();
        private OwnershipMember ownership;
        private FleetSettings.Builder settings = FleetSettings.builder();

        private Builder() {
        }

        /**
         * Runs the worker, lock renewals and rolling replaces; its clock stamps everything. Required.
         *
         * @param value {@code TaskScheduler.system(..)}, or virtual time in tests
         * @return this builder
         */
        public Builder scheduler(TaskScheduler value) {
            this.scheduler = value;
            return this;
        }

        /**
         * Where schedulers, their versions and releases live (default: in memory).
         *
         * @param value the store
         * @return this builder
         */
        public Builder schedulerStore(SchedulerStore value) {
            this.schedulers = value;
            return this;
        }

        /**
         * Where room statuses and last pings live (default: in memory).
         *
         * @param value the store
         * @return this builder
         */
        public Builder roomStatusStore(RoomStatusStore value) {
            this.rooms = value;
            return this;
        }

        /**
         * Where the autoscaler's usage points live (default: in memory).
         *
         * @param value the history
         * @return this builder
         */
        public Builder usageHistory(UsageHistory value) {
            this.usageHistory = value;
            return this;
        }

        /**
         * Where leases live (default: in memory, on the scheduler's clock).
         *
         * @param value the store
         * @return this builder
         */
        public Builder lockStore(LockStore value) {
            this.lockStore = value;
            return this;
        }

        /**
         * What creates and deletes rooms (default: in memory; a room is {@code creating} until it pings).
         *
         * @param value the driver
         * @return this builder
         */
        public Builder memberDriver(MemberDriver value) {
            this.driver = value;
            return this;
        }

        /**
         * cpu / mem usage for cpu and mem triggers (default: none, for room triggers only).
         *
         * @param value the usage source
         * @return this builder
         */
        public Builder usageMetrics(UsageMetrics value) {
            this.usageMetrics = value;
            return this;
        }

        /**
         * The autoscaler: its policies (also the trigger types configs may use), settings (its period is the
         * watchers' tick) and removal ranking, which every scale-down follows (default: {@link Autoscaler#standard()}).
         *
         * @return this builder
         */
        public Builder autoscaler(Autoscaler value) {
            this.autoscaler = value;
            return this;
        }

        /**
         * Where room and scheduler events go (default: only the forwarders scheduler configs name, retrying on this
         * fleet's scheduler). Give yours {@code tasks(...)} so webhook retries run on the fleet's time.
         *
         * @param value the dispatcher
         * @return this builder
         */
        public Builder events(EventDispatcher value) {
            this.events = value;
            return this;
        }

        /**
         * Receives rooms per status and every scale, the lock manager's waits and lost leases, and the schedulers
         * this instance takes, hands over or loses (a {@code dev.hotspare.kpi.KpiListener} fits; default: none).
         *
         * @param value called on the runtime's threads; guarded (a throwing listener is logged and ignored)
         * @return this builder
         */
        public Builder listener(FleetListener value) {
            this.listener = value;
            return this;
        }

        /**
         * Where event forwarder plug-ins named in scheduler configs are looked up (default: hotspare's own).
         *
         * @return this builder
         */
        public Builder pluginClassLoader(ClassLoader value) {
            this.plugins = value;
            return this;
        }

        /**
         * Divides the schedulers through an ownership member the application shares with other runtimes (its pools):
         * the fleet tracks its schedulers on it as kind {@code scheduler}, starts it if it is not running, and leaves
         * closing it to the application. Use either this or {@link #instanceId}.
         *
         * @param value the application's ownership member, on a lock store shared by the instances
         * @return this builder
         */
        public Builder ownership(OwnershipMember value) {
            this.ownership = value;
            return this;
        }

        /**
         * Every value setting at once (replacing those set before); the setters below change one of them.
         *
         * @param value e.g. {@code FleetSettings.DEFAULTS}, or another fleet's {@link Fleet#settings()}
         * @return this builder
         */
        public Builder settings(FleetSettings value) {
            this.settings = value == null ? null : value.toBuilder();
            return this;
        }

        /**
         * {@link FleetSettings#syncPeriod()}: how often the worker re-reads the scheduler list (default 10 s).
         *
         * @param value positive
         * @return this builder
         */
        public Builder syncPeriod(Duration value) {
            settings().syncPeriod(value);
            return this;
        }

        /**
         * {@link FleetSettings#pollInterval()}: how often replaces and removals check the rooms (default 1 s).
         *
         * @param value positive
         * @return this builder
         */
        public Builder pollInterval(Duration value) {
            settings().pollInterval(value);
            return this;
        }

        /**
         * {@link FleetSettings#replaceTimeout()}: how long a rolling replace (and waiting for removed rooms) may take
         * (default 10 min).
         *
         * @param value positive
         * @return this builder
         */
        public Builder replaceTimeout(Duration value) {
            settings().replaceTimeout(value);
            return this;
        }

        /**
         * {@link FleetSettings#lockWait()}: how long operations wait for DOWNSCALE / TERMINATION (default 1 min).
         *
         * @param value positive
         * @return this builder
         */
        public Builder lockWait(Duration value) {
            settings().lockWait(value);
            return this;
        }

        /**
         * {@link FleetSettings#lockTtl()}: lease TTL; leases are renewed every third of it (default
         * {@link LockManager#DEFAULT_TTL}).
         *
         * @param value at least 3 ms
         * @return this builder
         */
        public Builder lockTtl(Duration value) {
            settings().lockTtl(value);
            return this;
        }

        /**
         * {@link FleetSettings#pingTimeout()}: silence after which a room is dead (default 30 s).
         *
         * @param value positive
         * @return this builder
         */
        public Builder pingTimeout(Duration value) {
            settings().pingTimeout(value);
            return this;
        }

        /**
         * {@link FleetSettings#allocationTimeout()}: how long a match slot handed out by the allocation call waits
         * for the room to report its match; then the slot goes back and an allocated room is ready again (default 60 s).
         *
         * @param value positive
         * @return this builder
         */
        public Builder allocationTimeout(Duration value) {
            settings().allocationTimeout(value);
            return this;
        }

        /**
         * {@link FleetSettings#maxClockSkew()}: how far ahead of the fleet's clock a room report's timestamp may be
         * (default 60 s); later reports are refused.
         *
         * @param value zero or more
         * @return this builder
         */
        public Builder maxClockSkew(Duration value) {
            settings().maxClockSkew(value);
            return this;
        }

        /**
         * {@link FleetSettings#limits()}: the bounds of every count, duration and quantity a config or a scaling
         * request may ask for (default {@link dev.hotspare.fleet.SchedulerConfig.FleetLimits#DEFAULT}); configs beyond them are
         * invalid, scaling requests beyond them refused, and rooms are created in steps of at most the scale step.
         *
         * @param value the limits
         * @return this builder
         */
        public Builder limits(dev.hotspare.fleet.SchedulerConfig.FleetLimits value) {
            settings().limits(value);
            return this;
        }

        /**
         * {@link FleetSettings#instanceId()}: divides the schedulers between the instances that share this fleet's
         * stores: this instance joins the group under {@code value} (through a membership lease on the
         * {@link #lockStore lock store}) and runs watchers only for the schedulers it owns. Without it (the default)
         * the fleet acts on every scheduler, which is right for one instance and safe but wasteful for several.
         * Needs a lock store shared by the instances (Redis, PostgreSQL, Kubernetes Leases).
         *
         * @param value this instance's id: one DNS-1123 label unique among the live instances (a pod or host name)
         * @return this builder
         */
        public Builder instanceId(String value) {
            settings().instanceId(value);
            return this;
        }

        /**
         * {@link FleetSettings#ownershipGroup()}: the group of instances that divide schedulers (default
         * {@code default}); instances of different groups share none.
         *
         * @param value one DNS-1123 label
         * @return this builder
         */
        public Builder ownershipGroup(String value) {
            settings().ownershipGroup(value);
            return this;
        }

        /**
         * {@link FleetSettings#ownershipLeaseTtl()}: how long a dead instance's membership and scheduler leases live
         * (default 15 s): its schedulers are re-owned within this plus one heartbeat.
         *
         * @param value a positive duration, more than twice the heartbeat
         * @return this builder
         */
        public Builder ownershipLeaseTtl(Duration value) {
            settings().ownershipLeaseTtl(value);
            return this;
        }

        /**
         * {@link FleetSettings#ownershipHeartbeat()}: how often the membership and scheduler leases are renewed and
         * the schedulers divided again (default 5 s).
         *
         * @param value a positive duration, under half the lease TTL
         * @return this builder
         */
        public Builder ownershipHeartbeat(Duration value) {
            settings().ownershipHeartbeat(value);
            return this;
        }

        private FleetSettings.Builder settings() {
            if (settings == null) {
                // settings(null) was called; later setters start from the defaults, build() still reports it.
                settings = FleetSettings.builder();
                settingsMissing = true;
            }
            return settings;
        }

        private boolean settingsMissing;

        /**
         * The fleet; call {@link Fleet#start()} to start its worker.
         *
         * @throws dev.hotspare.validation.ValidationException naming every bad setting and its value
         */
        public Fleet build() {
            List<Problem> problems = new java.util.ArrayList<>();
            if (scheduler == null) {
                problems.add(Problem.of("scheduler", Problem.MISSING, "is required (TaskScheduler.system(..) or virtual time)"));
            }
            required("schedulerStore", schedulers, problems);
            required("roomStatusStore", rooms, problems);
            required("usageHistory", usageHistory, problems);
            required("usageMetrics", usageMetrics, problems);
            required("autoscaler", autoscaler, problems);
            required("listener", listener, problems);
            required("pluginClassLoader", plugins, problems);
            FleetSettings checked = null;
            if (settings == null || settingsMissing) {
                problems.add(Problem.of("settings", Problem.MISSING, "must not be null (FleetSettings.DEFAULTS)"));
            } else {
                try {
                    checked = settings.build();
                } catch (dev.hotspare.validation.ValidationException e) {
                    problems.addAll(e.problems());
                }
            }
            if (checked != null && checked.instanceId().isPresent() && ownership != null) {
                problems.add(Problem.of("instanceId", checked.instanceId().get(), "set either instanceId or ownership, not both"));
            }
            if (!problems.isEmpty()) {
                throw new dev.hotspare.validation.ValidationException(problems);
            }
            if (lockStore == null) {
                lockStore = new InMemoryLockStore(scheduler.clock());
            }
            if (driver == null) {
                driver = InMemoryMemberDriver.builder(scheduler).build();
            }
            if (events == null) {
                events = EventDispatcher.builder().tasks(scheduler).build();
            }
            return new Fleet(this, checked);
        }

        private static void required(String field, Object value, List<Problem> problems) {
            if (value == null) {
                problems.add(Problem.of(field, Problem.MISSING, "must not be null"));
            }
        }
    }
}
