package dev.hotspare.fleet.runtime;

import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfigs;
import dev.hotspare.fleet.autoscale.ResourceMetric;
import dev.hotspare.fleet.runtime.internal.Watcher;
import dev.hotspare.json.Documents;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A watcher reads cpu / mem usage (a metrics-API call per metric and tick on Kubernetes) only when a trigger
 * of the config can use it.
 */
class WatcherUsageMetricsTest {

    private static SchedulerConfig config(String autoscaling) {
        return SchedulerConfigs.parse("""
                name: pong
                game: pong
                image: pong:1
                requests:
                  cpu: 500m
                  memory: 128Mi
                autoscaling:
                """ + autoscaling.indent(2), Documents.Format.YAML, Set.of("room", "cpu", "mem", "legacy", "buffer"));
    }

    private static String triggers(String upType, String downType) {
        return """
                min: 1
                up:
                  metricsTrigger:
                    - type: %s
                      usage: 70
                      threshold: 80
                      time: 60
                  cooldown: 30
                down:
                  metricsTrigger:
                    - type: %s
                      usage: 30
                      threshold: 80
                      time: 60
                  cooldown: 30
                """.formatted(upType, downType);
    }

    @Test
    void roomTriggersReadNoResourceUsage() {
        assertThat(Watcher.usedMetrics(config(triggers("room", "room")))).isEmpty();
        assertThat(Watcher.usedMetrics(config("min: 2\n"))).as("no triggers at all").isEmpty();
    }

    @Test
    void legacyTriggersReadNoResourceUsage() {
        assertThat(Watcher.usedMetrics(config("""
                min: 1
                up:
                  delta: 2
                  trigger:
                    usage: 70
                    time: 60
                    threshold: 80
                  cooldown: 30
                """))).isEmpty();
    }

    @Test
    void eachResourceTriggerReadsItsOwnMetric() {
        assertThat(Watcher.usedMetrics(config(triggers("cpu", "room")))).containsExactly(ResourceMetric.CPU);
        assertThat(Watcher.usedMetrics(config(triggers("room", "mem")))).containsExactly(ResourceMetric.MEM);
        assertThat(Watcher.usedMetrics(config(triggers("cpu", "mem"))))
                .containsExactlyInAnyOrder(ResourceMetric.CPU, ResourceMetric.MEM);
    }

    @Test
    void aPluginTriggerMayReadAnyMetric() {
        assertThat(Watcher.usedMetrics(config(triggers("buffer", "room"))))
                .containsExactlyInAnyOrder(ResourceMetric.CPU, ResourceMetric.MEM);
    }
}
