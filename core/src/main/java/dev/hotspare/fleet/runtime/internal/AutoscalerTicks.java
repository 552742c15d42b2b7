package dev.hotspare.fleet.runtime.internal;

import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerState;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.autoscale.Autoscaler.FleetSnapshot;
import dev.hotspare.fleet.autoscale.Autoscaler.ScaleDecision;
import dev.hotspare.fleet.autoscale.Autoscaler.UsageWindows;
import dev.hotspare.fleet.spi.UsageHistory;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The autoscaler's side effect, kept out of the pure {@link Autoscaler}: reading the usage points recorded so
 * far from a {@link UsageHistory} and recording each tick's new points. The watcher does both around the planner;
 * {@link #tick} does them around {@link Autoscaler#evaluate} for callers that drive an autoscaler alone (replays,
 * benchmarks).
 */
public final class AutoscalerTicks {

    private AutoscalerTicks() {
    }

    /**
     * The points recorded so far for every trigger type {@code config} uses, as many as its longest window needs.
     *
     * @return the points recorded so far for every trigger type {@code config} uses, as many as its longest window
     *         needs
     */
    public static UsageWindows recorded(Autoscaler autoscaler, UsageHistory history, String scheduler, SchedulerConfig config) {
        Map<String, List<BigDecimal>> points = new LinkedHashMap<>();
        autoscaler.windowSizes(config).forEach((type, keep) -> points.put(type, history.latest(scheduler, type, keep)));
        return new UsageWindows(points);
    }

    /**
     * Records one tick's points, each type's history trimmed to what its longest window needs.
     */
    public static void record(UsageHistory history, String scheduler, Map<String, BigDecimal> points, Map<String, Integer> keep) {
        points.forEach((type, point) -> history.record(scheduler, type, point, keep.get(type)));
    }

    /**
     * One tick of {@code autoscaler} for {@code scheduler}: reads the windows, evaluates, records this tick's points
     * and returns the decision — what the watcher does, without the rooms.
     *
     * @param now the current instant
     * @return one tick of {@code autoscaler} for {@code scheduler}: reads the windows, evaluates, records this tick's
     *         points and returns the decision — what the watcher does, without the rooms
     */
    public static ScaleDecision tick(Autoscaler autoscaler, String scheduler, SchedulerConfig config, FleetSnapshot snapshot,
                                     UsageHistory history, SchedulerState state, Optional<Instant> lastScaleAt, Instant now) {
        Autoscaler.Evaluation evaluation = autoscaler.evaluate(config, snapshot,
                recorded(autoscaler, history, scheduler, config), state, lastScaleAt, now);
        record(history, scheduler, evaluation.points(), evaluation.keep());
        return evaluation.decision();
    }
}
