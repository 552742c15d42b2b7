package dev.hotspare.micrometer;

import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.lock.LockId;
import dev.hotspare.fleet.lock.LockListener.LockOutcome;
import dev.hotspare.kpi.KpiListener;
import dev.hotspare.pool.Claim.ClaimOutcome;
import dev.hotspare.pool.Claim.ClaimService;
import dev.hotspare.pool.Claim.ClaimStages;
import dev.hotspare.pool.Claim.WaitStage;
import dev.hotspare.pool.Member.MemberState;
import dev.hotspare.pool.PoolPlan.ScaleOperation;
import dev.hotspare.pool.sizing.HotSpareSizer.SizingDecision;
import dev.hotspare.rollout.RolloutState.Phase;
import dev.hotspare.rollout.RolloutState.RolloutProgress;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Records hotspare's KPIs as Micrometer meters. Plug one instance into every runtime component's
 * {@code kpis(...)} builder option (and into the simulator) and bind the registry to your monitoring system.
 *
 * <pre>{@code
 * MicrometerKpis kpis = new MicrometerKpis(registry);
 * PoolController.builder(spec).memberDriver(driver).claimStore(claims).scheduler(tasks).listener(kpis).build();
 * LockManager.builder().lockStore(lockStore).scheduler(tasks).listener(kpis).build();
 * }</pre>
 *
 * <table>
 *   <caption>Meters (see docs/kpis.md)</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>what</th></tr>
 *   <tr><td>{@value #CLAIM_WAIT}</td><td>timer, p50/p95/p99 + percentile histogram</td><td>pool, service</td><td>wait from claim to assignment</td></tr>
 *   <tr><td>{@value #CLAIM_WAIT_STAGE}</td><td>timer</td><td>pool, stage</td><td>each served claim's wait split into queue, resume and install</td></tr>
 *   <tr><td>{@value #CLAIMS_SERVED}</td><td>counter</td><td>pool, service</td><td>claims served hot / warm / cold</td></tr>
 *   <tr><td>{@value #MEMBERS}</td><td>gauge</td><td>pool, state</td><td>members per {@link MemberState} (and, deprecated, fleet rooms per room status)</td></tr>
 *   <tr><td>{@value #SCALE_OPERATIONS}</td><td>counter</td><td>pool, operation</td><td>create / delete operations (and, deprecated, a scheduler's scale-ups and -downs)</td></tr>
 *   <tr><td>{@value #SCALE_MEMBERS}</td><td>counter</td><td>pool, operation</td><td>members those operations touched (and, deprecated, rooms)</td></tr>
 *   <tr><td>{@value #FLEET_ROOMS}</td><td>gauge</td><td>scheduler, status</td><td>a fleet scheduler's rooms per room status</td></tr>
 *   <tr><td>{@value #FLEET_SCALE_OPERATIONS}</td><td>counter</td><td>scheduler, operation</td><td>a scheduler's scale-up / scale-down / delete operations</td></tr>
 *   <tr><td>{@value #FLEET_SCALE_ROOMS}</td><td>counter</td><td>scheduler, operation</td><td>rooms those operations created or removed</td></tr>
 *   <tr><td>{@value #LOCK_WAIT}</td><td>timer</td><td>scheduler, kind, outcome</td><td>lock acquisition waits</td></tr>
 *   <tr><td>{@value #LEASE_LOSSES}</td><td>counter</td><td>scheduler, kind</td><td>leases lost</td></tr>
 *   <tr><td>{@value #SIZER_RUNNING_COUNT}</td><td>gauge</td><td>pool, applied</td><td>the auto-sizer's last running count (applied, or only reported in shadow mode)</td></tr>
 *   <tr><td>{@value #ROLLOUT_TARGETS}</td><td>gauge</td><td>rollout, state (done, total)</td><td>rollout targets</td></tr>
 *   <tr><td>{@value #ROLLOUT_PHASE}</td><td>gauge</td><td>rollout, phase</td><td>1 for the rollout's current phase, 0 for the others</td></tr>
 * </table>
 *
 * Thread-safe, and quick enough for the runtime's threads: meters are created once per tag set and cached.
 */
public final class MicrometerKpis implements KpiListener {

    /** Timer: claim wait, tags {@code pool}, {@code service} (hot, warm, cold). */
    public static final String CLAIM_WAIT = "hotspare.claim.wait";
    /**
     * Timer: each served claim's wait split by stage, tags {@code pool}, {@code stage} (queue, resume, install). Every
     * claim records all three stages (zero where it did not wait), so each stage's count is the claims served and
     * the three totals add up to the total claim wait.
     */
    public static final String CLAIM_WAIT_STAGE = "hotspare.claim.wait.stage";
    /** Counter: claims served, tags {@code pool}, {@code service}. */
    public static final String CLAIMS_SERVED = "hotspare.claims.served";
    /**
     * Counter: claims whose wait ended, tags {@code pool}, {@code outcome} (served_hot, served_warm, served_cold,
     * withdrawn, expired).
     */
    public static final String CLAIM_OUTCOMES = "hotspare.claim.outcome";
    /**
     * Gauge: a pool's members per state, tags {@code pool}, {@code state}. Fleet schedulers' rooms per status are
     * still recorded here too, labelled {@code pool=<scheduler>}, for one release — deprecated: use
     * {@link #FLEET_ROOMS}.
     */
    public static final String MEMBERS = "hotspare.members";
    /**
     * Counter: a pool's scale operations, tags {@code pool}, {@code operation} (create, delete). Fleet schedulers'
     * (scale-up, scale-down, delete) are still counted here too, labelled {@code pool=<scheduler>}, for one release —
     * deprecated: use {@link #FLEET_SCALE_OPERATIONS}.
     */
    public static final String SCALE_OPERATIONS = "hotspare.scale.operations";
    /**
     * Counter: members created or removed by a pool's scale operations, tags {@code pool}, {@code operation}; fleet
     * rooms too for one release, deprecated: use {@link #FLEET_SCALE_ROOMS}.
     */
    public static final String SCALE_MEMBERS = "hotspare.scale.members";
    /**
     * Gauge: a fleet scheduler's rooms per room status, tags {@code scheduler}, {@code status} (creating, ready,
     * allocated, occupied, terminating, error). New meter names rather than a renamed tag on the old ones, so that
     * dashboards reading {@code hotspare.members{pool=..}} keep working for the release that deprecates them.
     */
    public static final String FLEET_ROOMS = "hotspare.fleet.rooms";
    /** Counter: a fleet scheduler's scale operations, tags {@code scheduler}, {@code operation} (scale-up, scale-down, delete). */
    public static final String FLEET_SCALE_OPERATIONS = "hotspare.fleet.scale.operations";
    /** Counter: rooms created or removed by a fleet scheduler's scale operations, tags {@code scheduler}, {@code operation}. */
    public static final String FLEET_SCALE_ROOMS = "hotspare.fleet.scale.rooms";
    /** Timer: lock acquisition wait, tags {@code scheduler}, {@code kind}, {@code outcome} (acquired, timed-out). */
    public static final String LOCK_WAIT = "hotspare.lock.wait";
    /** Counter: leases lost, tags {@code scheduler}, {@code kind}. */
    public static final String LEASE_LOSSES = "hotspare.lease.losses";
    /**
     * Gauge: the running count the auto-sizer decided last, tags {@code pool}, {@code applied} ({@code true}: in force;
     * {@code false}: shadow mode, what it would set).
     */
    public static final String SIZER_RUNNING_COUNT = "hotspare.pool.sizer.running.count";
    /** Gauge: rollout targets, tags {@code rollout}, {@code state} (done, total). */
    public static final String ROLLOUT_TARGETS = "hotspare.rollout.targets";
    /** Gauge: 1 for a rollout's current phase and 0 for every other, tags {@code rollout}, {@code phase}. */
    public static final String ROLLOUT_PHASE = "hotspare.rollout.phase";

    /** Gauge: the keys this instance owns now, tag {@code kind} (scheduler, pool). */
    public static final String OWNED = "hotspare.ownership.owned";
    /**
     * Counter: ownership changes seen by this instance, tags {@code kind} and {@code change} (acquired, handed_over,
     * lost).
     */
    public static final String OWNERSHIP_CHANGES = "hotspare.ownership.changes";
    /**
     * Timer: how long a key this instance took had had no live owner (the time to re-own a dead instance's key; zero
     * for a hand-over at once), tag {@code kind}.
     */
    public static final String REOWN_WAIT = "hotspare.ownership.reown.wait";

    private static final double[] PERCENTILES = {0.5, 0.95, 0.99};

    private final MeterRegistry registry;
    private final Tags commonTags;
    private final Map<List<String>, Timer> claimWaits = new ConcurrentHashMap<>();
    private final Map<List<String>, Timer> stageWaits = new ConcurrentHashMap<>();
    private final Map<List<String>, Counter> counters = new ConcurrentHashMap<>();
    private final Map<List<String>, Timer> lockWaits = new ConcurrentHashMap<>();
    private final Map<List<String>, AtomicInteger> gauges = new ConcurrentHashMap<>();

    /**
     * Meters in {@code registry}, with no extra tags.
     *
     * @param registry where the meters are registered
     */
    public MicrometerKpis(MeterRegistry registry) {
        this(registry, Tags.empty());
    }

    /**
     * Meters in {@code registry}, each also carrying {@code commonTags} (e.g. {@code source=simulation}).
     *
     * @param registry where the meters are registered
     * @param commonTags tags added to every meter (e.g. the instance)
     */
    public MicrometerKpis(MeterRegistry registry, Iterable<Tag> commonTags) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.commonTags = Tags.of(Objects.requireNonNull(commonTags, "commonTags"));
    }

    @Override
    public void claimServed(String pool, ClaimService service, Duration wait) {
        claimWaits.computeIfAbsent(List.of(pool, service.tag()), key -> Timer.builder(CLAIM_WAIT)
                .description("Wait from a claim's creation to its assignment")
                .tags(commonTags).tags("pool", pool, "service", service.tag())
                .publishPercentiles(PERCENTILES).percentilePrecision(2).publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofHours(2))
                .register(registry)).record(wait);
        counter(CLAIMS_SERVED, "Claims served, by how", "pool", pool, "service", service.tag()).increment();
    }

    @Override
    public void claimEnded(String pool, String claim, ClaimOutcome outcome) {
        counter(CLAIM_OUTCOMES, "Claims whose wait ended, by outcome", "pool", pool, "outcome", outcome.tag()).increment();
    }

    @Override
    public void claimStages(String pool, ClaimService service, ClaimStages stages) {
        for (WaitStage stage : WaitStage.values()) {
            stageWaits.computeIfAbsent(List.of(pool, stage.tag()), key -> Timer.builder(CLAIM_WAIT_STAGE)
                    .description("Part of a served claim's wait spent queueing, waiting for a resume or for an install")
                    .tags(commonTags).tags("pool", pool, "stage", stage.tag())
                    .register(registry)).record(stages.of(stage));
        }
    }

    @Override
    public void membersPerState(String pool, Map<MemberState, Integer> counts) {
        counts.forEach((state, count) -> gauge(MEMBERS, "Members per state", "pool", pool, "state", state.tag()).set(count));
    }

    @Override
    public void sizingDecided(String pool, SizingDecision decision, boolean applied) {
        gauge(SIZER_RUNNING_COUNT, "The auto-sizer's running count", "pool", pool, "applied", String.valueOf(applied))
                .set(decision.runningCount());
    }

    @Override
    public void roomsPerStatus(String scheduler, RoomStatusCounts counts) {
        for (RoomStatus status : RoomStatus.values()) {
            if (status != RoomStatus.TERMINATED) {
                String tag = status.name().toLowerCase(Locale.ROOT);
                gauge(FLEET_ROOMS, "A fleet scheduler's rooms per room status", "scheduler", scheduler, "status", tag)
                        .set(counts.count(status));
                // Deprecated (one release): the same count under the pool meter, for dashboards not yet moved.
                gauge(MEMBERS, "Members per state", "pool", scheduler, "state", tag).set(counts.count(status));
            }
        }
    }

    @Override
    public void scaled(String pool, ScaleOperation operation, int count) {
        counter(SCALE_OPERATIONS, "Scale operations", "pool", pool, "operation", operation.tag()).increment();
        counter(SCALE_MEMBERS, "Members created or removed by scale operations", "pool", pool, "operation", operation.tag())
                .increment(count);
    }

    @Override
    public void roomsScaled(String scheduler, ScaleOperation operation, int count) {
        counter(FLEET_SCALE_OPERATIONS, "A fleet scheduler's scale operations", "scheduler", scheduler, "operation", operation.tag())
                .increment();
        counter(FLEET_SCALE_ROOMS, "Rooms created or removed by a fleet scheduler's scale operations", "scheduler", scheduler,
                "operation", operation.tag()).increment(count);
        scaled(scheduler, operation, count); // deprecated (one release): pool=<scheduler>
    }

    @Override
    public void lockWaited(LockId lock, LockOutcome outcome, Duration wait) {
        String kind = lock.kind().keySegment();
        lockWaits.computeIfAbsent(List.of(lock.scheduler(), kind, outcome.tag()), key -> Timer.builder(LOCK_WAIT)
                .description("Wait for a scheduler lock, until granted or given up")
                .tags(commonTags).tags("scheduler", lock.scheduler(), "kind", kind, "outcome", outcome.tag())
                .register(registry)).record(wait);
    }

    @Override
    public void leaseLost(LockId lock) {
        counter(LEASE_LOSSES, "Leases lost while held", "scheduler", lock.scheduler(), "kind", lock.kind().keySegment()).increment();
    }

    @Override
    public void acquired(String kind, String key, long fencingToken, Duration waited) {
        ownedGauge(kind).incrementAndGet();
        counter(OWNERSHIP_CHANGES, "Ownership changes seen by this instance", "kind", kind, "change", "acquired").increment();
        lockWaits.computeIfAbsent(List.of(REOWN_WAIT, kind), k -> Timer.builder(REOWN_WAIT)
                .description("How long a key this instance took had had no live owner")
                .tags(commonTags).tags("kind", kind).register(registry)).record(waited);
    }

    @Override
    public void handedOver(String kind, String key) {
        ownedGauge(kind).decrementAndGet();
        counter(OWNERSHIP_CHANGES, "Ownership changes seen by this instance", "kind", kind, "change", "handed_over").increment();
    }

    @Override
    public void lost(String kind, String key) {
        ownedGauge(kind).decrementAndGet();
        counter(OWNERSHIP_CHANGES, "Ownership changes seen by this instance", "kind", kind, "change", "lost").increment();
    }

    private AtomicInteger ownedGauge(String kind) {
        return gauges.computeIfAbsent(List.of(OWNED, kind), key -> {
            AtomicInteger value = new AtomicInteger();
            Gauge.builder(OWNED, value, AtomicInteger::get).description("Keys this instance owns now")
                    .tags(commonTags).tags("kind", kind).strongReference(true).register(registry);
            return value;
        });
    }

    @Override
    public void rolloutProgress(String rollout, RolloutProgress progress) {
        gauge(ROLLOUT_TARGETS, "Rollout targets", "rollout", rollout, "state", "done").set(progress.done());
        gauge(ROLLOUT_TARGETS, "Rollout targets", "rollout", rollout, "state", "total").set(progress.total());
        for (Phase phase : Phase.values()) {
            gauge(ROLLOUT_PHASE, "1 for the rollout's current phase", "rollout", rollout, "phase",
                    phase.name().toLowerCase(Locale.ROOT)).set(phase == progress.phase() ? 1 : 0);
        }
    }

    /**
     * Removes every fleet meter of {@code scheduler} (rooms per status, scale counts, lock waits, lease losses), so
     * that a deleted scheduler leaves nothing in {@code /metrics}; a scheduler of the same name made later starts
     * its meters afresh.
     */
    @Override
    public void schedulerRemoved(String scheduler) {
        java.util.Set<String> names = java.util.Set.of(MEMBERS, SCALE_MEMBERS, SCALE_OPERATIONS, LOCK_WAIT, LEASE_LOSSES,
                FLEET_ROOMS, FLEET_SCALE_OPERATIONS, FLEET_SCALE_ROOMS);
        gauges.keySet().removeIf(key -> names.contains(key.get(0)) && key.get(1).equals(scheduler));
        counters.keySet().removeIf(key -> names.contains(key.get(0)) && key.get(1).equals(scheduler));
        lockWaits.keySet().removeIf(key -> key.get(0).equals(scheduler));
        for (io.micrometer.core.instrument.Meter meter : List.copyOf(registry.getMeters())) {
            io.micrometer.core.instrument.Meter.Id id = meter.getId();
            if (names.contains(id.getName()) && (scheduler.equals(id.getTag("pool")) || scheduler.equals(id.getTag("scheduler")))) {
                registry.remove(meter);
            }
        }
    }

    private Counter counter(String name, String description, String k1, String v1, String k2, String v2) {
        return counters.computeIfAbsent(List.of(name, v1, v2), key -> Counter.builder(name).description(description)
                .tags(commonTags).tags(k1, v1, k2, v2).register(registry));
    }

    private AtomicInteger gauge(String name, String description, String k1, String v1, String k2, String v2) {
        return gauges.computeIfAbsent(List.of(name, v1, v2), key -> {
            AtomicInteger value = new AtomicInteger();
            Gauge.builder(name, value, AtomicInteger::get).description(description)
                    .tags(commonTags).tags(k1, v1, k2, v2).strongReference(true).register(registry);
            return value;
        });
    }

    @Override
    public String toString() {
        return "MicrometerKpis[" + registry.getClass().getSimpleName() + "]";
    }
}
