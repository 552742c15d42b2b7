package dev.hotspare.pool.sizing;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The invariants the sizer promises, over arrival rates, lead times, targets and bounds. */
class HotSpareSizerProperties {

    static final Instant NOW = Instant.parse("2026-01-05T09:00:00Z");

    static SizerSettings settings(int min, int max, int step, int waitSeconds) {
        return SizerSettings.of(new WaitTarget(java.math.BigDecimal.valueOf(95), Duration.ofSeconds(waitSeconds)), min, max)
                .withPace(step, Duration.ofMinutes(10));
    }

    static SizingInput input(int claimsPerHour, int resumeSeconds, int current, Optional<Instant> lastChange, Instant now) {
        List<Instant> arrivals = claimsPerHour == 0 ? List.of()
                : HotSpareSizerTest.steady(Duration.ofSeconds(3600).dividedBy(claimsPerHour), now);
        return new SizingInput(arrivals, List.of(Duration.ofSeconds(resumeSeconds)), List.of(Duration.ofMinutes(40)),
                current, lastChange, now);
    }

    @Property(tries = 300)
    void neverOutsideMinAndMax(@ForAll @IntRange(min = 0, max = 500) int claimsPerHour,
                               @ForAll @IntRange(min = 1, max = 1800) int resumeSeconds,
                               @ForAll @IntRange(min = 0, max = 10) int min, @ForAll @IntRange(min = 0, max = 40) int extra,
                               @ForAll @IntRange(min = 1, max = 5) int step, @ForAll @IntRange(min = 0, max = 60) int current) {
        SizingDecision d = HotSpareSizer.decide(settings(min, min + extra, step, 0), input(claimsPerHour, resumeSeconds, current,
                Optional.empty(), NOW));
        assertThat(d.runningCount()).isBetween(min, min + extra);
        assertThat(d.recommendedSize()).isGreaterThanOrEqualTo(d.runningCount());
    }

    @Property(tries = 300)
    void monotonicInTheArrivalRate(@ForAll @IntRange(min = 0, max = 400) int slower, @ForAll @IntRange(min = 0, max = 400) int more,
                                   @ForAll @IntRange(min = 1, max = 1800) int resumeSeconds,
                                   @ForAll @IntRange(min = 0, max = 300) int waitSeconds) {
        SizerSettings s = settings(0, 1000, 1000, waitSeconds);
        int atSlower = HotSpareSizer.decide(s, input(slower, resumeSeconds, 0, Optional.empty(), NOW)).runningCount();
        int atFaster = HotSpareSizer.decide(s, input(slower + more, resumeSeconds, 0, Optional.empty(), NOW)).runningCount();
        assertThat(atFaster).isGreaterThanOrEqualTo(atSlower);
    }

    @Property(tries = 200)
    void aConstantSignalSettlesAndStaysAfterTheCooldown(@ForAll @IntRange(min = 0, max = 300) int claimsPerHour,
                                                       @ForAll @IntRange(min = 1, max = 1800) int resumeSeconds,
                                                       @ForAll @IntRange(min = 0, max = 20) int start,
                                                       @ForAll @IntRange(min = 1, max = 3) int step) {
        SizerSettings s = settings(0, 20, step, 0);
        int current = start;
        Optional<Instant> lastChange = Optional.empty();
        Instant now = NOW;
        int changesAfterSettling = 0;
        // 20 / step decisions reach any target; the cooldown (10 min) spans two decisions 5 min apart.
        int settleBy = 2 * (20 / step + 1) + 2;
        for (int tick = 0; tick < settleBy + 24; tick++) {
            SizingDecision d = HotSpareSizer.decide(s, input(claimsPerHour, resumeSeconds, current, lastChange, now));
            if (d.changed()) {
                if (tick >= settleBy) {
                    changesAfterSettling++;
                }
                lastChange = Optional.of(now);
                current = d.runningCount();
            }
            now = now.plus(Duration.ofMinutes(5));
        }
        assertThat(changesAfterSettling).isZero();
    }

    @Property(tries = 200)
    void deterministic(@ForAll @IntRange(min = 0, max = 400) int claimsPerHour, @ForAll @IntRange(min = 1, max = 1800) int resumeSeconds,
                       @ForAll @IntRange(min = 0, max = 20) int current) {
        SizerSettings s = settings(0, 20, 2, 0);
        SizingInput in = input(claimsPerHour, resumeSeconds, current, Optional.of(NOW.minusSeconds(30)), NOW);
        assertThat(HotSpareSizer.decide(s, in)).isEqualTo(HotSpareSizer.decide(s, in));
    }
}
