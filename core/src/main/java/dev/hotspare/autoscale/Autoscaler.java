package dev.hotspare.autoscale;

import dev.hotspare.autoscale.ScaleDecision.Reason;
import dev.hotspare.autoscale.ScaleDecision.TriggerRef;
import dev.hotspare.fleet.Autoscaling;
import dev.hotspare.fleet.MetricsTrigger;
import dev.hotspare.fleet.RoomStatus;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.ScalingSpec;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerState;
import dev.hotspare.spi.UsageHistory;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Maestro's autoscaler, made exact. {@link #decide} is a pure function of (config, observed rooms, usage
 * windows, scheduler state, last scale, now) → {@link ScaleDecision}; {@link #tick} is the small impure
 * wrapper that records this tick's points in a {@link UsageHistory} and then decides.
 *
 * <p>The rules, in order (docs/fleet.md states them with Maestro's differences):
 * <ol>
 *   <li>While the scheduler is creating or terminating: nothing.</li>
 *   <li>A = creating + ready + occupied. A &lt; min → scale up by min − A. max &gt; 0 and A &gt; max → remove
 *       READY rooms down to max. Neither waits for cooldown or points.</li>
 *   <li>When a policy in use cannot measure (metrics unavailable): nothing — never a guess.</li>
 *   <li>Up triggers (only when max = 0 or A &lt; max), in order, first that fires wins: a limit reached by
 *       the current utilization scales at once; otherwise the trigger fires when (points above usage) × 100 &gt;
 *       threshold × size, and scales if the up cooldown has passed (else it holds the decision).</li>
 *   <li>Down triggers only when no up trigger fired (even one held by cooldown) and A &gt; min: points below
 *       usage, same rule, down cooldown.</li>
 *   <li>Clamps: up ≤ max − A and ≤ maxScaleUpAmount; down ≥ min − A and never more than the READY rooms.</li>
 * </ol>
 * Thread-safe and immutable.
 */
public final class Autoscaler {

    private final ScalingPolicies policies;
    private final RoomRemovalRanking ranking;
    private final AutoscalerSettings settings;

    private Autoscaler(Builder builder) {
        this.policies = builder.policies;
        this.ranking = builder.ranking;
        this.settings = builder.settings;
    }

    /** An autoscaler with the built-in policies, the default ranking and Maestro's settings. */
    public static Autoscaler standard() {
        return builder().build();
    }

    /** A builder starting from the built-in policies, default ranking and default settings. */
    public static Builder builder() {
        return new Builder();
    }

    /** Configures an {@link Autoscaler}. */
    public static final class Builder {
        private ScalingPolicies policies = ScalingPolicies.builtIn();
        private RoomRemovalRanking ranking = RoomRemovalRanking.DEFAULT;
        private AutoscalerSettings settings = AutoscalerSettings.DEFAULT;

        private Builder() {
        }

        /** The policies by type name (e.g. {@link ScalingPolicies#loaded()} to include plug-ins). */
        public Builder policies(ScalingPolicies value) {
            this.policies = value;
            return this;
        }

        /** How READY rooms are chosen for removal. */
        public Builder ranking(RoomRemovalRanking value) {
            this.ranking = value;
            return this;
        }

        /** Tick period and maxScaleUpAmount. */
        public Builder settings(AutoscalerSettings value) {
            this.settings = value;
            return this;
        }

        public Autoscaler build() {
            return new Autoscaler(this);
        }
    }

    /** The policies this autoscaler knows. */
    public ScalingPolicies policies() {
        return policies;
    }

    /** Its settings. */
    public AutoscalerSettings settings() {
        return settings;
    }

    /**
     * The current utilization of every trigger type the config uses (up and down), in first-use order.
     * Types without a registered policy are reported unavailable.
     */
    public Map<String, Utilization> currentUtilizations(SchedulerConfig config, FleetSnapshot snapshot, Instant now) {
        Map<String, Utilization> out = new LinkedHashMap<>();
        PolicyContext context = new PolicyContext(config, Direction.UP, snapshot.resourceUsage(), now);
        for (MetricsTrigger t : triggersInUse(config.autoscaling())) {
            out.computeIfAbsent(t.type(), type -> policies.get(type)
                    .map(p -> p.utilization(snapshot.counts(), context))
                    .orElseGet(() -> new Utilization.Unavailable("no scaling policy of type '" + type + "'")));
        }
        return out;
    }

    /** Points to keep per type: the largest window among that type's triggers. */
    public Map<String, Integer> windowSizes(SchedulerConfig config) {
        Map<String, Integer> sizes = new LinkedHashMap<>();
        for (MetricsTrigger t : triggersInUse(config.autoscaling())) {
            sizes.merge(t.type(), settings.windowSize(t.time()), Math::max);
        }
        return sizes;
    }

    /**
     * Records this tick's point for every type in use whose utilization is measurable, reads the windows and
     * decides. The only method here with a side effect (on {@code history}).
     */
    public ScaleDecision tick(String scheduler, SchedulerConfig config, FleetSnapshot snapshot, UsageHistory history,
                              SchedulerState state, Optional<Instant> lastScaleAt, Instant now) {
        if (state == SchedulerState.CREATING || state == SchedulerState.TERMINATING) {
            return ScaleDecision.none(state, "scheduler is " + state.wireName());
        }
        Map<String, Utilization> current = currentUtilizations(config, snapshot, now);
        Map<String, Integer> sizes = windowSizes(config);
        Map<String, List<BigDecimal>> points = new LinkedHashMap<>();
        for (Map.Entry<String, Integer> e : sizes.entrySet()) {
            if (current.get(e.getKey()) instanceof Utilization.Value value) {
                history.record(scheduler, e.getKey(), value.fraction(), e.getValue());
            }
            points.put(e.getKey(), history.latest(scheduler, e.getKey(), e.getValue()));
        }
        return decide(config, snapshot, new UsageWindows(points), state, lastScaleAt, now, current);
    }

    /**
     * The decision for one scheduler at {@code now}. Pure: no I/O, no clock, inputs untouched.
     *
     * @param config      the scheduler's config (validated)
     * @param snapshot    room counts, READY rooms and resource readings at this tick
     * @param windows     points per type, oldest first, including this tick's
     * @param state       the scheduler's current state
     * @param lastScaleAt the last <em>successful</em> scale of either direction
     * @param now         the decision's time
     */
    public ScaleDecision decide(SchedulerConfig config, FleetSnapshot snapshot, UsageWindows windows,
                                SchedulerState state, Optional<Instant> lastScaleAt, Instant now) {
        return decide(config, snapshot, windows, state, lastScaleAt, now, null);
    }

    /** {@code precomputed}: this tick's utilizations when the caller already has them (from {@link #tick}), else null. */
    private ScaleDecision decide(SchedulerConfig config, FleetSnapshot snapshot, UsageWindows windows,
                                 SchedulerState state, Optional<Instant> lastScaleAt, Instant now,
                                 Map<String, Utilization> precomputed) {
        if (state == SchedulerState.CREATING || state == SchedulerState.TERMINATING) {
            return ScaleDecision.none(state, "scheduler is " + state.wireName());
        }
        Autoscaling a = config.autoscaling();
        RoomStatusCounts counts = snapshot.counts();
        int active = counts.active();
        if (active < a.min()) {
            return new ScaleDecision(a.min() - active, Reason.BELOW_MIN, Optional.empty(), SchedulerState.SUBDIMENSIONED,
                    false, List.of(), active + " rooms, below min " + a.min());
        }
        if (a.isBounded() && active > a.max()) {
            int removable = Math.min(active - a.max(), counts.ready());
            if (removable == 0) {
                return ScaleDecision.none(SchedulerState.OVERDIMENSIONED,
                        active + " rooms, above max " + a.max() + ", but no READY room to remove");
            }
            return new ScaleDecision(-removable, Reason.ABOVE_MAX, Optional.empty(), SchedulerState.OVERDIMENSIONED,
                    false, removals(snapshot, removable), active + " rooms, above max " + a.max());
        }

        Map<String, Utilization> current = precomputed != null ? precomputed : currentUtilizations(config, snapshot, now);
        List<String> unavailable = new ArrayList<>();
        current.forEach((type, u) -> {
            if (u instanceof Utilization.Unavailable missing) {
                unavailable.add(type + " (" + missing.why() + ")");
            }
        });
        if (!unavailable.isEmpty()) {
            return ScaleDecision.none(state, "metrics unavailable: " + String.join(", ", unavailable));
        }

        if (!a.isBounded() || active < a.max()) {
            Optional<ScaleDecision> up = evaluateUp(config, snapshot, windows, current, lastScaleAt, now);
            if (up.isPresent()) {
                return up.get();
            }
        }
        if (active > a.min()) {
            Optional<ScaleDecision> down = evaluateDown(config, snapshot, windows, current, lastScaleAt, now);
            if (down.isPresent()) {
                return down.get();
            }
        }
        return ScaleDecision.none(SchedulerState.IN_SYNC, "no trigger fired");
    }

    private Optional<ScaleDecision> evaluateUp(SchedulerConfig config, FleetSnapshot snapshot, UsageWindows windows,
                                               Map<String, Utilization> current, Optional<Instant> lastScaleAt, Instant now) {
        Autoscaling a = config.autoscaling();
        RoomStatusCounts counts = snapshot.counts();
        List<MetricsTrigger> triggers = a.up().triggers();
        PolicyContext context = new PolicyContext(config, Direction.UP, snapshot.resourceUsage(), now);
        for (int i = 0; i < triggers.size(); i++) {
            MetricsTrigger trigger = triggers.get(i);
            Optional<ScalingPolicy> policy = policies.get(trigger.type());
            if (policy.isEmpty() || !(current.get(trigger.type()) instanceof Utilization.Value value)) {
                continue;
            }
            TriggerRef ref = new TriggerRef(Direction.UP, i, trigger.type());
            Optional<Integer> limit = trigger.effectiveLimit();
            if (limit.isPresent() && value.atLeast(limit.get())) {
                int delta = clampUp(policy.get().delta(trigger, counts, context), a, counts.active());
                if (delta > 0) {
                    return Optional.of(new ScaleDecision(delta, Reason.LIMIT, Optional.of(ref), SchedulerState.SUBDIMENSIONED,
                            false, List.of(), "utilization " + percent(value) + "% reached limit " + limit.get() + "% of " + ref));
                }
            }
            if (!fires(trigger, windows, Direction.UP)) {
                continue;
            }
            int raw = policy.get().delta(trigger, counts, context);
            if (raw <= 0) {
                continue;
            }
            if (!cooledDown(a.up(), lastScaleAt, now)) {
                return Optional.of(new ScaleDecision(0, Reason.NONE, Optional.of(ref), SchedulerState.SUBDIMENSIONED,
                        true, List.of(), ref + " fired but scale-up is cooling down"));
            }
            int delta = clampUp(raw, a, counts.active());
            return Optional.of(new ScaleDecision(delta, Reason.TRIGGER, Optional.of(ref), SchedulerState.SUBDIMENSIONED,
                    false, List.of(), ref + " fired: +" + delta + (delta != raw ? " (clamped from +" + raw + ")" : "")));
        }
        return Optional.empty();
    }

    private Optional<ScaleDecision> evaluateDown(SchedulerConfig config, FleetSnapshot snapshot, UsageWindows windows,
                                                 Map<String, Utilization> current, Optional<Instant> lastScaleAt, Instant now) {
        Autoscaling a = config.autoscaling();
        RoomStatusCounts counts = snapshot.counts();
        List<MetricsTrigger> triggers = a.down().triggers();
        PolicyContext context = new PolicyContext(config, Direction.DOWN, snapshot.resourceUsage(), now);
        for (int i = 0; i < triggers.size(); i++) {
            MetricsTrigger trigger = triggers.get(i);
            Optional<ScalingPolicy> policy = policies.get(trigger.type());
            if (policy.isEmpty() || !(current.get(trigger.type()) instanceof Utilization.Value)) {
                continue;
            }
            if (!fires(trigger, windows, Direction.DOWN)) {
                continue;
            }
            int raw = policy.get().delta(trigger, counts, context);
            if (raw >= 0) {
                continue;
            }
            TriggerRef ref = new TriggerRef(Direction.DOWN, i, trigger.type());
            if (!cooledDown(a.down(), lastScaleAt, now)) {
                return Optional.of(new ScaleDecision(0, Reason.NONE, Optional.of(ref), SchedulerState.OVERDIMENSIONED,
                        true, List.of(), ref + " fired but scale-down is cooling down"));
            }
            int delta = Math.max(raw, Math.max(a.min() - counts.active(), -counts.ready()));
            if (delta == 0) {
                return Optional.of(new ScaleDecision(0, Reason.NONE, Optional.of(ref), SchedulerState.OVERDIMENSIONED,
                        false, List.of(), ref + " fired but no READY room can be removed"));
            }
            return Optional.of(new ScaleDecision(delta, Reason.TRIGGER, Optional.of(ref), SchedulerState.OVERDIMENSIONED,
                    false, removals(snapshot, -delta), ref + " fired: " + delta + (delta != raw ? " (clamped from " + raw + ")" : "")));
        }
        return Optional.empty();
    }

    /**
     * Panic scale (opt-in with {@code autoscaling.enablePanicScale}): when a room has just reported
     * {@code occupied} and 100 · occupied &gt; A · limit for the first up trigger measuring room occupancy
     * ({@code room} or {@code legacy}) with a limit, one scale-up by that trigger's delta. Pure; the caller
     * holds the scheduler's panic lock so that concurrent reports scale once.
     *
     * @param counts   the counts returned by the room status update that reported {@code reported}
     * @param reported the status just reported
     */
    public ScaleDecision panicDecision(SchedulerConfig config, RoomStatusCounts counts, RoomStatus reported, Instant now) {
        Autoscaling a = config.autoscaling();
        if (!a.enablePanicScale()) {
            return ScaleDecision.none(SchedulerState.IN_SYNC, "panic scale is disabled");
        }
        if (reported != RoomStatus.OCCUPIED) {
            return ScaleDecision.none(SchedulerState.IN_SYNC, "panic scale only follows an occupied report");
        }
        int active = counts.active();
        if (active == 0 || (a.isBounded() && active >= a.max())) {
            return ScaleDecision.none(SchedulerState.IN_SYNC, "no panic scale: " + (active == 0 ? "no rooms" : "at max"));
        }
        List<MetricsTrigger> triggers = a.up().triggers();
        PolicyContext context = new PolicyContext(config, Direction.UP, Map.of(), now);
        for (int i = 0; i < triggers.size(); i++) {
            MetricsTrigger t = triggers.get(i);
            boolean occupancy = t.type().equals("room") || t.type().equals("legacy");
            Optional<ScalingPolicy> policy = policies.get(t.type());
            if (!occupancy || policy.isEmpty() || t.effectiveLimit().isEmpty()) {
                continue;
            }
            int limit = t.effectiveLimit().get();
            if ((long) counts.occupied() * 100 <= (long) active * limit) {
                return ScaleDecision.none(SchedulerState.IN_SYNC, "occupancy within limit " + limit + "%");
            }
            int delta = clampUp(policy.get().delta(t, counts, context), a, active);
            if (delta <= 0) {
                return ScaleDecision.none(SchedulerState.IN_SYNC, "panic: the up delta is not positive");
            }
            TriggerRef ref = new TriggerRef(Direction.UP, i, t.type());
            return new ScaleDecision(delta, Reason.LIMIT, Optional.of(ref), SchedulerState.SUBDIMENSIONED, false, List.of(),
                    "panic scale: " + counts.occupied() + " of " + active + " rooms occupied, above limit " + limit + "% of " + ref);
        }
        return ScaleDecision.none(SchedulerState.IN_SYNC, "no up trigger with a limit on room occupancy");
    }

    private boolean fires(MetricsTrigger trigger, UsageWindows windows, Direction direction) {
        int size = settings.windowSize(trigger.time());
        List<BigDecimal> points = windows.latest(trigger.type(), size);
        BigDecimal usage = BigDecimal.valueOf(trigger.usage(), 2); // the percentage as a fraction, exact
        int beyond = 0;
        for (int i = 0, n = points.size(); i < n; i++) { // indexed: windows are RandomAccess, this is the hot loop
            int cmp = points.get(i).compareTo(usage);
            if (direction == Direction.UP ? cmp > 0 : cmp < 0) {
                beyond++;
            }
        }
        // size, not points.size(), is the denominator: a short history cannot fire early.
        return (long) beyond * 100 > (long) trigger.threshold() * size;
    }

    private static boolean cooledDown(ScalingSpec direction, Optional<Instant> lastScaleAt, Instant now) {
        return lastScaleAt.map(last -> Duration.between(last, now).compareTo(direction.cooldownDuration()) > 0).orElse(true);
    }

    private int clampUp(int delta, Autoscaling a, int active) {
        int clamped = Math.min(delta, settings.maxScaleUpAmount());
        if (a.isBounded()) {
            clamped = Math.min(clamped, a.max() - active);
        }
        return clamped;
    }

    private List<String> removals(FleetSnapshot snapshot, int count) {
        if (snapshot.readyRooms().isEmpty()) {
            return List.of();
        }
        return ranking.rank(snapshot.readyRooms()).stream().limit(count).map(ReadyRoom::name).toList();
    }

    private static List<MetricsTrigger> triggersInUse(Autoscaling a) {
        List<MetricsTrigger> all = new ArrayList<>(a.up().triggers());
        all.addAll(a.down().triggers());
        return all;
    }

    private static String percent(Utilization.Value value) {
        return value.fraction().movePointRight(2).stripTrailingZeros().toPlainString();
    }
}
