package dev.hotspare.cli;

import dev.hotspare.micrometer.KpiSummary;
import dev.hotspare.micrometer.MicrometerKpis;
import dev.hotspare.pool.PoolPlanner.Tuning;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.sizing.SizerSettings;
import dev.hotspare.pool.sizing.SizerSettings.ScheduledOverride;
import dev.hotspare.pool.sizing.SizerSettings.WaitTarget;
import dev.hotspare.sim.ClaimTraces;
import dev.hotspare.sim.ClaimTraces.ClaimArrival;
import dev.hotspare.sim.ClaimTraces.RateStep;
import dev.hotspare.sim.PoolSimulation;
import dev.hotspare.sim.PoolSimulation.AutoComparison;
import dev.hotspare.sim.PoolSimulation.Recommendation;
import dev.hotspare.sim.PoolSimulation.SimulationReport;
import dev.hotspare.sim.PoolSimulation.SimulationSettings;
import dev.hotspare.sim.internal.TraceFiles;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;
import dev.hotspare.validation.ValidationException;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code hotspare simulate}: replays claims against a pool on virtual time for a range of runningCount values
 * and recommends the cheapest one that meets a wait target.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true,
        description = {"Replay claims against a pool on virtual time, through the real pool controller, for each runningCount in a range.",
                "With no options: a typical CI pool (one claim per 15 min, 40 min install, 5 min resume) over 30 days.",
                "With --auto TARGET: also replay it with the pool sizing its hot spares itself, and compare with the best static runningCount."})
final class SimulateCommand implements Callable<Integer> {

    private static final Instant TRACE_START = Instant.parse("2026-01-05T00:00:00Z");
    /** Largest Poisson rate, claims per hour. */
    static final double MAX_RATE = 10_000;
    /** Longest Poisson trace, days. */
    static final int MAX_DAYS = 3_660;
    /** Most claims one simulation replays (a trace is held in memory, and replayed once per runningCount). */
    static final long MAX_CLAIMS = 200_000;
    /** Largest simulated pool (every member is simulated on every step). */
    static final int MAX_SIZE = 1_000;
    /** Longest duration option. */
    static final Duration MAX_DURATION = Duration.ofDays(365);

    @Spec
    CommandSpec spec;

    /** Poisson rate when none is given, claims per hour. */
    static final double DEFAULT_RATE = 4;
    /** The bursty trace's background rate when none is given, claims per hour. */
    static final double DEFAULT_BURSTY_BASE = 1;
    /** Mean time between the bursty trace's bursts. */
    static final Duration BURST_EVERY = Duration.ofHours(6);

    @Option(names = "--rate", paramLabel = "CLAIMS_PER_HOUR",
            description = "Poisson claim arrival rate (default: 4); with --trace bursty, the background rate between bursts (default: 1)")
    Double rate;

    @Option(names = "--trace", paramLabel = "poisson|diurnal|bursty|CSV",
            description = {"the claims to replay (default: poisson): Poisson at --rate; diurnal: 11/h Mon-Fri 09-17 UTC, 0.5/h at night and on weekends;",
                    "bursty: --rate plus bursts of 5-15 claims within 10 min about every 6 h; or a CSV file of 'claim time,hold duration' (ISO-8601)"})
    String trace;

    @Option(names = "--trace-format", paramLabel = "claims|azure-functions|events",
            description = {"the trace file's format (default: detected from its first line): claims ('claim time,hold duration');",
                    "azure-functions (Azure Functions 2019 per-minute invocation counts, all rows summed or one --function's, spread within each minute);",
                    "events (one event per line, the first column a timestamp)"})
    String traceFormat;

    @Option(names = "--dilate", paramLabel = "F", description = "with a trace file: stretch time by F from the first claim (2: half the rate; default 1)")
    Double dilate;

    @Option(names = {"--function", "--trace-function"}, paramLabel = "HASH",
            description = "with an Azure Functions trace: replay only the rows of this HashFunction (default: the sum of all rows)")
    String function;

    @Option(names = "--thin", paramLabel = "K", description = "with a trace file: keep every K-th claim (default 1: all)")
    Integer thin;

    @Option(names = "--auto", paramLabel = "TARGET",
            description = "also replay with the sizer (runningCount: auto) for this wait target, e.g. p95=PT1M (p50, p95 or p99), and compare")
    String auto;

    @Option(names = "--override", paramLabel = "WINDOW",
            description = "with --auto: a scheduled bound on the sized count, e.g. 'Mon-Fri 08:50-10:00 runningCount >= 3' (UTC; repeatable)")
    List<String> overrides = new ArrayList<>();

    @Option(names = "--days", description = "length of a Poisson trace in days (default: ${DEFAULT-VALUE})")
    int days = 30;

    @Option(names = "--hold", paramLabel = "DURATION", description = "how long each claim holds its member, for built-in traces and trace files without holds (default: ${DEFAULT-VALUE})")
    Duration hold = Duration.ofHours(1);

    @Option(names = "--install", paramLabel = "DURATION", description = "member install time (default: ${DEFAULT-VALUE})")
    Duration install = Duration.ofMinutes(40);

    @Option(names = "--resume", paramLabel = "DURATION", description = "resume time (default: ${DEFAULT-VALUE})")
    Duration resume = Duration.ofMinutes(5);

    @Option(names = "--hibernate", paramLabel = "DURATION", description = "hibernate time (default: ${DEFAULT-VALUE})")
    Duration hibernate = Duration.ofMinutes(5);

    @Option(names = "--size", description = "pool size: unclaimed members to keep (default: ${DEFAULT-VALUE})")
    int size = 8;

    @Option(names = "--running-from", description = "first runningCount of the sweep (default: ${DEFAULT-VALUE})")
    int runningFrom = 0;

    @Option(names = "--running-to", description = "last runningCount of the sweep (default: the pool size)")
    Integer runningTo;

    @Option(names = "--target-p95", paramLabel = "DURATION", description = "wait target for the recommendation (default: ${DEFAULT-VALUE})")
    Duration targetP95 = Duration.ofMinutes(1);

    @Option(names = "--chart", paramLabel = "PATH", description = "chart file stem; writes PATH.png and PATH.svg, also when PATH ends in .png or .svg (default: ${DEFAULT-VALUE})")
    Path chart = Path.of("hotspare-simulation");

    @Option(names = "--seed", description = "random seed of the Poisson trace (default: ${DEFAULT-VALUE})")
    long seed = 1;

    /** slf4j-simple's level property for the controller's logger. */
    private static final String CONTROLLER_LOG_LEVEL = "org.slf4j.simpleLogger.log.dev.hotspare.pool.runtime.PoolController";

    @Override
    public Integer call() throws IOException {
        // A replay runs the real controller, which logs every sizing change at INFO: thousands of lines on a terminal
        // for a month of claims. Warnings still show; a user who wants the changes sets the property.
        if (System.getProperty(CONTROLLER_LOG_LEVEL) == null) {
            System.setProperty(CONTROLLER_LOG_LEVEL, "warn");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        int to = runningTo == null ? size : runningTo;
        Problems problems = new Problems();
        String kind = trace == null ? "poisson" : builtIn(trace) ? trace.toLowerCase(Locale.ROOT) : "csv";
        double rate = this.rate != null ? this.rate : kind.equals("bursty") ? DEFAULT_BURSTY_BASE : DEFAULT_RATE;
        problems.require(this.rate == null || kind.equals("poisson") || kind.equals("bursty"), "--rate", rate,
                "applies to --trace poisson and bursty only");
        problems.require(!(kind.equals("poisson") || kind.equals("bursty")) || (Double.isFinite(rate) && rate > 0 && rate <= MAX_RATE), "--rate", rate,
                "must be a number of claims per hour in (0, " + (int) MAX_RATE + "]");
        problems.require(days > 0 && days <= MAX_DAYS, "--days", days, "must be in 1.." + MAX_DAYS);
        problems.require(traceFormat == null || kind.equals("csv"), "--trace-format", traceFormat, "applies to a trace file only");
        problems.require(dilate == null || kind.equals("csv"), "--dilate", dilate, "applies to a trace file only");
        problems.require(thin == null || kind.equals("csv"), "--thin", thin, "applies to a trace file only");
        problems.require(function == null || kind.equals("csv"), "--function", function, "applies to an Azure Functions trace file only");
        Optional<TraceFiles.Format> format = Optional.empty();
        if (traceFormat != null) {
            try {
                format = Optional.of(TraceFiles.Format.parse("--trace-format", traceFormat));
            } catch (ValidationException e) {
                problems.addAll(e.problems());
            }
        }
        TraceFiles.Options fileOptions = null;
        if (kind.equals("csv")) try {
            fileOptions = new TraceFiles.Options(format, hold, dilate == null ? 1 : dilate, thin == null ? 1 : thin, TRACE_START, seed,
                    Optional.ofNullable(function));
        } catch (ValidationException e) {
            problems.addAll(e.problems());
        }
        problems.require(!kind.equals("poisson") || !(Double.isFinite(rate) && rate * 24 * days > MAX_CLAIMS), "--rate", rate,
                "with --days " + days + " makes about " + (long) Math.min(Long.MAX_VALUE, rate * 24 * days)
                        + " claims; the limit is " + MAX_CLAIMS + " (lower --rate or --days)");
        problems.require(size >= 0 && size <= MAX_SIZE, "--size", size, "must be in 0.." + MAX_SIZE);
        problems.require(runningFrom >= 0, "--running-from", runningFrom, "must be >= 0");
        problems.require(to >= runningFrom, "--running-to", to, "must be >= --running-from (" + runningFrom + ")");
        problems.require(to - runningFrom <= 100, "--running-to", to, "sweeps at most 101 values");
        for (var d : List.of(Optional.of(hold), Optional.of(install), Optional.of(resume), Optional.of(hibernate), Optional.of(targetP95))) {
            d.ifPresent(x -> problems.require(!x.isNegative() && x.compareTo(MAX_DURATION) <= 0, "duration", x,
                    "must be between 0 and " + MAX_DURATION.toDays() + " days"));
        }
        Optional<SizerSettings> sizing = Optional.empty();
        if (auto != null) {
            try {
                sizing = Optional.of(sizing(auto, Math.max(to, 0)));
            } catch (ValidationException e) {
                problems.addAll(e.problems());
            }
        } else {
            problems.require(overrides.isEmpty(), "--override", String.join("; ", overrides), "applies with --auto only");
        }
        if (!problems.isEmpty()) {
            return CliSupport.badInput(err, "simulate", new ValidationException(problems.list()));
        }
        List<ClaimArrival> arrivals;
        try {
            arrivals = switch (kind) {
                case "poisson" -> ClaimTraces.poisson(rate, TRACE_START, Duration.ofDays(days), hold, seed);
                case "diurnal" -> ClaimTraces.diurnal(TRACE_START, Duration.ofDays(days), hold, seed);
                case "bursty" -> ClaimTraces.bursty(TRACE_START, Duration.ofDays(days), hold, rate, BURST_EVERY, seed);
                default -> readTrace(Path.of(trace), fileOptions);
            };
        } catch (ValidationException e) {
            return CliSupport.badInput(err, kind.equals("csv") ? trace : "simulate", e);
        }
        if (arrivals.isEmpty()) {
            return CliSupport.badInput(err, "simulate", new ValidationException(Problem.of("--days", days, "too short for any claim at this rate")));
        }
        SimulationSettings settings = new SimulationSettings(PoolSpec.builder("sim").size(size).build(), install, resume,
                hibernate, Duration.ofMinutes(1));
        // A generated trace lasts --days (its last claim may come before the end: "over 29 days" for a 30-day
        // run misled); a CSV trace lasts from its first claim to its last. Durations print as the tables do.
        String span = kind.equals("csv")
                ? dev.hotspare.validation.Durations.format(Duration.between(arrivals.get(0).at(), arrivals.get(arrivals.size() - 1).at()))
                : days + (days == 1 ? " day" : " days");
        out.printf("hotspare simulate: %d claims over %s, install %s, resume %s, pool size %d, runningCount %d..%d%n",
                arrivals.size(), span, human(install), human(resume), size, runningFrom, to);
        if (sizing.isPresent()) {
            List<RateStep> trueRate = switch (kind) {
                case "poisson" -> List.of(new RateStep(TRACE_START, rate));
                case "diurnal" -> ClaimTraces.diurnalRate(TRACE_START, Duration.ofDays(days));
                case "bursty" -> ClaimTraces.burstyRate(TRACE_START, Duration.ofDays(days), rate, BURST_EVERY, seed);
                default -> List.of();
            };
            return compare(out, err, settings, arrivals, sizing.get(), trueRate, to);
        }
        if (kind.equals("poisson")) {
            out.printf("rule of thumb: runningCount = round_up(claim rate x install time) = %d%n",
                    Tuning.suggestedRunningCount(rate / 60, install));
        }
        List<SimulationReport> reports = sweep(settings, arrivals, to, err);
        printTable(out, reports);
        SimulationReport chosen = recommend(out, reports);
        printKpis(out, settings.withRunningCount(chosen.runningCount()), arrivals);
        return writeChart(out, err, stem -> Charts.writeWaitVsCost(reports, chosen, targetP95, stem));
    }

    private static boolean builtIn(String trace) {
        return List.of("poisson", "diurnal", "bursty").contains(trace.toLowerCase(Locale.ROOT));
    }

    /**
     * The sizer's settings for {@code --auto}: the target, 0..{@code max} hot spares, the sizer's default pace, and
     * the simulated resume and install times to plan with until the controller has measured its own.
     */
    private SizerSettings sizing(String target, int max) {
        WaitTarget parsed = WaitTarget.parse("--auto", target);
        try {
            AutoComparison.requireReported(parsed);
        } catch (ValidationException e) {
            throw new ValidationException(Problem.of("--auto", target, e.problems().get(0).message()));
        }
        List<ScheduledOverride> windows = new ArrayList<>();
        for (String o : overrides) {
            windows.add(ScheduledOverride.parse("--override", o));
        }
        try {
            return SizerSettings.of(parsed, 0, max).withDefaultLeadTimes(resume, install).withOverrides(windows, ZoneOffset.UTC);
        } catch (ValidationException e) {
            throw new ValidationException(e.problems().stream()
                    .map(p -> p.path().startsWith("overrides") ? new Problem("--override", p.value(), p.message()) : p).toList());
        }
    }

    /** {@code --chart} without a {@code .png} / {@code .svg} ending, so {@code --chart out.png} writes out.png, not out.png.png. */
    private Path chartStem() {
        String file = chart.getFileName() == null ? "" : chart.getFileName().toString();
        String lower = file.toLowerCase(Locale.ROOT);
        if ((lower.endsWith(".png") || lower.endsWith(".svg")) && file.length() > 4) {
            return chart.resolveSibling(file.substring(0, file.length() - 4));
        }
        return chart;
    }

    /** {@code --auto}: the sweep, the sizer's run beside the best static count, the saving, and the chart. */
    private int compare(PrintWriter out, PrintWriter err, SimulationSettings settings, List<ClaimArrival> arrivals,
                        SizerSettings sizing, List<RateStep> trueRate, int to) {
        AutoComparison c;
        try (Progress progress = new Progress(to - runningFrom + 2)) {
            c = AutoComparison.run(settings, arrivals, sizing, trueRate, runningFrom, to, progress::stepTo);
        } finally {
            err.flush();
        }
        printTable(out, c.statics());
        WaitTarget target = sizing.target();
        out.printf("%nauto vs static, target %s:%n", human(target));
        out.printf("%-16s %9s %9s %9s %7s %7s %7s %11s %13s%n", "policy", "wait p50", "wait p95", "wait p99", "hot", "warm",
                "cold", "running-h", "hibernated-h");
        row(out, String.format(Locale.ROOT, "auto (%.2f)", c.meanSized()), c.auto());
        c.bestStatic().ifPresent(b -> row(out, "static " + b.runningCount(), b));
        c.rateClairvoyant().ifPresent(r -> row(out, "rate-clairv.", r.report()));
        row(out, "arrival-clairv.", clairvoyantRow(c.arrivalClairvoyant()));
        out.printf(Locale.ROOT, "auto: runningCount set between %d and %d (bounds %d..%d), %.2f on average; %s the target%n",
                sizing.min(), c.maxSized(), sizing.min(), sizing.max(), c.meanSized(), c.autoMeetsTarget() ? "meets" : "does NOT meet");
        if (c.bestStatic().isPresent()) {
            SimulationReport b = c.bestStatic().get();
            double saving = c.savingPercent().orElseThrow();
            if (c.autoMeetsTarget()) {
                out.printf(Locale.ROOT, "best static runningCount meeting the target: %d; auto runs %.1f%% %s running member-hours (%.1f vs %.1f)%n",
                        b.runningCount(), Math.abs(saving), saving >= 0 ? "fewer" : "more", c.auto().runningMemberHours(),
                        b.runningMemberHours());
            } else {
                out.printf(Locale.ROOT, "best static runningCount meeting the target: %d (%.1f running member-hours); auto runs %.1f, but it misses the target, so that is no saving%n",
                        b.runningCount(), b.runningMemberHours(), c.auto().runningMemberHours());
            }
        } else {
            out.printf("no static runningCount in %d..%d meets the target (a larger --size or --running-to may help)%n", runningFrom, to);
        }
        out.printf(Locale.ROOT, "arrival-clairvoyant bound: %.1f running member-hours (each claim's member resumed one resume time before it arrives: the runningCount-0 run's hours, nobody waiting)%n",
                c.arrivalClairvoyantHours());
        c.rateClairvoyant().ifPresentOrElse(r -> out.printf(Locale.ROOT,
                        "rate-clairvoyant bound: %.1f running member-hours, p95 %s (%s; the cheapest meeting the target of %d replayed schedules that know the true rate, not the arrivals)%n",
                        r.report().runningMemberHours(), human(r.report().waitP95()), r.schedule(), r.tried()),
                () -> out.println("rate-clairvoyant bound: not known for a trace file (its true rate is not known)"));
        c.bestStatic().ifPresent(b -> out.printf(Locale.ROOT, "clairvoyant saving over static %d: %.1f running member-hours; %s%n",
                b.runningCount(), b.runningMemberHours() - c.arrivalClairvoyantHours(),
                c.capturedPercent().map(x -> String.format(Locale.ROOT, "auto captures %.1f%% of the clairvoyant saving", x))
                        .orElse(c.autoMeetsTarget() ? "auto captures none of it" : "auto misses the target, so it captures none of it")));
        return writeChart(out, err, stem -> Charts.writeAutoVsStatic(c, stem));
    }

    /** Writes a chart's PNG and SVG at a stem. */
    @FunctionalInterface
    private interface ChartWriter {
        void writeAt(Path stem) throws IOException;
    }

    /** Writes the chart at {@code --chart}'s stem and says where; a place it cannot be written is bad input (exit 2). */
    private int writeChart(PrintWriter out, PrintWriter err, ChartWriter writer) {
        Path stem = chartStem();
        try {
            writer.writeAt(stem);
        } catch (IOException | RuntimeException e) {
            return CliSupport.badInput(err, "simulate", new ValidationException(Problem.of("--chart", chart,
                    "cannot write the chart there" + (e.getMessage() == null ? "" : ": " + CliSupport.plain(e.getMessage())))));
        }
        out.printf("chart: %s.png, %s.svg%n", stem, stem);
        out.flush();
        return 0;
    }

    /** The arrival-clairvoyant policy's row: the runningCount-0 run's hours, every claim served hot. */
    private static SimulationReport clairvoyantRow(SimulationReport zero) {
        return new SimulationReport(0, zero.claims(), zero.claims(), Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO,
                zero.claims(), 0, 0, zero.runningMemberHours(), zero.hibernatedMemberHours());
    }

    private static void row(PrintWriter out, String policy, SimulationReport r) {
        out.printf(Locale.ROOT, "%-16s %9s %9s %9s %6.1f%% %6.1f%% %6.1f%% %11.1f %13.1f%n", policy, human(r.waitP50()),
                human(r.waitP95()), human(r.waitP99()), 100.0 * r.servedHot() / r.claims(), 100.0 * r.servedWarm() / r.claims(),
                100.0 * r.servedCold() / r.claims(), r.runningMemberHours(), r.hibernatedMemberHours());
    }

    static String human(WaitTarget target) {
        return "p" + target.percentile().stripTrailingZeros().toPlainString() + " <= " + human(target.maxWait());
    }

    private List<SimulationReport> sweep(SimulationSettings settings, List<ClaimArrival> arrivals, int to, PrintWriter err) {
        try (Progress progress = new Progress(to - runningFrom + 1)) {
            return PoolSimulation.sweep(settings, arrivals, runningFrom, to, progress::stepTo);
        } finally {
            err.flush();
        }
    }

    /**
     * A progress bar on stderr for replays that take longer than a second (short ones would just flicker), and only
     * on a terminal: its escape codes are noise in a pipe or a log file.
     */
    private static final class Progress implements AutoCloseable {
        private final int runs;
        private final long started = System.nanoTime();
        private ProgressBar bar;

        Progress(int runs) {
            this.runs = runs;
        }

        void stepTo(int done) {
            if (bar == null && System.nanoTime() - started > 1_000_000_000L && done < runs && CliSupport.terminal()) {
                bar = new ProgressBarBuilder().setTaskName("simulate").setInitialMax(runs)
                        .setConsumer(new ConsoleProgressBarConsumer(System.err)).build();
            }
            if (bar != null) {
                bar.stepTo(done);
            }
        }

        @Override
        public void close() {
            if (bar != null) {
                bar.close();
            }
        }
    }

    private static void printTable(PrintWriter out, List<SimulationReport> reports) {
        out.printf("%-12s %7s %9s %9s %9s %9s %7s %7s %7s %11s %13s%n", "runningCount", "claims", "wait p50", "wait p95",
                "wait p99", "wait max", "hot", "warm", "cold", "running-h", "hibernated-h");
        for (SimulationReport r : reports) {
            out.printf("%-12d %7d %9s %9s %9s %9s %6.1f%% %6.1f%% %6.1f%% %11.1f %13.1f%n", r.runningCount(), r.claims(),
                    human(r.waitP50()), human(r.waitP95()), human(r.waitP99()), human(r.waitMax()),
                    100.0 * r.servedHot() / r.claims(), 100.0 * r.servedWarm() / r.claims(), 100.0 * r.servedCold() / r.claims(),
                    r.runningMemberHours(), r.hibernatedMemberHours());
        }
    }

    /** Prints the recommendation ({@link Recommendation#recommend}) and returns its run. */
    private SimulationReport recommend(PrintWriter out, List<SimulationReport> reports) {
        Recommendation recommendation = Recommendation.recommend(reports, targetP95);
        SimulationReport r = recommendation.report();
        if (recommendation.meetsTarget()) {
            out.printf("recommended runningCount: %d (the smallest whose p95 wait %s meets the target %s; %.0f%% of claims served hot, %.1f running member-hours)%n",
                    r.runningCount(), human(r.waitP95()), human(targetP95), 100 * r.hotShare(), r.runningMemberHours());
        } else {
            out.printf("no runningCount in the range meets p95 wait <= %s; the best, %d, has p95 %s (a larger size or range may help)%n",
                    human(targetP95), r.runningCount(), human(r.waitP95()));
        }
        return r;
    }

    /**
     * Replays the trace once more at the chosen runningCount with the KPI listener bound to Micrometer, and
     * prints the summary a live pool's meters would give (docs/kpis.md). Virtual time, so it is as fast as a
     * sweep step.
     */
    private static void printKpis(PrintWriter out, SimulationSettings settings, List<ClaimArrival> arrivals) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        PoolSimulation.run(settings, arrivals, new MicrometerKpis(registry, Tags.of("source", "simulation")));
        out.printf("KPIs at runningCount %d (Micrometer meters, as a live pool reports them; waits in virtual time):%n",
                settings.spec().runningCount());
        KpiSummary.lines(registry).forEach(line -> out.println("  " + line));
        registry.close();
    }

    static String human(Duration d) {
        long seconds = d.toSeconds();
        if (seconds < 60) {
            return seconds + "s";
        }
        if (seconds < 3600) {
            return String.format("%dm%02ds", seconds / 60, seconds % 60);
        }
        return String.format("%dh%02dm", seconds / 3600, (seconds % 3600) / 60);
    }

    private static List<ClaimArrival> readTrace(Path file, TraceFiles.Options options) {
        String text;
        try {
            text = dev.hotspare.json.Documents.readText(file);
        } catch (ValidationException e) {
            // Documents names the file as the value; name the option too.
            throw new ValidationException(e.problems().stream().map(p -> new Problem("--trace", p.value(), p.message())).toList());
        }
        List<ClaimArrival> arrivals = TraceFiles.read(text.lines().toList(), options);
        if (arrivals.size() > MAX_CLAIMS) {
            throw new ValidationException(Problem.of("--trace", file, "has " + arrivals.size() + " claims; the limit is " + MAX_CLAIMS));
        }
        return arrivals;
    }
}
