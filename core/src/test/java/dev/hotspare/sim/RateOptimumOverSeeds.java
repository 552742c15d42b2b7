package dev.hotspare.sim;

import dev.hotspare.sim.ClaimTraces.ClaimArrival;
import dev.hotspare.sim.PoolSimulation.AutoComparison;
import dev.hotspare.sim.PoolSimulation.SimulationReport;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

import static dev.hotspare.sim.AutoComparisonTest.CI;
import static dev.hotspare.sim.AutoComparisonTest.MONDAY;
import static dev.hotspare.sim.RateOptimumTest.P95_1M;

/**
 * The rate-knowing bound over seeds of the diurnal trace's rate function (issue 23): per seed, the optimisation
 * path's best position found by bisection on that seed's replay, then each of those positions replayed on every
 * seed. Minutes of replays, so it is a program, not a test (RateOptimumTest pins seed 1 on every build). Run with
 * the number of seeds (default 6) — the command is in docs/pools.md, "The rate-clairvoyant bound, by optimisation".
 */
public final class RateOptimumOverSeeds {

    private RateOptimumOverSeeds() {
    }

    public static void main(String[] args) {
        int seeds = args.length == 0 ? 6 : Integer.parseInt(args[0]);
        List<List<ClaimArrival>> traces = new java.util.ArrayList<>();
        for (int seed = 1; seed <= seeds; seed++) {
            traces.add(ClaimTraces.diurnal(MONDAY, Duration.ofDays(14), Duration.ofHours(1), seed));
        }
        RateOptimum path = RateOptimumTest.path(traces.get(0));
        int[] positions = new int[seeds];
        for (int i = 0; i < seeds; i++) {
            List<ClaimArrival> trace = traces.get(i);
            RateOptimum.Found f = path.search(P95_1M, s -> PoolSimulation.runScheduled(CI.withRunningCount(s.get(0).runningCount()), trace, s))
                    .orElseThrow();
            positions[i] = f.moves();
            double static3 = PoolSimulation.run(CI.withRunningCount(3), trace).runningMemberHours();
            double zero = PoolSimulation.run(CI.withRunningCount(0), trace).runningMemberHours();
            System.out.printf(Locale.ROOT, "seed %d: %d claims; best position %d (%.1f waits expected): %.1f h, p95 %s; static 3 %.1f h,"
                            + " arrival-clairvoyant %.1f h: %.1f%% of the clairvoyant saving%n", i + 1, trace.size(), f.moves(),
                    f.expectedWaits(), f.report().runningMemberHours(), f.report().waitP95(), static3, zero,
                    100 * (static3 - f.report().runningMemberHours()) / (static3 - zero));
        }
        for (int i = 0; i < seeds; i++) {
            StringBuilder line = new StringBuilder();
            int meets = 0;
            for (int j = 0; j < seeds; j++) {
                SimulationReport r = RateOptimumTest.replay(path, positions[i], traces.get(j));
                meets += AutoComparison.meets(r, P95_1M) ? 1 : 0;
                line.append(String.format(Locale.ROOT, " seed %d %.1f h p95 %ds%s;", j + 1, r.runningMemberHours(),
                        r.waitP95().toSeconds(), AutoComparison.meets(r, P95_1M) ? "" : " (miss)"));
            }
            System.out.printf(Locale.ROOT, "position of seed %d (%.1f waits expected) meets on %d of %d:%s%n", i + 1,
                    path.expectedWaits(positions[i]), meets, seeds, line);
        }
    }
}
