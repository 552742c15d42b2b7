package dev.hotspare.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfigs;
import dev.hotspare.fleet.SchedulerState;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.autoscale.Autoscaler.AutoscalerSettings;
import dev.hotspare.fleet.autoscale.Autoscaler.ScaleDecision;
import dev.hotspare.fleet.autoscale.ResourceMetric;
import dev.hotspare.fleet.autoscale.ScalingPolicies;
import dev.hotspare.fleet.autoscale.UsageReading;
import dev.hotspare.fleet.runtime.internal.AutoscaleReplay;
import dev.hotspare.json.Documents;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code hotspare autoscale --config FILE --ticks FILE}: replays ticks through the autoscaler with its own
 * in-memory usage history and prints one JSON decision per tick. Schemas in docs/cli.md.
 */
@Command(name = "autoscale", mixinStandardHelpOptions = true,
        description = {"Replay a JSON list of ticks through the autoscaler; print one JSON decision per line.",
                "Exit status: 0 replayed, 2 bad input (config or ticks)."})
public final class AutoscaleCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "scheduler config (YAML or JSON)")
    Path config;

    @Option(names = "--ticks", required = true, paramLabel = "FILE", description = "JSON list of ticks")
    Path ticks;

    @Option(names = "--period", defaultValue = "10", paramLabel = "SECONDS",
            description = "seconds between ticks, sizes trigger windows (default ${DEFAULT-VALUE})")
    long periodSeconds;

    @Option(names = "--max-scale-up", defaultValue = "300", paramLabel = "ROOMS",
            description = "most rooms one scale-up adds (default ${DEFAULT-VALUE})")
    int maxScaleUpAmount;

    /**
     * Rooms per status at a tick.
     *
     * @param creating    rooms starting
     * @param ready       rooms available
     * @param occupied    rooms in a match
     * @param terminating rooms shutting down (count nowhere)
     */
    public record Rooms(Integer creating, Integer ready, Integer occupied, Integer terminating) {
        public Rooms {
            // absent counts are zero
            creating = creating == null ? 0 : creating;
            ready = ready == null ? 0 : ready;
            occupied = occupied == null ? 0 : occupied;
            terminating = terminating == null ? 0 : terminating;
        }
    }

    /**
     * One tick of the replay.
     *
     * @param time           when the tick happens (ISO-8601)
     * @param rooms          counts per status
     * @param cpu            cpu utilization in percent of requests; absent = metrics unavailable
     * @param mem            memory utilization in percent of requests; absent = metrics unavailable
     * @param previousScaled whether the previous tick's scale (if it decided one) succeeded (default true)
     * @param state          scheduler state override (e.g. {@code creating}); default: the previous decision's
     */
    public record Tick(Instant time, Rooms rooms, Optional<BigDecimal> cpu, Optional<BigDecimal> mem,
                       Optional<Boolean> previousScaled, Optional<SchedulerState> state) {
    }

    /**
     * One printed decision.
     *
     * @param time           the tick's time
     * @param delta          rooms to add or remove
     * @param reason         BELOW_MIN, ABOVE_MAX, TRIGGER, LIMIT or NONE
     * @param trigger        e.g. {@code up[0] (room)}
     * @param state          the scheduler state after the decision
     * @param heldByCooldown whether a trigger fired but its direction was cooling down
     * @param explanation    why
     */
    @JsonInclude(JsonInclude.Include.NON_ABSENT)
    public record Decision(Instant time, int delta, ScaleDecision.Reason reason, Optional<String> trigger,
                           SchedulerState state, boolean heldByCooldown, String explanation) {
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ScalingPolicies policies = ScalingPolicies.loaded();
        SchedulerConfigs.Check check = SchedulerConfigs.check(config, policies.types());
        if (!check.isValid()) {
            check.problems().forEach(p -> err.println("error: " + config + ": " + p.describe()));
            err.flush();
            return HotspareCli.EXIT_BAD_INPUT;
        }
        List<Tick> replay;
        try {
            replay = List.of(Documents.read(ticks, Tick[].class));
            List<Problem> problems = checkTicks(replay);
            if (!problems.isEmpty()) {
                throw new ValidationException(problems);
            }
        } catch (ValidationException e) {
            e.problems().forEach(p -> err.println("error: " + ticks + ": " + p.describe()));
            err.flush();
            return HotspareCli.EXIT_BAD_INPUT;
        }
        List<Problem> options = new ArrayList<>();
        if (periodSeconds < 1 || periodSeconds > 86_400) {
            options.add(Problem.of("--period", periodSeconds, "must be a whole number of seconds in 1..86400"));
        }
        if (maxScaleUpAmount < 1 || maxScaleUpAmount > MAX_ROOMS) {
            options.add(Problem.of("--max-scale-up", maxScaleUpAmount, "must be a number of rooms in 1.." + MAX_ROOMS));
        }
        if (!options.isEmpty()) {
            options.forEach(p -> err.println("error: " + p.describe()));
            err.flush();
            return HotspareCli.EXIT_BAD_INPUT;
        }
        Autoscaler autoscaler = Autoscaler.builder().policies(policies)
                .settings(new AutoscalerSettings(Duration.ofSeconds(periodSeconds), maxScaleUpAmount)).build();
        for (Decision d : replay(autoscaler, check.config().orElseThrow(), replay)) {
            out.println(Documents.toJsonLine(d));
        }
        out.flush();
        return 0;
    }

    /** Replays {@code ticks} through {@code autoscaler} with the runtime's own replay ({@link AutoscaleReplay}). */
    public static List<Decision> replay(Autoscaler autoscaler, SchedulerConfig config, List<Tick> ticks) {
        List<AutoscaleReplay.Tick> observed = ticks.stream().map(tick -> new AutoscaleReplay.Tick(tick.time(),
                new RoomStatusCounts(tick.rooms().creating(), tick.rooms().ready(), tick.rooms().occupied(),
                        tick.rooms().terminating()),
                Map.of(ResourceMetric.CPU, reading(tick.cpu(), "cpu"), ResourceMetric.MEM, reading(tick.mem(), "mem")),
                tick.previousScaled().orElse(true), tick.state())).toList();
        List<ScaleDecision> decisions = AutoscaleReplay.replay(autoscaler, config, observed);
        List<Decision> out = new ArrayList<>();
        for (int i = 0; i < ticks.size(); i++) {
            ScaleDecision d = decisions.get(i);
            out.add(new Decision(ticks.get(i).time(), d.delta(), d.reason(), d.trigger().map(Object::toString), d.newState(),
                    d.heldByCooldown(), d.explanation()));
        }
        return out;
    }

    private static UsageReading reading(Optional<BigDecimal> percent, String metric) {
        return percent.<UsageReading>map(p -> UsageReading.of(p, BigDecimal.valueOf(100)))
                .orElseGet(() -> UsageReading.unavailable("no " + metric + " value in this tick"));
    }

    /** Largest room count in a tick: the default limit of rooms per scheduler. */
    private static final int MAX_ROOMS = dev.hotspare.fleet.SchedulerConfig.FleetLimits.DEFAULT.maxRooms();
    /** Largest cpu or mem usage in a tick, in percent of the requests (100 times over). */
    private static final BigDecimal MAX_PERCENT = BigDecimal.valueOf(10_000);

    private static List<Problem> checkTicks(List<Tick> ticks) {
        List<Problem> problems = new ArrayList<>();
        Instant previous = null;
        for (int i = 0; i < ticks.size(); i++) {
            Tick t = ticks.get(i);
            String path = "[" + i + "]";
            if (t.time() == null) {
                problems.add(Problem.of(path + ".time", Problem.MISSING, "required field is missing"));
            } else {
                if (previous != null && t.time().isBefore(previous)) {
                    problems.add(Problem.of(path + ".time", t.time(), "ticks must be in time order"));
                }
                previous = t.time();
            }
            if (t.rooms() == null) {
                problems.add(Problem.of(path + ".rooms", Problem.MISSING, "required field is missing"));
            } else {
                Rooms r = t.rooms();
                int[] values = {r.creating(), r.ready(), r.occupied(), r.terminating()};
                String[] names = {"creating", "ready", "occupied", "terminating"};
                for (int k = 0; k < values.length; k++) {
                    if (values[k] < 0 || values[k] > MAX_ROOMS) {
                        problems.add(Problem.of(path + ".rooms." + names[k], values[k], "must be in 0.." + MAX_ROOMS));
                    }
                }
            }
            t.cpu().filter(v -> v.signum() < 0 || v.compareTo(MAX_PERCENT) > 0).ifPresent(v -> problems.add(Problem.of(path + ".cpu",
                    v.toPlainString(), "must be a percentage in 0.." + MAX_PERCENT)));
            t.mem().filter(v -> v.signum() < 0 || v.compareTo(MAX_PERCENT) > 0).ifPresent(v -> problems.add(Problem.of(path + ".mem",
                    v.toPlainString(), "must be a percentage in 0.." + MAX_PERCENT)));
        }
        return problems;
    }
}
