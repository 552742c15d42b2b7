package dev.hotspare.testkit.fleet;

import dev.hotspare.fleet.SchedulerState;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.testkit.property.Property;

import java.time.Instant;
import java.util.Optional;

import static dev.hotspare.testkit.property.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/** The public fleet generators make situations the autoscaler decides on, within min and max. */
class FleetGeneratorsProperties {

    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

    @Property(tries = 500)
    void theAutoscalerDecidesOnEveryGeneratedSituationWithinMinAndMax() {
        forAll(FleetGenerators.configs(), FleetGenerators.snapshots(NOW), FleetGenerators.windows()).check((config, snapshot, windows) -> {
            int before = snapshot.counts().active();
            int after = before + Autoscaler.standard()
                    .decide(config, snapshot, windows, SchedulerState.IN_SYNC, Optional.empty(), NOW).delta();
            if (before >= config.autoscaling().min()) {
                assertThat(after).isGreaterThanOrEqualTo(config.autoscaling().min());
            }
        });
    }
}
