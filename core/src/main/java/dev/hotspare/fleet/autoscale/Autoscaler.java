package dev.hotspare.fleet.autoscale;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.hotspare.fleet.PolicyTypes.PolicyParameters;
import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfig.Autoscaling;
import dev.hotspare.fleet.SchedulerConfig.MetricsTrigger;
import dev.hotspare.fleet.SchedulerConfig.PolicySpec;
import dev.hotspare.fleet.SchedulerConfig.ScalingSpec;
import dev.hotspare.fleet.SchedulerState;
import dev.hotspare.fleet.autoscale.Autoscaler.ScaleDecision.Reason;
import dev.hotspare.fleet.autoscale.Autoscaler.ScaleDecision.TriggerRef;
import dev.hotspare.fleet.autoscale.ScalingPolicy.Direction;
import dev.hotspare.fleet.autoscale.ScalingPolicy.PolicyContext;
import dev.hotspare.fleet.autoscale.ScalingPolicy.TargetPolicy;
import dev.hotspare.fleet.autoscale.ScalingPolicy.Utilization;
import dev.hotspare.validation.ValidationException;

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
 * windows, scheduler state, last scale, now) → {@link ScaleDecision}; {@link #evaluate} adds this tick's usage
 * points to the windows first and says which points the caller must record.
 *
 * <p>The rules, in order (docs/fleet.md states them with Maestro's differences):
 * <ol>
 *   <li>While the scheduler is creating or terminating: nothing.</li>
 *   <li>A = creating + ready + occupied. A &lt; min → scale up by min − A. max &gt; 0 and A &gt; max → remove
 *       READY rooms down to max. Neither waits for cooldown or points.</li>
 *   <li>When a policy in use cannot measure (metrics unavailable): nothing — never a guess.</li>
 *   <li>A Maestro 10 policy ({@code autoscaling.policy}, a {@link TargetPolicy}) names the rooms the fleet
 *       should have; the autoscaler moves there, clamped to [min, max], within the directions' cooldowns, and
 *       scales down only when the policy allows it. Triggers are not evaluated then.</li>
 *   <li>Up triggers (only when max = 0 or A &lt; max), in order, first that fires wins: a limit reached by
 *       the current utilization scales at once; otherwise the trigger fires when (points above usage) × 100 &gt;
 *       threshold × size, and scales if the up cooldown has passed. A trigger held by the cooldown does not end
 *       the evaluation: the later up triggers' limits (which ignore cooldown) may still scale; otherwise the
 *       held trigger is the decision.</li>
 *   <li>Down triggers only when no up trigger fired (even one held by cooldown) and A &gt; min: points below
 *       usage, same rule, down cooldown.</li>
 *   <li>Clamps: up ≤ max − A and ≤ maxScaleUpAmount; down ≥ min − A and never more than the READY rooms.</li>
 * </ol>
 * The state after a decision that scales is {@code in-sync}; {@code subdimensioned} / {@code overdimensioned} mean
 * that a rule asks for a scale that is held back (cooldown, no READY room to remove). Thread-safe and immutable.
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

    /**
     * An autoscaler with the built-in policies, the default ranking and Maestro's settings.
     */
    public static Autoscaler standard() {
        return builder().build();
    }

    /**
     * A builder starting from the built-in policies, default ranking and default settings.
     */
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

        /**
         * The policies by type name (e.g. {@link ScalingPolicies#loaded()} to include plug-ins).
         */
        public Builder policies(ScalingPolicies value) {
            this.policies = value;
            return this;
        }

        /**
         * How READY rooms are chosen for removal.
         */
        public Builder ranking(RoomRemovalRanking value) {
            this.ranking = value;
            return this;
        }

        /**
         * Tick period and maxScaleUpAmount.
         */
        public Builder settings(AutoscalerSettings value) {
            this.settings = value;
            return this;
        }

        public Autoscaler build() {
            return new Autoscaler(this);
        }
    }

    /**
     * The policies this autoscaler knows.
     */
    public ScalingPolicies policies() {
        return policies;
    }

    /**
     * Its settings.
     */
    public AutoscalerSettings settings() {
        return settings;
    }

    /**
     * How READY rooms are ordered for removal: every scale-down, whoever asks for it, uses this ranking.
     */
    public RoomRemovalRanking ranking() {
        return ranking;
    }

    /**
     * What the autoscaler derives from one {@link Autoscaling} section once (types in use, window sizes,
     * exact usage and limit fractions), so that a tick over thousands of schedulers sharing configs does no
     * repeated parsing. Cached per config object by identity; a changed config is a new object.
     */
    private static final class Plan {
        final String[] types;
        final int[] keep;
        final Trigger[] up;
        final Trigger[] down;
        /** The Maestro 10 policy, when the config names one. */
        final TargetPolicy target;
        final PolicyParameters targetParameters;
        /** Why the named policy cannot decide (unknown, not a target policy, bad parameters), else null. */
        final String targetProblem;

        Plan(Autoscaling a, AutoscalerSettings settings, ScalingPolicies policies) {
            Map<String, Integer> sizes = new LinkedHashMap<>();
            TargetPolicy found = null;
            PolicyParameters parameters = PolicyParameters.NONE;
            String problem = null;
            if (a.policy().isPresent()) {
                PolicySpec spec = a.policy().get();
                ScalingPolicy policy = policies.policy(spec.type());
                if (policy instanceof TargetPolicy targetPolicy) {
                    try {
                        parameters = PolicyParameters.of(targetPolicy.parameters(), spec.parameters());
                        found = targetPolicy;
                    } catch (ValidationException e) {
                        problem = "policy " + spec.type() + ": " + e.getMessage();
                    }
                } else {
                    problem = "no target policy of type '" + spec.type() + "'";
                }
            }
            target = found;
            targetParameters = parameters;
            targetProblem = problem;
            boolean byTriggers = a.policy().isEmpty();
            up = triggers(byTriggers ? a.up().triggers() : List.of(), Direction.UP, settings, sizes);
            down = triggers(byTriggers ? a.down().triggers() : List.of(), Direction.DOWN, settings, sizes);
            types = sizes.keySet().toArray(new String[0]);
            keep = sizes.values().stream().mapToInt(Integer::intValue).toArray();
            for (Trigger t : up) {
                t.typeIndex = indexOf(types, t.config.type());
            }
            for (Trigger t : down) {
                t.typeIndex = indexOf(types, t.config.type());
            }
        }

        private static Trigger[] triggers(List<MetricsTrigger> list, Direction direction, AutoscalerSettings settings,
                                          Map<String, Integer> sizes) {
            Trigger[] out = new Trigger[list.size()];
            for (int i = 0; i < out.length; i++) {
                MetricsTrigger t = list.get(i);
                out[i] = new Trigger(t, new TriggerRef(direction, i, t.type()), settings.windowSize(t.time()));
                sizes.merge(t.type(), out[i].size, Math::max);
            }
            return out;
        }

        private static int indexOf(String[] types, String type) {
            for (int i = 0; i < types.length; i++) {
                if (types[i].equals(type)) {
                    return i;
                }
            }
            throw new IllegalStateException("type not planned: " + type);
        }
    }

    /** One trigger with its derived values. */
    private static final class Trigger {
        final MetricsTrigger config;
        final TriggerRef ref;
        final int size;
        final BigDecimal usage;
        final Optional<Integer> limitPercent;
        final BigDecimal limit;
        int typeIndex;

        Trigger(MetricsTrigger config, TriggerRef ref, int size) {
            this.config = config;
            this.ref = ref;
            this.size = size;
            this.usage = BigDecimal.valueOf(config.usage(), 2); // the percentage as a fraction, exact
            this.limitPercent = config.effectiveLimit();
            this.limit = limitPercent.map(l -> BigDecimal.valueOf(l, 2)).orElse(null);
        }
    }

    private final Cache<Autoscaling, Plan> plans = Caffeine.newBuilder().weakKeys().build();

    private Plan plan(SchedulerConfig config) {
        return plans.get(config.autoscaling(), a -> new Plan(a, settings, policies));
    }

    /**
     * The current utilization of every trigger type the config uses (up and down), in first-use order.
     * Types without a registered policy are reported unavailable.
     *
     * @param config the scheduler's config (validated)
     * @param snapshot room counts, READY rooms and resource readings at this tick
     * @param now the decision's time
     */
    public Map<String, Utilization> currentUtilizations(SchedulerConfig config, FleetSnapshot snapshot, Instant now) {
        Plan plan = plan(config);
        Utilization[] current = utilizations(plan, config, snapshot, now);
        Map<String, Utilization> out = new LinkedHashMap<>();
        for (int i = 0; i < plan.types.length; i++) {
            out.put(plan.types[i], current[i]);
        }
        return out;
    }

    private Utilization[] utilizations(Plan plan, SchedulerConfig config, FleetSnapshot snapshot, Instant now) {
        PolicyContext context = new PolicyContext(config, Direction.UP, snapshot.resourceUsage(), now);
        Utilization[] out = new Utilization[plan.types.length];
        for (int i = 0; i < out.length; i++) {
            ScalingPolicy policy = policies.policy(plan.types[i]);
            out[i] = policy != null ? policy.utilization(snapshot.counts(), context)
                    : new Utilization.Unavailable("no scaling policy of type '" + plan.types[i] + "'");
        }
        return out;
    }

    /**
     * Points to keep per type: the largest window among that type's triggers.
     *
     * @param config the scheduler's config (validated)
     */
    public Map<String, Integer> windowSizes(SchedulerConfig config) {
        Plan plan = plan(config);
        Map<String, Integer> sizes = new LinkedHashMap<>();
        for (int i = 0; i < plan.types.length; i++) {
            sizes.put(plan.types[i], plan.keep[i]);
        }
        return sizes;
    }

    /**
     * What one autoscaler tick does, as a value: this tick's point for every type in use whose utilization is
     * measurable, and the decision on the windows that include those points.
     *
     * @param points   the point to append per type (the caller records them, trimmed to {@code keep})
     * @param keep     how many points to keep per type: the largest window among that type's triggers
     */
    public record Evaluation(Map<String, BigDecimal> points, Map<String, Integer> keep, ScaleDecision decision) {
        public Evaluation {
            points = Map.copyOf(points);
            keep = Map.copyOf(keep);
        }
    }

    /**
     * One tick, pure: measures this tick's utilization per type, appends it to {@code recorded} (the points
     * recorded before this tick, oldest first) and decides on the result. The caller records
     * {@link Evaluation#points()} in its {@code UsageHistory} (trimmed to {@link Evaluation#keep()}), so the next
     * tick sees them; recording and then reading the history gives exactly the windows decided on here. While the
     * scheduler is creating or terminating nothing is measured and nothing happens.
     *
     * @param config the scheduler's config (validated)
     * @param snapshot room counts, READY rooms and resource readings at this tick
     * @param state the scheduler's current state
     * @param lastScaleAt the last <em>successful</em> scale of either direction
     * @param now the decision's time
     * @return one tick, pure: measures this tick's utilization per type, appends it to {@code recorded} (the points
     *         recorded before this tick, oldest first) and decides on the result
     */
    public Evaluation evaluate(SchedulerConfig config, FleetSnapshot snapshot, UsageWindows recorded,
                               SchedulerState state, Optional<Instant> lastScaleAt, Instant now) {
        if (state == SchedulerState.CREATING || state == SchedulerState.TERMINATING) {
            return new Evaluation(Map.of(), Map.of(), ScaleDecision.none(state, "scheduler is " + state.wireName()));
        }
        Plan plan = plan(config);
        Utilization[] current = utilizations(plan, config, snapshot, now);
        List<?>[] windows = new List<?>[plan.types.length];
        Map<String, BigDecimal> points = new LinkedHashMap<>();
        Map<String, Integer> keep = new LinkedHashMap<>();
        for (int i = 0; i < plan.types.length; i++) {
            List<BigDecimal> before = recorded.latest(plan.types[i], plan.keep[i]);
            keep.put(plan.types[i], plan.keep[i]);
            if (current[i] instanceof Utilization.Value value) {
                points.put(plan.types[i], value.fraction());
                List<BigDecimal> window = new ArrayList<>(before.size() + 1);
                window.addAll(before.size() < plan.keep[i] ? before : before.subList(1, before.size()));
                window.add(value.fraction());
                windows[i] = window;
            } else {
                windows[i] = before;
            }
        }
        return new Evaluation(points, keep, decide(plan, config, snapshot, windows, state, lastScaleAt, now, current));
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
        if (state == SchedulerState.CREATING || state == SchedulerState.TERMINATING) {
            return ScaleDecision.none(state, "scheduler is " + state.wireName());
        }
        Plan plan = plan(config);
        List<?>[] byType = new List<?>[plan.types.length];
        for (int i = 0; i < plan.types.length; i++) {
            byType[i] = windows.points().getOrDefault(plan.types[i], List.of());
        }
        return decide(plan, config, snapshot, byType, state, lastScaleAt, now, null);
    }

    /** {@code precomputed}: this tick's utilizations when the caller already has them (from {@link #evaluate}), else null. */
    private ScaleDecision decide(Plan plan, SchedulerConfig config, FleetSnapshot snapshot, List<?>[] windows,
                                 SchedulerState state, Optional<Instant> lastScaleAt, Instant now,
                                 Utilization[] precomputed) {
        if (state == SchedulerState.CREATING || state == SchedulerState.TERMINATING) {
            return ScaleDecision.none(state, "scheduler is " + state.wireName());
        }
        Autoscaling a = config.autoscaling();
        RoomStatusCounts counts = snapshot.counts();
        int active = counts.active();
        if (active < a.min()) {
            return new ScaleDecision(a.min() - active, Reason.BELOW_MIN, Optional.empty(), SchedulerState.IN_SYNC,
                    false, List.of(), active + " rooms, below min " + a.min());
        }
        if (a.isBounded() && active > a.max()) {
            int removable = Math.min(active - a.max(), counts.ready());
            if (removable == 0) {
                return ScaleDecision.none(SchedulerState.OVERDIMENSIONED,
                        active + " rooms, above max " + a.max() + ", but no READY room to remove");
            }
            return new ScaleDecision(-removable, Reason.ABOVE_MAX, Optional.empty(), SchedulerState.IN_SYNC,
                    false, removals(snapshot, removable), active + " rooms, above max " + a.max());
        }

        Utilization[] current = precomputed != null ? precomputed : utilizations(plan, config, snapshot, now);
        String unavailable = null;
        for (int i = 0; i < current.length; i++) {
            if (current[i] instanceof Utilization.Unavailable missing) {
                String item = plan.types[i] + " (" + missing.why() + ")";
                unavailable = unavailable == null ? item : unavailable + ", " + item;
            }
        }
        if (unavailable != null) {
            return ScaleDecision.none(state, "metrics unavailable: " + unavailable);
        }
        if (config.autoscaling().policy().isPresent()) {
            return evaluateTarget(plan, config, snapshot, state, lastScaleAt, now);
        }

        if (!a.isBounded() || active < a.max()) {
            ScaleDecision up = evaluateUp(plan, config, snapshot, windows, current, lastScaleAt, now);
            if (up != null) {
                return up;
            }
        }
        if (active > a.min()) {
            ScaleDecision down = evaluateDown(plan, config, snapshot, windows, current, lastScaleAt, now);
            if (down != null) {
                return down;
            }
        }
        return ScaleDecision.none(SchedulerState.IN_SYNC, "no trigger fired");
    }

    private ScaleDecision evaluateUp(Plan plan, SchedulerConfig config, FleetSnapshot snapshot, List<?>[] windows,
                                     Utilization[] current, Optional<Instant> lastScaleAt, Instant now) {
        Autoscaling a = config.autoscaling();
        RoomStatusCounts counts = snapshot.counts();
        PolicyContext context = null;
        ScaleDecision held = null;
        for (Trigger trigger : plan.up) {
            ScalingPolicy policy = policies.policy(trigger.config.type());
            if (policy == null || !(current[trigger.typeIndex] instanceof Utilization.Value value)) {
                continue;
            }
            if (trigger.limit != null && value.fraction().compareTo(trigger.limit) >= 0) {
                context = context != null ? context : new PolicyContext(config, Direction.UP, snapshot.resourceUsage(), now);
                int delta = clampUp(policy.delta(trigger.config, counts, context), a, counts.active());
                if (delta > 0) {
                    return new ScaleDecision(delta, Reason.LIMIT, Optional.of(trigger.ref), SchedulerState.IN_SYNC,
                            false, List.of(), "utilization " + percent(value) + "% reached limit "
                            + trigger.limitPercent.orElseThrow() + "% of " + trigger.ref
                            + (held != null ? " (" + held.trigger().orElseThrow() + " is held by the cooldown)" : ""));
                }
            }
            // After a trigger held by the cooldown, later triggers can only scale through their limit (which
            // ignores cooldown): their points would be held by the same cooldown.
            if (held != null || !fires(trigger, windows[trigger.typeIndex], Direction.UP)) {
                continue;
            }
            context = context != null ? context : new PolicyContext(config, Direction.UP, snapshot.resourceUsage(), now);
            int raw = policy.delta(trigger.config, counts, context);
            if (raw <= 0) {
                continue;
            }
            if (!cooledDown(a.up(), lastScaleAt, now)) {
                held = new ScaleDecision(0, Reason.NONE, Optional.of(trigger.ref), SchedulerState.SUBDIMENSIONED,
                        true, List.of(), trigger.ref + " fired but scale-up is cooling down");
                continue;
            }
            int delta = clampUp(raw, a, counts.active());
            return new ScaleDecision(delta, Reason.TRIGGER, Optional.of(trigger.ref), SchedulerState.IN_SYNC,
                    false, List.of(), trigger.ref + " fired: +" + delta + (delta != raw ? " (clamped from +" + raw + ")" : ""));
        }
        return held;
    }

    private ScaleDecision evaluateDown(Plan plan, SchedulerConfig config, FleetSnapshot snapshot, List<?>[] windows,
                                       Utilization[] current, Optional<Instant> lastScaleAt, Instant now) {
        Autoscaling a = config.autoscaling();
        RoomStatusCounts counts = snapshot.counts();
        PolicyContext context = null;
        for (Trigger trigger : plan.down) {
            ScalingPolicy policy = policies.policy(trigger.config.type());
            if (policy == null || !(current[trigger.typeIndex] instanceof Utilization.Value)) {
                continue;
            }
            if (!fires(trigger, windows[trigger.typeIndex], Direction.DOWN)) {
                continue;
            }
            context = context != null ? context : new PolicyContext(config, Direction.DOWN, snapshot.resourceUsage(), now);
            int raw = policy.delta(trigger.config, counts, context);
            if (raw >= 0) {
                continue;
            }
            TriggerRef ref = trigger.ref;
            if (!cooledDown(a.down(), lastScaleAt, now)) {
                return new ScaleDecision(0, Reason.NONE, Optional.of(ref), SchedulerState.OVERDIMENSIONED,
                        true, List.of(), ref + " fired but scale-down is cooling down");
            }
            int delta = Math.max(raw, Math.max(a.min() - counts.active(), -counts.ready()));
            if (delta == 0) {
                return new ScaleDecision(0, Reason.NONE, Optional.of(ref), SchedulerState.OVERDIMENSIONED,
                        false, List.of(), ref + " fired but no READY room can be removed");
            }
            return new ScaleDecision(delta, Reason.TRIGGER, Optional.of(ref), SchedulerState.IN_SYNC,
                    false, removals(snapshot, -delta), ref + " fired: " + delta + (delta != raw ? " (clamped from " + raw + ")" : ""));
        }
        return null;
    }

    /**
     * A Maestro 10 policy's decision: its target clamped to [min, max]; up within the up cooldown and
     * maxScaleUpAmount; down within the down cooldown, only when the policy allows it, READY rooms only.
     */
    private ScaleDecision evaluateTarget(Plan plan, SchedulerConfig config, FleetSnapshot snapshot, SchedulerState state,
                                         Optional<Instant> lastScaleAt, Instant now) {
        if (plan.target == null) {
            return ScaleDecision.none(state, plan.targetProblem);
        }
        Autoscaling a = config.autoscaling();
        RoomStatusCounts counts = snapshot.counts();
        int active = counts.active();
        TargetPolicy.Target target = plan.target.target(counts, plan.targetParameters,
                new PolicyContext(config, Direction.UP, snapshot.resourceUsage(), now));
        int desired = Math.max(a.min(), target.rooms());
        if (a.isBounded()) {
            desired = Math.min(a.max(), desired);
        }
        String why = plan.target.type() + ": " + target.explanation()
                + (desired != target.rooms() ? "; clamped to " + desired + " by min " + a.min() + " / max " + a.max() : "");
        if (desired > active) {
            if (!cooledDown(a.up(), lastScaleAt, now)) {
                return new ScaleDecision(0, Reason.NONE, Optional.empty(), SchedulerState.SUBDIMENSIONED, true, List.of(),
                        why + "; scale-up is cooling down");
            }
            int delta = clampUp(desired - active, a, active);
            return new ScaleDecision(delta, Reason.POLICY, Optional.empty(), SchedulerState.IN_SYNC, false, List.of(),
                    why + ": +" + delta);
        }
        if (desired < active) {
            if (!target.mayScaleDown()) {
                return ScaleDecision.none(SchedulerState.IN_SYNC, why);
            }
            if (!cooledDown(a.down(), lastScaleAt, now)) {
                return new ScaleDecision(0, Reason.NONE, Optional.empty(), SchedulerState.OVERDIMENSIONED, true, List.of(),
                        why + "; scale-down is cooling down");
            }
            int delta = Math.max(desired - active, -counts.ready());
            if (delta == 0) {
                return ScaleDecision.none(SchedulerState.OVERDIMENSIONED, why + "; no READY room can be removed");
            }
            return new ScaleDecision(delta, Reason.POLICY, Optional.empty(), SchedulerState.IN_SYNC, false,
                    removals(snapshot, -delta), why + ": " + delta);
        }
        return ScaleDecision.none(SchedulerState.IN_SYNC, why);
    }

    /**
     * Panic scale (opt-in with {@code autoscaling.enablePanicScale}): when a room has just reported
     * {@code occupied} and 100 · occupied &gt; A · limit for the first up trigger measuring room occupancy
     * ({@code room} or {@code legacy}) with a limit, one scale-up by that trigger's delta — with the older
     * {@code {delta, trigger}} form, by the block's {@code delta}, as Maestro. Pure; the caller holds the
     * scheduler's panic lock so that concurrent reports scale once.
     *
     * @param counts   the counts returned by the room status update that reported {@code reported}
     * @param reported the status just reported
     * @param config the scheduler's config (validated)
     * @param now the decision's time
     * @return panic scale (opt-in with {@code autoscaling.enablePanicScale}): when a room has just reported {@code
     *         occupied} and 100 · occupied &gt; A · limit for the first up trigger measuring room occupancy ({@code
     *         room} or {@code legacy}) with a limit, one scale-up by that trigger's delta
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
            // The older {delta, trigger} form: Maestro's panic scale adds the block's delta, not the room formula's.
            Optional<Integer> blockDelta = a.up().metricsTrigger().isEmpty() ? a.up().delta() : Optional.empty();
            int delta = clampUp(blockDelta.orElseGet(() -> policy.get().delta(t, counts, context)), a, active);
            if (delta <= 0) {
                return ScaleDecision.none(SchedulerState.IN_SYNC, "panic: the up delta is not positive");
            }
            TriggerRef ref = new TriggerRef(Direction.UP, i, t.type());
            return new ScaleDecision(delta, Reason.LIMIT, Optional.of(ref), SchedulerState.IN_SYNC, false, List.of(),
                    "panic scale: " + counts.occupied() + " of " + active + " rooms occupied, above limit " + limit + "% of " + ref);
        }
        return ScaleDecision.none(SchedulerState.IN_SYNC, "no up trigger with a limit on room occupancy");
    }

    /** (points strictly beyond usage among the newest {@code size}) × 100 &gt; threshold × size. */
    private static boolean fires(Trigger trigger, List<?> window, Direction direction) {
        int size = trigger.size;
        int n = window.size();
        int from = Math.max(0, n - size);
        int beyond = 0;
        for (int i = from; i < n; i++) { // indexed: windows are RandomAccess, this is the hot loop
            int cmp = ((BigDecimal) window.get(i)).compareTo(trigger.usage);
            if (direction == Direction.UP ? cmp > 0 : cmp < 0) {
                beyond++;
            }
        }
        // size, not the number of points, is the denominator: a short history cannot fire early.
        return (long) beyond * 100 > (long) trigger.config.threshold() * size;
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

    private static String percent(Utilization.Value value) {
        return value.fraction().movePointRight(2).stripTrailingZeros().toPlainString();
    }

    /**
     * Worker-level autoscaling settings (Maestro's watcher configuration).
     *
     * @param period           time between ticks; a trigger's window is {@code max(1, floor(time / period))} points
     * @param maxScaleUpAmount the most rooms one scale-up adds (min/max corrections excepted)
     */
    public record AutoscalerSettings(Duration period, int maxScaleUpAmount) {

        /** Maestro's defaults: a tick every 10 s, at most 300 rooms per scale-up. */
        public static final AutoscalerSettings DEFAULT = new AutoscalerSettings(Duration.ofSeconds(10), 300);

        public AutoscalerSettings {
            if (period == null || period.isNegative() || period.isZero()) {
                throw new IllegalArgumentException("period must be positive, was " + period);
            }
            if (maxScaleUpAmount < 1) {
                throw new IllegalArgumentException("maxScaleUpAmount must be at least 1, was " + maxScaleUpAmount);
            }
        }

        /**
         * Points a trigger looking at {@code timeSeconds} of history reads.
         */
        public int windowSize(long timeSeconds) {
            long size = Duration.ofSeconds(timeSeconds).toMillis() / period.toMillis();
            return (int) Math.max(1, Math.min(Integer.MAX_VALUE, size));
        }
    }

    /**
     * What the autoscaler observes of one scheduler at one tick.
     *
     * @param counts        rooms per status
     * @param readyRooms    the READY rooms a scale-down may remove (may be empty when the caller only wants the
     *                      delta; removals are then not named)
     * @param resourceUsage current cpu / mem readings; absent or unavailable when the source could not answer
     */
    public record FleetSnapshot(RoomStatusCounts counts, List<ReadyRoom> readyRooms,
                                Map<ResourceMetric, UsageReading> resourceUsage) {

        public FleetSnapshot {
            if (counts == null) {
                throw new IllegalArgumentException("counts are required");
            }
            readyRooms = readyRooms == null ? List.of() : List.copyOf(readyRooms);
            resourceUsage = resourceUsage == null ? Map.of() : Map.copyOf(resourceUsage);
        }

        /**
         * Counts only: no ready rooms named, no resource readings.
         *
         * @param counts rooms per status
         */
        public static FleetSnapshot of(RoomStatusCounts counts) {
            return new FleetSnapshot(counts, List.of(), Map.of());
        }

        /**
         * This snapshot with a {@code metric} reading.
         */
        public FleetSnapshot withUsage(ResourceMetric metric, UsageReading reading) {
            Map<ResourceMetric, UsageReading> usage = new java.util.EnumMap<>(ResourceMetric.class);
            usage.putAll(resourceUsage);
            usage.put(metric, reading);
            return new FleetSnapshot(counts, readyRooms, usage);
        }
    }

    /**
     * A READY room that a scale-down may remove.
     *
     * @param name      room name
     * @param outdated  whether it runs an older major version than the scheduler's current one
     * @param createdAt when it was created
     */
    public record ReadyRoom(String name, boolean outdated, Instant createdAt) {
    }

    /**
     * The recorded points per trigger type, oldest first, including the current tick's point. Each trigger
     * reads the newest {@code size} points of its type.
     *
     * @param points type name → points
     */
    public record UsageWindows(Map<String, List<BigDecimal>> points) {

        /** No points at all. */
        public static final UsageWindows EMPTY = new UsageWindows(Map.of());

        public UsageWindows {
            points = points == null ? Map.of() : Map.copyOf(points);
        }

        /**
         * The newest {@code size} points of {@code type} (fewer when fewer exist), oldest first.
         */
        public List<BigDecimal> latest(String type, int size) {
            List<BigDecimal> all = points.getOrDefault(type, List.of());
            return all.size() <= size ? all : all.subList(all.size() - size, all.size());
        }
    }

    /**
     * What the autoscaler decided for one scheduler at one tick.
     *
     * @param delta          rooms to add (positive) or remove (negative); 0 exactly when {@code reason} is NONE
     * @param reason         why
     * @param trigger        the trigger that fired (or was held back by cooldown), if any
     * @param newState       the scheduler state once this decision is applied: {@code in-sync} after a scale (as in
     *                       Maestro); {@code subdimensioned} / {@code overdimensioned} when a rule asks for a scale that
     *                       is held back (cooldown, no READY room to remove)
     * @param heldByCooldown whether a trigger fired but its direction was still cooling down
     * @param roomsToRemove  for a scale-down, the READY rooms to remove in order (empty when the snapshot named none)
     * @param explanation    one line for humans and logs
     */
    @JsonInclude(JsonInclude.Include.NON_ABSENT)
    public record ScaleDecision(int delta, Reason reason, Optional<TriggerRef> trigger, SchedulerState newState,
                                boolean heldByCooldown, List<String> roomsToRemove, String explanation) {

        /** Why the room count changes (or not). */
        public enum Reason {
            /** Fewer rooms than min: scale up to min. */
            BELOW_MIN,
            /** More rooms than max: remove ready rooms down to max. */
            ABOVE_MAX,
            /** A trigger fired on its window of points. */
            TRIGGER,
            /** Current utilization reached an up trigger's limit (or a panic scale). */
            LIMIT,
            /** A Maestro 10 policy ({@code autoscaling.policy}) named another number of rooms. */
            POLICY,
            /** Nothing to do (see the explanation: in sync, cooldown, metrics unavailable, scheduler busy). */
            NONE
        }

        /**
         * Which trigger.
         *
         * @param direction up or down
         * @param index     position in that direction's trigger list
         * @param type      its type
         */
        public record TriggerRef(Direction direction, int index, String type) {
            @Override
            public String toString() {
                return direction.wireName() + "[" + index + "] (" + type + ")";
            }
        }

        public ScaleDecision {
            trigger = trigger == null ? Optional.empty() : trigger;
            roomsToRemove = roomsToRemove == null ? List.of() : List.copyOf(roomsToRemove);
            if ((delta == 0) != (reason == Reason.NONE)) {
                throw new IllegalArgumentException("delta " + delta + " does not fit reason " + reason);
            }
        }

        /**
         * Nothing to do.
         *
         * @param explanation one line for humans and logs
         */
        public static ScaleDecision none(SchedulerState state, String explanation) {
            return new ScaleDecision(0, Reason.NONE, Optional.empty(), state, false, List.of(), explanation);
        }

        /**
         * Whether the decision changes the room count.
         */
        public boolean scales() {
            return delta != 0;
        }
    }
}
