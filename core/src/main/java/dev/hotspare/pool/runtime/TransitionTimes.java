package dev.hotspare.pool.runtime;

import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.pool.PoolPlanner.TypicalDurations;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * Learns how long installs and resumes take from what successive passes observe: a member seen provisioning and
 * then installed gives an install time; one seen resuming and then running gives a resume time. The typical
 * value is the median of the last {@value #SAMPLES}; the auto-sizer plans with a percentile of the same samples. Not thread-safe:
 * the controller calls it inside a pass.
 */
final class TransitionTimes {

    static final int SAMPLES = 16;

    private final Deque<Duration> installs = new ArrayDeque<>();
    private final Deque<Duration> resumes = new ArrayDeque<>();

    /**
     * Takes the members one pass observed that are new or changed since the pass before, each with the record that
     * pass listed under its id (null if none): the controller's {@link MemberTable} keeps those, so no map of the whole
     * pool is built per pass. An unchanged member completes no transition, so passing only the changed ones counts
     * the same installs and resumes as passing every member with its record of the pass before.
     */
    void observe(List<Member> members, java.util.function.Function<String, Member> before) {
        for (Member m : members) {
            observe(before.apply(m.id()), m);
        }
    }

    private void observe(Member before, Member m) {
        boolean installedNow = m.phase() == MemberPhase.READY && m.installedAt().isPresent()
                && (before == null || before.phase() == MemberPhase.PROVISIONING);
        if (installedNow) {
            add(installs, Duration.between(m.createdAt(), m.installedAt().get()));
        }
        if (before != null && before.observedPower() == ObservedPower.RESUMING
                && m.observedPower() == ObservedPower.RUNNING && m.lastBecameRunningAt().isPresent()) {
            add(resumes, Duration.between(before.observedPowerSince(), m.lastBecameRunningAt().get()));
        }
    }

    /** The typical durations seen so far. */
    TypicalDurations typical() {
        return new TypicalDurations(median(installs), median(resumes));
    }

    /** The install times measured, oldest first (at most {@value #SAMPLES}). */
    List<Duration> installSamples() {
        return List.copyOf(installs);
    }

    /** The resume times measured, oldest first (at most {@value #SAMPLES}). */
    List<Duration> resumeSamples() {
        return List.copyOf(resumes);
    }

    private static void add(Deque<Duration> samples, Duration sample) {
        if (sample.isNegative()) {
            return;
        }
        samples.addLast(sample);
        if (samples.size() > SAMPLES) {
            samples.removeFirst();
        }
    }

    private static Optional<Duration> median(Deque<Duration> samples) {
        if (samples.isEmpty()) {
            return Optional.empty();
        }
        List<Duration> sorted = new ArrayList<>(samples);
        Collections.sort(sorted);
        return Optional.of(sorted.get((sorted.size() - 1) / 2));
    }
}
