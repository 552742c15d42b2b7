package dev.hotspare.cli;

import dev.hotspare.sim.PoolSimulation.AutoComparison;
import dev.hotspare.sim.PoolSimulation.SimulationReport;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** Charts of simulation sweeps, drawn with XChart. */
final class Charts {

    private Charts() {
    }

    /**
     * Claim wait (p50, p95) against running member-hours, one point per runningCount, the p95 target as a horizontal
     * line and the recommended runningCount marked; writes {@code stem}.png and .svg.
     */
    static void writeWaitVsCost(List<SimulationReport> reports, SimulationReport recommended, Duration targetP95, Path stem)
            throws IOException {
        System.setProperty("java.awt.headless", "true");
        XYChart chart = new XYChartBuilder().width(900).height(560)
                .title("Claim wait vs cost, by runningCount")
                .xAxisTitle("running member-hours").yAxisTitle("claim wait (minutes)").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        chart.getStyler().setMarkerSize(8);
        double[] cost = reports.stream().mapToDouble(SimulationReport::runningMemberHours).toArray();
        double[] p95 = reports.stream().mapToDouble(r -> r.waitP95().toMillis() / 60000.0).toArray();
        double[] p50 = reports.stream().mapToDouble(r -> r.waitP50().toMillis() / 60000.0).toArray();
        chart.addSeries("p95 wait", cost, p95);
        chart.addSeries("p50 wait", cost, p50);
        double low = Arrays.stream(cost).min().orElse(0);
        double high = Arrays.stream(cost).max().orElse(0);
        double target = targetP95.toMillis() / 60000.0;
        XYSeries line = chart.addSeries("target p95 <= " + SimulateCommand.human(targetP95), new double[] {low, high},
                new double[] {target, target});
        line.setMarker(SeriesMarkers.NONE);
        XYSeries mark = chart.addSeries("recommended: runningCount " + recommended.runningCount(),
                new double[] {recommended.runningMemberHours()}, new double[] {recommended.waitP95().toMillis() / 60000.0});
        mark.setMarker(SeriesMarkers.CIRCLE);
        mark.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        int first = reports.indexOf(recommended);
        label(chart, reports, cost, p95, first);
        save(chart, stem);
    }

    /**
     * Labels points "rc=N", skipping a point whose label would overlap one already drawn (points close on the
     * plot — rc=7 and rc=8 on a flat stretch — would print one label over the other); {@code first} is labelled
     * before the rest (-1: none).
     */
    private static void label(XYChart chart, List<SimulationReport> reports, double[] x, double[] y, int first) {
        double xRange = Math.max(1e-9, Arrays.stream(x).max().orElse(0) - Arrays.stream(x).min().orElse(0));
        double yRange = Math.max(1e-9, Arrays.stream(y).max().orElse(0) - Arrays.stream(y).min().orElse(0));
        List<Integer> order = new ArrayList<>();
        if (first >= 0) {
            order.add(first);
        }
        for (int i = 0; i < reports.size(); i++) {
            if (i != first) {
                order.add(i);
            }
        }
        List<Integer> drawn = new ArrayList<>();
        for (int i : order) {
            boolean clear = drawn.stream().allMatch(j ->
                    Math.abs(x[i] - x[j]) / xRange > LABEL_WIDTH || Math.abs(y[i] - y[j]) / yRange > LABEL_HEIGHT);
            if (clear) {
                chart.addAnnotation(new AnnotationText("rc=" + reports.get(i).runningCount(), x[i], y[i], false));
                drawn.add(i);
            }
        }
    }

    /** The share of each axis a label takes, roughly (900 x 560 pixels, "rc=10" in the default font). */
    private static final double LABEL_WIDTH = 0.06;
    private static final double LABEL_HEIGHT = 0.05;

    /**
     * Both policies on one plot: claim wait at the target's percentile against running member-hours, one point per
     * static runningCount (a line) and one for the sizer, the target as a horizontal line, the best static count
     * meeting it marked; writes {@code stem}.png and .svg.
     */
    static void writeAutoVsStatic(AutoComparison c, Path stem) throws IOException {
        System.setProperty("java.awt.headless", "true");
        String p = "p" + c.target().percentile().stripTrailingZeros().toPlainString();
        XYChart chart = new XYChartBuilder().width(900).height(560)
                .title("Auto-sized vs static runningCount: " + p + " claim wait vs cost")
                .xAxisTitle("running member-hours").yAxisTitle(p + " claim wait (minutes)").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        chart.getStyler().setMarkerSize(9);
        List<SimulationReport> statics = c.statics();
        double[] cost = statics.stream().mapToDouble(SimulationReport::runningMemberHours).toArray();
        double[] wait = statics.stream().mapToDouble(r -> minutes(c, r)).toArray();
        chart.addSeries("static runningCount", cost, wait);
        label(chart, statics, cost, wait, c.bestStatic().map(statics::indexOf).orElse(-1));
        double autoCost = c.auto().runningMemberHours();
        double autoWait = minutes(c, c.auto());
        XYSeries auto = chart.addSeries("auto (runningCount: auto)", new double[] {autoCost}, new double[] {autoWait});
        auto.setMarker(SeriesMarkers.DIAMOND);
        auto.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        double bound = c.arrivalClairvoyantHours();
        XYSeries clairvoyant = chart.addSeries("arrival-clairvoyant bound (nobody waits)", new double[] {bound}, new double[] {0});
        clairvoyant.setMarker(SeriesMarkers.TRIANGLE_UP);
        clairvoyant.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        c.rateClairvoyant().ifPresent(r -> {
            XYSeries knowing = chart.addSeries("rate-clairvoyant bound", new double[] {r.report().runningMemberHours()},
                    new double[] {minutes(c, r.report())});
            knowing.setMarker(SeriesMarkers.SQUARE);
            knowing.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        });
        double low = Math.min(Math.min(autoCost, bound), Arrays.stream(cost).min().orElse(autoCost));
        double high = Math.max(autoCost, Arrays.stream(cost).max().orElse(autoCost));
        double target = c.target().maxWait().toMillis() / 60000.0;
        XYSeries line = chart.addSeries("target " + p + " <= " + SimulateCommand.human(c.target().maxWait()), new double[] {low, high},
                new double[] {target, target});
        line.setMarker(SeriesMarkers.NONE);
        c.bestStatic().ifPresent(best -> {
            XYSeries mark = chart.addSeries("recommended static: rc=" + best.runningCount(),
                    new double[] {best.runningMemberHours()}, new double[] {minutes(c, best)});
            mark.setMarker(SeriesMarkers.CIRCLE);
            mark.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        });
        chart.addAnnotation(new AnnotationText(autoLabel(c), autoCost, autoWait, false));
        save(chart, stem);
    }

    /**
     * The sizer's label: its saving and the share of the clairvoyant saving it captures when it meets the target;
     * a policy that misses the target is labelled as missing it, never with a saving.
     */
    static String autoLabel(AutoComparison c) {
        if (!c.autoMeetsTarget()) {
            return "auto: misses the target";
        }
        return c.savingPercent().map(s -> String.format(Locale.ROOT, "auto: %.1f%% %s", Math.abs(s), s >= 0 ? "fewer" : "more")
                        + c.capturedPercent().map(x -> String.format(Locale.ROOT, ", captures %.0f%% of the clairvoyant saving", x)).orElse(""))
                .orElse("auto");
    }

    /** Writes {@code stem}.png and {@code stem}.svg, creating the directory if needed. */
    private static void save(XYChart chart, Path stem) throws IOException {
        Path parent = stem.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        BitmapEncoder.saveBitmap(chart, stem.toString(), BitmapEncoder.BitmapFormat.PNG);
        VectorGraphicsEncoder.saveVectorGraphic(chart, stem.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
    }

    private static double minutes(AutoComparison c, SimulationReport r) {
        return AutoComparison.waitAt(r, c.target()).toMillis() / 60000.0;
    }
}
