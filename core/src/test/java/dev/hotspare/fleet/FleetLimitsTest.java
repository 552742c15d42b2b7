package dev.hotspare.fleet;

import dev.hotspare.fleet.PolicyTypes.TriggerTypes;
import dev.hotspare.fleet.SchedulerConfig.FleetLimits;
import dev.hotspare.json.Documents;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every count, duration and quantity a config may hold is bounded, and the refusal names field, value and limit. */
class FleetLimitsTest {

    private static List<String> problems(String yaml, FleetLimits limits) {
        return SchedulerConfigs.check("name: pong\ngame: pong\nimage: pong:1\n" + yaml, Documents.Format.YAML, TriggerTypes.BUILT_IN, limits)
                .problems().stream().map(Problem::describe).toList();
    }

    @Test
    void countsAboveTheLimitsAreInvalidNamingTheLimit() {
        assertThat(problems("autoscaling: {min: 2147483647}", FleetLimits.DEFAULT)).containsExactly(
                "autoscaling.min: bad value '2147483647': must be at most 10000 (the limit of rooms per scheduler)");
        assertThat(problems("autoscaling: {min: 1, max: 10001}", FleetLimits.DEFAULT)).containsExactly(
                "autoscaling.max: bad value '10001': must be at most 10000 (the limit of rooms per scheduler)");
        assertThat(problems("autoscaling: {min: 20}", FleetLimits.DEFAULT.withMaxRooms(10))).containsExactly(
                "autoscaling.min: bad value '20': must be at most 10 (the limit of rooms per scheduler)");
        assertThat(problems("""
                autoscaling:
                  up:
                    metricsTrigger: [{type: legacy, usage: 50, threshold: 50, time: 60, delta: 5000}]
                """, FleetLimits.DEFAULT)).containsExactly(
                "autoscaling.up.metricsTrigger[0].delta: bad value '5000': must be at most 1000 (the limit of rooms per scale step)");
    }

    @Test
    void durationsAboveTheLimitsAreInvalid() {
        assertThat(problems("occupiedTimeout: 9223372036854775807", FleetLimits.DEFAULT)).containsExactly(
                "occupiedTimeout: bad value '9223372036854775807': must be at most 604800 seconds (the limit of durations)");
        assertThat(problems("shutdownTimeout: 604801", FleetLimits.DEFAULT)).containsExactly(
                "shutdownTimeout: bad value '604801': must be at most 604800 seconds (the limit of durations)");
        assertThat(problems("""
                autoscaling:
                  up:
                    metricsTrigger: [{type: room, usage: 50, threshold: 50, time: 9223372036854775807}]
                    cooldown: 9999999999
                """, FleetLimits.DEFAULT)).containsExactly(
                "autoscaling.up.cooldown: bad value '9999999999': must be at most 604800 seconds (the limit of durations)",
                "autoscaling.up.metricsTrigger[0].time: bad value '9223372036854775807': must be at most 86400 seconds (the limit of a trigger's window)");
    }

    @Test
    void quantitiesOutsideTheirRangeAreInvalid() {
        assertThat(problems("requests: {cpu: 1n, memory: 4Pi}", FleetLimits.DEFAULT)).containsExactly(
                "requests.cpu: bad value '1n': must be 0 or between 0.001 and 10000 cores (1m to 10000)",
                "requests.memory: bad value '4Pi': must be 0 or between 1 and 1125899906842624 bytes (1 to 1Pi)");
        assertThat(problems("requests: {cpu: 1e12}", FleetLimits.DEFAULT)).containsExactly(
                "requests.cpu: bad value '1.0E12': must be 0 or between 0.001 and 10000 cores (1m to 10000)");
        assertThat(problems("requests: {cpu: 250m, memory: 512Mi}", FleetLimits.DEFAULT)).isEmpty();
    }

    @Test
    void theLimitsThemselvesAreChecked() {
        assertThatThrownBy(() -> new FleetLimits(0, 0, 0, Long.MAX_VALUE)).isInstanceOfSatisfying(ValidationException.class,
                e -> assertThat(e.problems()).extracting(Problem::path)
                        .containsExactly("maxRooms", "maxScaleStep", "maxDurationSeconds", "maxTriggerTimeSeconds"));
        assertThat(FleetLimits.DEFAULT.withMaxRooms(5).maxScaleStep()).isEqualTo(5);
    }
}
