package dev.hotspare.cli;

import dev.hotspare.sim.SimulationReport;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Charts of simulation sweeps, drawn with XChart. */
final class Charts {

    private Charts() {
    }

    /** Claim wait (p50, p95) against running member-hours, one point per runningCount; writes {@code stem}.png and .svg. */
    static void writeWaitVsCost(List<SimulationReport> reports, Path stem) throws IOException {
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
        for (int i = 0; i < reports.size(); i++) {
            chart.addAnnotation(new AnnotationText("rc=" + reports.get(i).runningCount(), cost[i], p95[i], false));
        }
        Path parent = stem.toAbsolutePath().getParent();
        if (parent != null) {
            java.nio.file.Files.createDirectories(parent);
        }
        BitmapEncoder.saveBitmap(chart, stem.toString(), BitmapEncoder.BitmapFormat.PNG);
        VectorGraphicsEncoder.saveVectorGraphic(chart, stem.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
    }
}
