package dev.hotspare.pool.sizing;

import dev.hotspare.pool.sizing.HotSpareSizer.SizingDecision;
import dev.hotspare.pool.sizing.HotSpareSizer.SizingInput;
import dev.hotspare.pool.sizing.SizerSettings.WaitTarget;
import dev.hotspare.pool.sizing.SizingHistory.ClaimWait;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Invariants of the learning sizer over seeded random cases (the seed is in every message): the count stays in
 * [min, max], the same input gives the same decision, and a constant signal settles and stays.
 */
class SizerInvariantsTest {

    static final Instant START = Instant.parse("2026-01-05T00:00:00Z");

    /** Random arrivals over {@code days} (a random mix of flat, office-hours and bursty) and random waits. */
    static SizingInput randomInput(Random random, int current) {
        int hours = 1 + random.nextInt(24 * 9);
        Instant now = START.plus(Duration.ofHours(hours)).plusSeconds(random.nextInt(3600));
        List<Instant> all = new ArrayList<>();
        double perHour = 0.2 + random.nextDouble() * 30;
        for (Instant t = START; t.isBefore(now); ) {
            t = t.plusMillis(1 + (long) (-Math.log(1 - random.nextDouble()) * 3_600_000 / perHour));
            if (t.isBefore(now) && (random.nextInt(3) != 0 || t.atZone(java.time.ZoneOffset.UTC).getHour() >= 9)) {
                all.add(t);
                if (random.nextInt(200) == 0) {
                    for (int b = 0; b < 5 + random.nextInt(20); b++) {
                        all.add(t.plusSeconds(random.nextInt(300)));
                    }
                }
            }
        }
        all.removeIf(t -> !t.isBefore(now));
        List<ClaimWait> waits = all.stream()
                .map(t -> new ClaimWait(t, random.nextInt(10) == 0 ? Duration.ofSeconds(random.nextInt(600)) : Duration.ZERO)).toList();
        List<Instant> recent = all.stream().filter(t -> t.isAfter(now.minus(Duration.ofHours(2)))).toList();
        Optional<Instant> lastChange = random.nextBoolean() ? Optional.of(now.minusSeconds(random.nextInt(3600))) : Optional.empty();
        return new SizingInput(recent, List.of(Duration.ofSeconds(30 + random.nextInt(900))), List.of(Duration.ofMinutes(40)),
                current, lastChange, now, new SizingHistory(Optional.of(START), all, waits));
    }

    static SizerSettings randomSettings(Random random) {
        int min = random.nextInt(4);
        int max = min + random.nextInt(20);
        String target = "p" + List.of("50", "95", "99").get(random.nextInt(3)) + "<=PT" + random.nextInt(180) + "S";
        return SizerSettings.of(WaitTarget.parse("t", target), min, max).withPace(1 + random.nextInt(4), Duration.ofMinutes(random.nextInt(30)));
    }

    @Test
    void theCountStaysWithinTheBoundsAndTheSameInputGivesTheSameDecision() {
        for (long seed = 1; seed <= 60; seed++) {
            Random random = new Random(seed);
            SizerSettings settings = randomSettings(random);
            SizingInput in = randomInput(random, settings.min() + random.nextInt(settings.max() - settings.min() + 1));
            SizingDecision d = HotSpareSizer.decide(settings, in);
            assertThat(d.runningCount()).as("seed %d: %s", seed, d.explanation()).isBetween(settings.min(), settings.max());
            assertThat(HotSpareSizer.decide(settings, in)).as("seed %d", seed).isEqualTo(d);
            assertThat(Math.abs(d.runningCount() - in.currentRunningCount())).as("seed %d: maxStep", seed)
                    .isLessThanOrEqualTo(settings.maxStep());
        }
    }

    @Test
    void aConstantSignalSettlesAndStays() {
        for (long seed = 1; seed <= 6; seed++) {
            Random random = new Random(seed);
            Duration every = Duration.ofSeconds(60 + random.nextInt(1800));
            SizerSettings settings = SizerSettings.of(WaitTarget.parse("t", "p95<=PT1M"), 0, 16)
                    .withDefaultLeadTimes(Duration.ofMinutes(5), Duration.ofMinutes(40));
            List<Instant> all = new ArrayList<>();
            List<ClaimWait> waits = new ArrayList<>();
            Instant next = START;
            int count = 0;
            Optional<Instant> lastChange = Optional.empty();
            List<Integer> afterSettling = new ArrayList<>();
            // Two days and a half, a decision a minute: history, profile and budget all come into play.
            for (Instant now = START; now.isBefore(START.plus(Duration.ofHours(60))); now = now.plus(Duration.ofMinutes(1))) {
                while (!next.isAfter(now)) {
                    all.add(next);
                    waits.add(new ClaimWait(next, Duration.ZERO));
                    next = next.plus(every);
                }
                Instant t = now;
                List<Instant> recent = all.stream().filter(a -> a.isAfter(t.minus(Duration.ofHours(2)))).toList();
                SizingDecision d = HotSpareSizer.decide(settings, new SizingInput(recent, List.of(), List.of(), count, lastChange, now,
                        new SizingHistory(Optional.of(START), all, waits)));
                if (d.changed()) {
                    lastChange = Optional.of(now);
                }
                count = d.runningCount();
                if (now.isAfter(START.plus(Duration.ofHours(30)))) {
                    afterSettling.add(count);
                }
            }
            assertThat(afterSettling.stream().distinct().toList()).as("seed %d, a claim every %s", seed, every).hasSize(1);
        }
    }
}
