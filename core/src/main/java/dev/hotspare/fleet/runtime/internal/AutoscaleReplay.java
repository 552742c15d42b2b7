package dev.hotspare.fleet.runtime.internal;

import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerState;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.autoscale.Autoscaler.ScaleDecision;
import dev.hotspare.fleet.autoscale.Autoscaler.UsageWindows;
import dev.hotspare.fleet.autoscale.ResourceMetric;
import dev.hotspare.fleet.autoscale.UsageReading;
import dev.hotspare.fleet.plan.FleetPlanner;
import dev.hotspare.fleet.plan.FleetPlanner.FleetObservation;
import dev.hotspare.fleet.plan.FleetPlanner.FleetPlan;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.memory.InMemoryUsageHistory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Replays a scheduler's observed ticks through the same planner, usage recording and last-scale rule the watcher
 * uses, with its own in-memory usage history, and returns the autoscaler's decision at each tick. What
 * {@code hotspare autoscale} prints; a replay and a live watcher given the same ticks decide the same.
 */
public final class AutoscaleReplay {

    private static final String SCHEDULER = "replay";

    private AutoscaleReplay() {
    }

    /**
     * One observed tick.
     *
     * @param time           when it happens
     * @param counts         rooms per status
     * @param resourceUsage  cpu / mem readings (absent or unavailable when the metrics could not be read)
     * @param previousScaled whether the previous tick's scale, if it decided one, was applied (a failed or refused
     *                       scale does not start a cooldown)
     * @param state          the scheduler state at this tick, if it is not the previous decision's
     */
    public record Tick(Instant time, RoomStatusCounts counts, Map<ResourceMetric, UsageReading> resourceUsage,
                       boolean previousScaled, Optional<SchedulerState> state) {
        public Tick {
            Objects.requireNonNull(time, "time");
            Objects.requireNonNull(counts, "counts");
            resourceUsage = Map.copyOf(resourceUsage);
            state = Objects.requireNonNullElse(state, Optional.empty());
        }
    }

    /**
     * The autoscaler's decision at each of {@code ticks}, in order; the scheduler starts {@code in-sync}.
     */
    public static List<ScaleDecision> replay(Autoscaler autoscaler, SchedulerConfig config, List<Tick> ticks) {
        FleetPlanner planner = new FleetPlanner(autoscaler);
        InMemoryUsageHistory history = new InMemoryUsageHistory();
        SchedulerState state = SchedulerState.IN_SYNC;
        Optional<Instant> lastScaleAt = Optional.empty();
        boolean previousDecidedAScale = false;
        Instant previousTime = null;
        List<ScaleDecision> decisions = new ArrayList<>();
        for (Tick tick : ticks) {
            if (previousTime != null) {
                lastScaleAt = FleetPlanner.lastScaleAfter(lastScaleAt, previousDecidedAScale && tick.previousScaled(),
                        previousTime);
            }
            state = tick.state().orElse(state);
            UsageWindows recorded = AutoscalerTicks.recorded(autoscaler, history, SCHEDULER, config);
            FleetPlan plan = planner.plan(new FleetObservation(SCHEDULER, config, SchedulerVersion.FIRST, state,
                    lastScaleAt, List.of(), Map.of(), tick.counts(), List.of(), recorded, tick.resourceUsage(), true, false,
                    false, false, tick.time()));
            AutoscalerTicks.record(history, SCHEDULER, plan.usagePoints(), plan.usageKeep());
            ScaleDecision decision = plan.decision().orElseGet(() -> ScaleDecision.none(plan.newState().orElseThrow(),
                    "a creating scheduler gets its min rooms first"));
            decisions.add(decision);
            state = decision.newState();
            previousDecidedAScale = decision.scales();
            previousTime = tick.time();
        }
        return decisions;
    }
}
