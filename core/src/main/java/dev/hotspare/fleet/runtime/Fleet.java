package dev.hotspare.fleet.runtime;

import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.DeadRoomRules;
import dev.hotspare.fleet.PolicyTypes;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfigs;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.events.EventDispatcher;
import dev.hotspare.fleet.lock.LockListener;
import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.fleet.lock.spi.LockStore;
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
import dev.hotspare.ownership.runtime.OwnershipListener;
import dev.hotspare.ownership.runtime.OwnershipMember;
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
 * Fleet fleet = Fleet.builder(TaskScheduler.system(executor, Clock.systemUTC())).build().start();
 * fleet.updates().create("name: pong\ngame: pong\nimage: pong:1\nautoscaling: {min: 2}\n");
 * fleet.rooms().report("pong", room, "ready", Instant.now());
 * }</pre>
 *
 * For real, pass the adapters' stores ({@code RedisLockStore}, {@code PostgresSchedulerStore}, {@code PodMemberDriver},
 * …); any number of fleets may share the same stores: the lock protocol lets one act on a scheduler at a time.
 */
public final class Fleet implements AutoCloseable {

    private final Builder settings;
    private final LockManager locks;
    private final SchedulerOperations operations;
    private final RoomService rooms;
    private final Worker worker;
    private final Optional<OwnershipMember> ownership;
    private final Optional<OwnershipMember.OwnedKeys> ownedSchedulers;
    /** Whether this fleet made its ownership member (and so starts and closes it) or was given one. */
    private final boolean ownsMember;

    private Fleet(Builder b) {
        this.settings = b;
        this.locks = LockManager.builder(b.lockStore, b.tasks).ttl(b.lockTtl).kpis(b.lockListener).build();
        // Configs are checked against the autoscaler's policies (their type names and declared parameters), the
        // fleet's limits and the forwarder plug-ins on the class path.
        PolicyTypes types = b.autoscaler.policies().types();
        java.util.Set<String> forwarderPlugins = EventDispatcher.pluginNames(b.plugins);
        // The same check as hotspare validate's (one validation), forwarder plug-ins included.
        Function<ConfigDocument, List<Problem>> validator = config -> SchedulerConfigs.check(config.submitted(),
                Documents.Format.YAML, types, b.limits, forwarderPlugins).problems();
        Function<ConfigDocument, SchedulerConfig> parser = config -> SchedulerConfigs.parse(config.submitted(), Documents.Format.YAML, types);
        this.operations = SchedulerOperations.builder(b.schedulers, locks, b.driver, b.tasks).roomStatuses(b.rooms)
                .events(b.events).validator(validator).parser(parser).autoscaler(b.autoscaler).replaceTimeout(b.replaceTimeout)
                .lockWait(b.lockWait).pollInterval(b.pollInterval).kpis(b.listener).limits(b.limits).build();
        this.rooms = new RoomService(b.rooms, b.schedulers, b.driver, locks, b.autoscaler, b.events, b.tasks, parser, b.listener)
                .withMaxClockSkew(b.maxClockSkew);
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
        } else if (b.instanceId != null) {
            this.ownership = Optional.of(OwnershipMember.builder(b.instanceId).lockStore(b.lockStore).scheduler(b.tasks)
                    .group(b.ownershipGroup).leaseTtl(b.ownershipLeaseTtl).heartbeat(b.ownershipHeartbeat)
                    .listener(b.ownershipListener).build());
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
        this.worker = Worker.builder(b.schedulers, b.rooms, b.usageHistory, b.driver, locks, b.tasks).owns(owns)
                .keysChanged(keysChanged)
                .usageMetrics(b.usageMetrics).autoscaler(b.autoscaler).events(b.events).parser(parser)
                .syncPeriod(b.syncPeriod).replaceTimeout(b.replaceTimeout).pollInterval(b.pollInterval)
                .pingTimeout(b.pingTimeout).allocationTimeout(b.allocationTimeout).pluginClassLoader(b.plugins)
                .kpis(b.listener).limits(b.limits).build();
    }

    /**
     * A builder whose stores, lock store and room driver are in memory until replaced. {@code tasks} runs the
     * worker, lock renewals and rolling replaces, and its clock stamps everything.
     */
    public static Builder builder(TaskScheduler tasks) {
        return new Builder(tasks);
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
     * built with an {@link Builder#instanceId instance id}; empty for a fleet that owns every scheduler.
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
        return settings.schedulers;
    }

    /**
     * Where room statuses live.
     */
    public RoomStatusStore roomStatusStore() {
        return settings.rooms;
    }

    /**
     * The rooms' member driver.
     */
    public MemberDriver memberDriver() {
        return settings.driver;
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

    /** Builds a {@link Fleet}; every option has a default, and {@link #build()} snapshots them. */
    public static final class Builder {
        private final TaskScheduler tasks;
        private SchedulerStore schedulers = new InMemorySchedulerStore();
        private RoomStatusStore rooms = new InMemoryRoomStatusStore();
        private UsageHistory usageHistory = new InMemoryUsageHistory();
        private LockStore lockStore;
        private MemberDriver driver;
        private UsageMetrics usageMetrics = UsageMetrics.none();
        private Autoscaler autoscaler = Autoscaler.standard();
        private EventDispatcher events;
        private FleetListener listener = FleetListener.NONE;
        private LockListener lockListener = LockListener.NONE;
        private Duration lockTtl = LockManager.DEFAULT_TTL;
        private Duration syncPeriod = Duration.ofSeconds(10);
        private Duration pollInterval = Duration.ofSeconds(1);
        private Duration replaceTimeout = Duration.ofMinutes(10);
        private Duration lockWait = Duration.ofMinutes(1);
        private Duration pingTimeout = DeadRoomRules.DEFAULT_PING_TIMEOUT;
        private Duration allocationTimeout = Worker.DEFAULT_ALLOCATION_TIMEOUT;
        private ClassLoader plugins = Fleet.class.getClassLoader();
        private dev.hotspare.fleet.FleetLimits limits = dev.hotspare.fleet.FleetLimits.DEFAULT;
        private Duration maxClockSkew = RoomService.DEFAULT_MAX_CLOCK_SKEW;
        private String instanceId;
        private OwnershipMember ownership;
        private String ownershipGroup = "default";
        private Duration ownershipLeaseTtl = Duration.ofSeconds(15);
        private Duration ownershipHeartbeat = Duration.ofSeconds(5);
        private OwnershipListener ownershipListener = new OwnershipListener() {
        };

        private Builder(TaskScheduler tasks) {
            this.tasks = Objects.requireNonNull(tasks, "tasks");
        }

        /**
         * Where schedulers, their versions and releases live (default: in memory).
         */
        public Builder schedulerStore(SchedulerStore value) {
            this.schedulers = Objects.requireNonNull(value, "schedulerStore");
            return this;
        }

        /**
         * Where room statuses and last pings live (default: in memory).
         */
        public Builder roomStatusStore(RoomStatusStore value) {
            this.rooms = Objects.requireNonNull(value, "roomStatusStore");
            return this;
        }

        /**
         * Where the autoscaler's usage points live (default: in memory).
         */
        public Builder usageHistory(UsageHistory value) {
            this.usageHistory = Objects.requireNonNull(value, "usageHistory");
            return this;
        }

        /**
         * Where leases live (default: in memory, on the task scheduler's clock).
         */
        public Builder lockStore(LockStore value) {
            this.lockStore = Objects.requireNonNull(value, "lockStore");
            return this;
        }

        /**
         * What creates and deletes rooms (default: in memory; a room is {@code creating} until it pings).
         *
         * @return this builder
         */
        public Builder memberDriver(MemberDriver value) {
            this.driver = Objects.requireNonNull(value, "memberDriver");
            return this;
        }

        /**
         * cpu / mem usage for cpu and mem triggers (default: none, for room triggers only).
         */
        public Builder usageMetrics(UsageMetrics value) {
            this.usageMetrics = Objects.requireNonNull(value, "usageMetrics");
            return this;
        }

        /**
         * The autoscaler: its policies (also the trigger types configs may use), settings (its period is the
         * watchers' tick) and removal ranking, which every scale-down follows (default: {@link Autoscaler#standard()}).
         *
         * @return the autoscaler: its policies (also the trigger types configs may use), settings (its period is the
         *         watchers' tick) and removal ranking, which every scale-down follows (default: {@link
         *         Autoscaler#standard()})
         */
        public Builder autoscaler(Autoscaler value) {
            this.autoscaler = Objects.requireNonNull(value, "autoscaler");
            return this;
        }

        /**
         * Where room and scheduler events go (default: only the forwarders scheduler configs name, retrying on this
         * fleet's task scheduler). Give yours {@code tasks(...)} so webhook retries run on the fleet's time.
         *
         * @return where room and scheduler events go (default: only the forwarders scheduler configs name, retrying
         *         on this fleet's task scheduler)
         */
        public Builder events(EventDispatcher value) {
            this.events = Objects.requireNonNull(value, "events");
            return this;
        }

        /**
         * Receives rooms per status and every scale (a {@code dev.hotspare.kpi.KpiListener} fits; default: none).
         *
         * @return receives rooms per status and every scale (a {@code dev.hotspare.kpi.KpiListener} fits; default:
         *         none)
         */
        public Builder listener(FleetListener value) {
            this.listener = Objects.requireNonNull(value, "listener");
            return this;
        }

        /**
         * Receives lock waits and lost leases (a {@code dev.hotspare.kpi.KpiListener} fits; default: none).
         */
        public Builder lockListener(LockListener value) {
            this.lockListener = Objects.requireNonNull(value, "lockListener");
            return this;
        }

        /**
         * Lease TTL; leases are renewed every ttl/3 (default {@link LockManager#DEFAULT_TTL}).
         */
        public Builder lockTtl(Duration value) {
            this.lockTtl = Objects.requireNonNull(value, "lockTtl");
            return this;
        }

        /**
         * How often the worker re-reads the scheduler list (default 10 s).
         */
        public Builder syncPeriod(Duration value) {
            this.syncPeriod = Objects.requireNonNull(value, "syncPeriod");
            return this;
        }

        /**
         * How often replaces and removals check the driver (default 1 s).
         */
        public Builder pollInterval(Duration value) {
            this.pollInterval = Objects.requireNonNull(value, "pollInterval");
            return this;
        }

        /**
         * How long a rolling replace (and waiting for removed rooms) may take (default 10 min).
         */
        public Builder replaceTimeout(Duration value) {
            this.replaceTimeout = Objects.requireNonNull(value, "replaceTimeout");
            return this;
        }

        /**
         * How long operations wait for DOWNSCALE / TERMINATION (default 1 min).
         */
        public Builder lockWait(Duration value) {
            this.lockWait = Objects.requireNonNull(value, "lockWait");
            return this;
        }

        /**
         * Silence after which a room is dead (default 30 s).
         */
        public Builder pingTimeout(Duration value) {
            this.pingTimeout = Objects.requireNonNull(value, "pingTimeout");
            return this;
        }

        /**
         * How long a match slot handed out by the allocation call waits for the room to report its match; then the
         * slot goes back and an allocated room is ready again (default 60 s).
         *
         * @return this builder
         */
        public Builder allocationTimeout(Duration value) {
            this.allocationTimeout = Objects.requireNonNull(value, "allocationTimeout");
            return this;
        }

        /**
         * Where event forwarder plug-ins named in scheduler configs are looked up.
         */
        public Builder pluginClassLoader(ClassLoader value) {
            this.plugins = Objects.requireNonNull(value, "pluginClassLoader");
            return this;
        }

        /**
         * The bounds of every count, duration and quantity a config or a scaling request may ask for (default
         * {@link dev.hotspare.fleet.FleetLimits#DEFAULT}); configs beyond them are invalid, scaling requests beyond
         * them refused, and rooms are created in steps of at most the scale step.
         *
         * @param value the limits
         * @return this builder
         */
        public Builder limits(dev.hotspare.fleet.FleetLimits value) {
            this.limits = Objects.requireNonNull(value, "limits");
            return this;
        }

        /**
         * How far ahead of the fleet's clock a room report's timestamp may be (default
         * {@link RoomService#DEFAULT_MAX_CLOCK_SKEW}); later reports are refused.
         *
         * @param value the largest skew
         * @return this builder
         */
        public Builder maxClockSkew(Duration value) {
            this.maxClockSkew = Objects.requireNonNull(value, "maxClockSkew");
            return this;
        }

        /**
         * The fleet; call {@link Fleet#start()} to start its worker.
         */
        /**
         * Divides the schedulers between the instances that share this fleet's stores: this instance joins the group
         * under {@code value} (through a membership lease on the {@link #lockStore lock store}) and runs watchers only
         * for the schedulers it owns. Without it (the default) the fleet acts on every scheduler, which is right for
         * one instance and safe but wasteful for several. Needs a lock store shared by the instances (Redis,
         * PostgreSQL, Kubernetes Leases).
         *
         * @param value this instance's id: one DNS-1123 label unique among the live instances (a pod or host name)
         * @return this builder
         */
        public Builder instanceId(String value) {
            this.instanceId = Objects.requireNonNull(value, "instanceId");
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
            this.ownership = Objects.requireNonNull(value, "ownership");
            return this;
        }

        /**
         * The group of instances that divide schedulers (default {@code default}); instances of different groups share
         * none.
         *
         * @param value one DNS-1123 label
         * @return this builder
         */
        public Builder ownershipGroup(String value) {
            this.ownershipGroup = Objects.requireNonNull(value, "ownershipGroup");
            return this;
        }

        /**
         * How long a dead instance's membership and scheduler leases live (default 15 s): its schedulers are re-owned
         * within this plus one heartbeat.
         *
         * @param value a positive duration, more than twice the heartbeat
         * @return this builder
         */
        public Builder ownershipLeaseTtl(Duration value) {
            this.ownershipLeaseTtl = Objects.requireNonNull(value, "ownershipLeaseTtl");
            return this;
        }

        /**
         * How often the membership and scheduler leases are renewed and the schedulers divided again (default 5 s).
         *
         * @param value a positive duration, under half the lease TTL
         * @return this builder
         */
        public Builder ownershipHeartbeat(Duration value) {
            this.ownershipHeartbeat = Objects.requireNonNull(value, "ownershipHeartbeat");
            return this;
        }

        /**
         * Told of every scheduler this instance takes, hands over or loses.
         *
         * @param value the listener
         * @return this builder
         */
        public Builder ownershipListener(OwnershipListener value) {
            this.ownershipListener = Objects.requireNonNull(value, "ownershipListener");
            return this;
        }

        public Fleet build() {
            if (instanceId != null && ownership != null) {
                throw new dev.hotspare.validation.ValidationException(Problem.of("instanceId", instanceId,
                        "set either instanceId or ownership, not both"));
            }
            if (lockStore == null) {
                lockStore = new InMemoryLockStore(tasks.clock());
            }
            if (driver == null) {
                driver = InMemoryMemberDriver.builder(tasks).build();
            }
            if (events == null) {
                events = EventDispatcher.builder().tasks(tasks).build();
            }
            return new Fleet(this);
        }
    }
}
