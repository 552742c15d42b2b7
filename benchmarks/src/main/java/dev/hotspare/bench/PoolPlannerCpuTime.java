package dev.hotspare.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * {@link PoolPlannerBenchmark}'s pair measured on a shared machine: the same inputs, {@code plan} and the sort
 * baseline alternating call by call (the finest interleaving there is), each call timed in the thread's CPU time, so
 * time the machine gives other processes is not charged to either. Prints the median of each and their ratio; a
 * warm-up of the same length is discarded first. Complements the JMH pair, whose wall-clock scores swing when other
 * processes compete for the cores.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar dev.hotspare.bench.PoolPlannerCpuTime [SIZES [CALLS]]}
 * (default {@code 10000,100000} members, 200 calls of each per size).
 */
public final class PoolPlannerCpuTime {

    private PoolPlannerCpuTime() {
    }

    public static void main(String[] args) {
        String[] sizes = (args.length > 0 ? args[0] : "10000,100000").split(",");
        int calls = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        for (String size : sizes) {
            PoolPlannerBenchmark bench = new PoolPlannerBenchmark();
            bench.members = Integer.parseInt(size);
            bench.setUp();
            int n = Math.max(10, calls * 10_000 / Math.max(10_000, bench.members));
            long[] plan = new long[n];
            long[] sort = new long[n];
            long sink = 0;
            for (int pass = 0; pass < 2; pass++) { // the first pass warms up and is discarded
                for (int i = 0; i < n; i++) {
                    boolean planFirst = i % 2 == 0;
                    for (int k = 0; k < 2; k++) {
                        boolean doPlan = (k == 0) == planFirst;
                        long t0 = cpu.getCurrentThreadCpuTime();
                        sink += doPlan ? bench.plan().deletes().size() : bench.sortBaseline().length;
                        long t = cpu.getCurrentThreadCpuTime() - t0;
                        (doPlan ? plan : sort)[i] = t;
                    }
                }
            }
            double p = median(plan) / 1e3;
            double s = median(sort) / 1e3;
            System.out.printf(Locale.ROOT, "RATIO PoolPlannerCpuTime [members=%s]: plan = %.1f us, sortBaseline = %.1f us "
                    + "(medians of %d interleaved calls, thread CPU time), plan/sortBaseline = %.2fx (lower is better) %s%n",
                    size, p, s, n, p / s, sink == 42 ? "" : "");
        }
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
