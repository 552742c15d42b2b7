package dev.hotspare.pool.sizing;


import dev.hotspare.pool.sizing.HotSpareSizer.SizingDecision;
import dev.hotspare.pool.sizing.HotSpareSizer.SizingInput;
import dev.hotspare.pool.sizing.SizerSettings.WaitTarget;
import dev.hotspare.testkit.property.Gen;
import dev.hotspare.testkit.property.Property;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static dev.hotspare.testkit.property.PropertyCheck.forAll;
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
    void neverOutsideMinAndMax() {
        record Args(int claimsPerHour, int resumeSeconds, int min, int extra, int step, int current) {
        }
        forAll(s -> new Args(
                Gen.integers(0, 500).generate(s),
                Gen.integers(1, 1800).generate(s),
                Gen.integers(0, 10).generate(s),
                Gen.integers(0, 40).generate(s),
                Gen.integers(1, 5).generate(s),
                Gen.integers(0, 60).generate(s))).check(args -> {
            int claimsPerHour = args.claimsPerHour();
            int resumeSeconds = args.resumeSeconds();
            int min = args.min();
            int extra = args.extra();
            int step = args.step();
            int current = args.current();
            SizingDecision d = HotSpareSizer.decide(settings(min, min + extra, step, 0), input(claimsPerHour, resumeSeconds, current,
                    Optional.empty(), NOW));
            assertThat(d.runningCount()).isBetween(min, min + extra);
            assertThat(d.recommendedSize()).isGreaterThanOrEqualTo(d.runningCount());
        });
    }

    @Property(tries = 300)
    void monotonicInTheArrivalRate() {
        record Args(int slower, int more, int resumeSeconds, int waitSeconds) {
        }
        forAll(s -> new Args(
                Gen.integers(0, 400).generate(s),
                Gen.integers(0, 400).generate(s),
                Gen.integers(1, 1800).generate(s),
                Gen.integers(0, 300).generate(s))).check(args -> {
            int slower = args.slower();
            int more = args.more();
            int resumeSeconds = args.resumeSeconds();
            int waitSeconds = args.waitSeconds();
            SizerSettings s = settings(0, 1000, 1000, waitSeconds);
            int atSlower = HotSpareSizer.decide(s, input(slower, resumeSeconds, 0, Optional.empty(), NOW)).runningCount();
            int atFaster = HotSpareSizer.decide(s, input(slower + more, resumeSeconds, 0, Optional.empty(), NOW)).runningCount();
            assertThat(atFaster).isGreaterThanOrEqualTo(atSlower);
        });
    }

    @Property(tries = 200)
    void aConstantSignalSettlesAndStaysAfterTheCooldown() {
        record Args(int claimsPerHour, int resumeSeconds, int start, int step) {
        }
        forAll(s -> new Args(
                Gen.integers(0, 300).generate(s),
                Gen.integers(1, 1800).generate(s),
                Gen.integers(0, 20).generate(s),
                Gen.integers(1, 3).generate(s))).check(args -> {
            int claimsPerHour = args.claimsPerHour();
            int resumeSeconds = args.resumeSeconds();
            int start = args.start();
            int step = args.step();
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
        });
    }

    @Property(tries = 200)
    void deterministic() {
        forAll(Gen.integers(0, 400), Gen.integers(1, 1800), Gen.integers(0, 20)).check((claimsPerHour, resumeSeconds, current) -> {
            SizerSettings s = settings(0, 20, 2, 0);
            SizingInput in = input(claimsPerHour, resumeSeconds, current, Optional.of(NOW.minusSeconds(30)), NOW);
            assertThat(HotSpareSizer.decide(s, in)).isEqualTo(HotSpareSizer.decide(s, in));
        });
    }
}
