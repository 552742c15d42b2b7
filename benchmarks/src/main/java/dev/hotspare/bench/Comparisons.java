package dev.hotspare.bench;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs a JMH benchmark class whose methods include a candidate and a baseline, then prints, for every
 * parameter combination, both scores and their ratio. Every benchmark in this module reports through
 * here, so "how fast" is always stated relative to something measured in the same run on the same machine.
 */
public final class Comparisons {

    private Comparisons() {
    }

    /** Default JMH options for a quick but honest run on a 2-core machine. */
    public static ChainedOptionsBuilder options(Class<?> benchmark) {
        return new OptionsBuilder()
                .include(benchmark.getName() + "\\.")
                .forks(1)
                .warmupIterations(3)
                .warmupTime(TimeValue.seconds(1))
                .measurementIterations(5)
                .measurementTime(TimeValue.seconds(1));
    }

    /** Runs {@code options} and returns the results. */
    public static Collection<RunResult> run(ChainedOptionsBuilder options) throws RunnerException {
        return new Runner(options.build()).run();
    }

    /**
     * Prints candidate vs baseline per parameter combination. For time-per-op modes the ratio is
     * candidate/baseline (lower is better); for throughput modes it is candidate/baseline (higher is better).
     * The line says which.
     */
    public static List<String> printRatios(Collection<RunResult> results, String candidate, String baseline) {
        Map<String, Map<String, RunResult>> byParams = new TreeMap<>();
        for (RunResult result : results) {
            String method = result.getParams().getBenchmark();
            method = method.substring(method.lastIndexOf('.') + 1);
            byParams.computeIfAbsent(paramsOf(result), k -> new LinkedHashMap<>()).put(method, result);
        }
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, Map<String, RunResult>> entry : byParams.entrySet()) {
            RunResult c = entry.getValue().get(candidate);
            RunResult b = entry.getValue().get(baseline);
            if (c == null || b == null) {
                continue;
            }
            double cs = c.getPrimaryResult().getScore();
            double bs = b.getPrimaryResult().getScore();
            String unit = c.getPrimaryResult().getScoreUnit();
            boolean throughput = unit.contains("/s") || unit.contains("ops/");
            String line = String.format("RATIO %s [%s]: %s = %.3f %s, %s = %.3f %s, %s/%s = %.2fx (%s)",
                    c.getParams().getBenchmark().replaceAll("\\.[^.]+$", ""), entry.getKey(),
                    candidate, cs, unit, baseline, bs, unit, candidate, baseline, cs / bs,
                    throughput ? "higher is better" : "lower is better");
            lines.add(line);
            System.out.println(line);
        }
        return lines;
    }

    /**
     * Runs {@code candidate} and {@code baseline} of {@code benchmark} as a pair, interleaved: {@code rounds} rounds,
     * each one short JMH run of the candidate and one of the baseline, the order alternating from round to round, so a
     * change of load on the machine falls on both alike. Prints each round's ratio per parameter combination and,
     * per combination, the median of the rounds' ratios.
     *
     * @param params JMH parameters to set (name, then values), e.g. {@code members=10000,100000}; empty for the class's
     */
    public static List<String> interleaved(Class<?> benchmark, String candidate, String baseline, int rounds,
                                           Map<String, String[]> params) throws RunnerException {
        Map<String, List<Double>> ratios = new TreeMap<>();
        Map<String, String> units = new LinkedHashMap<>();
        for (int round = 0; round < rounds; round++) {
            String first = round % 2 == 0 ? candidate : baseline;
            String second = round % 2 == 0 ? baseline : candidate;
            Map<String, Map<String, Double>> scores = new TreeMap<>();
            for (String method : List.of(first, second)) {
                ChainedOptionsBuilder options = new OptionsBuilder()
                        .include(benchmark.getName() + "\\." + method + "$")
                        .forks(1)
                        .warmupIterations(2)
                        .warmupTime(TimeValue.seconds(1))
                        .measurementIterations(3)
                        .measurementTime(TimeValue.seconds(1));
                params.forEach(options::param);
                for (RunResult result : run(options)) {
                    scores.computeIfAbsent(paramsOf(result), k -> new LinkedHashMap<>())
                            .put(method, result.getPrimaryResult().getScore());
                    units.put(paramsOf(result), result.getPrimaryResult().getScoreUnit());
                }
            }
            for (Map.Entry<String, Map<String, Double>> e : scores.entrySet()) {
                Double c = e.getValue().get(candidate);
                Double b = e.getValue().get(baseline);
                if (c != null && b != null) {
                    ratios.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(c / b);
                    System.out.printf("ROUND %d %s [%s]: %s = %.3f %s, %s = %.3f %s, ratio %.2fx (%s ran first)%n", round + 1,
                            benchmark.getSimpleName(), e.getKey(), candidate, c, units.get(e.getKey()), baseline, b,
                            units.get(e.getKey()), c / b, first);
                }
            }
        }
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, List<Double>> e : ratios.entrySet()) {
            List<Double> sorted = new ArrayList<>(e.getValue());
            sorted.sort(null);
            double median = sorted.size() % 2 == 1 ? sorted.get(sorted.size() / 2)
                    : (sorted.get(sorted.size() / 2 - 1) + sorted.get(sorted.size() / 2)) / 2;
            String line = String.format("RATIO %s [%s]: %s/%s median over %d interleaved rounds = %.2fx (rounds: %s; lower is better for %s)",
                    benchmark.getSimpleName(), e.getKey(), candidate, baseline, sorted.size(), median,
                    e.getValue().stream().map(r -> String.format("%.2f", r)).toList(), units.get(e.getKey()));
            lines.add(line);
            System.out.println(line);
        }
        return lines;
    }

    private static String paramsOf(RunResult result) {
        StringBuilder out = new StringBuilder("threads=" + result.getParams().getThreads());
        for (String key : result.getParams().getParamsKeys()) {
            out.append(", ").append(key).append('=').append(result.getParams().getParam(key));
        }
        return out.toString();
    }
}
