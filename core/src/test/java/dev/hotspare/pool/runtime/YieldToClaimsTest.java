package dev.hotspare.pool.runtime;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class YieldToClaimsTest {

    @Test
    void aPassYieldsOnlyWhileClaimsComeFromAnotherThread() throws Exception {
        AtomicInteger yields = new AtomicInteger();
        YieldToClaims points = new YieldToClaims(yields::incrementAndGet);

        // No claim yet, then claims on the pass's own thread (a simulation on virtual time): nobody to let run.
        points.point();
        points.claimSubmitted();
        points.point();
        assertThat(yields).hasValue(0);

        Thread claimer = new Thread(points::claimSubmitted);
        claimer.start();
        claimer.join();
        points.point();
        points.point();
        assertThat(yields).hasValue(2);

        points.claimSubmitted();
        points.point();
        assertThat(yields).hasValue(2);
    }
}
