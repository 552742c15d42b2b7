package dev.hotspare.micrometer;

import dev.hotspare.pool.Claim.ClaimService;
import dev.hotspare.testkit.property.Gen;
import dev.hotspare.testkit.property.Property;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.hotspare.testkit.property.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/** Whatever claims are reported, the served counters and the wait timers agree with them per service. */
class MicrometerKpisProperties {


    @Property(tries = 200)
    void servedCountersAndWaitTimersAgreeWithTheReportedClaims() {
        forAll(Gen.enums(ClaimService.class).list(0, 50), Gen.integers(0, 7200).list(0, 50)).check((services, waits) -> {
            SimpleMeterRegistry registry = new SimpleMeterRegistry(SimpleConfig.DEFAULT, new MockClock());
            MicrometerKpis kpis = new MicrometerKpis(registry);
            int n = Math.min(services.size(), waits.size());
            for (int i = 0; i < n; i++) {
                kpis.claimServed("ci", services.get(i), Duration.ofSeconds(waits.get(i)));
            }

            for (ClaimService service : ClaimService.values()) {
                long expectedCount = 0;
                long expectedSeconds = 0;
                for (int i = 0; i < n; i++) {
                    if (services.get(i) == service) {
                        expectedCount++;
                        expectedSeconds += waits.get(i);
                    }
                }
                Timer timer = registry.find(MicrometerKpis.CLAIM_WAIT).tags("pool", "ci", "service", service.tag()).timer();
                double counted = registry.find(MicrometerKpis.CLAIMS_SERVED).tags("pool", "ci", "service", service.tag())
                        .counters().stream().mapToDouble(c -> c.count()).sum();
                assertThat(counted).isEqualTo(expectedCount);
                assertThat(timer == null ? 0 : timer.count()).isEqualTo(expectedCount);
                assertThat(timer == null ? 0.0 : timer.totalTime(TimeUnit.SECONDS)).isEqualTo((double) expectedSeconds);
            }
        });
    }
}
