package dev.hotspare.fleet.plan;

import dev.hotspare.fleet.MaxSurge;
import dev.hotspare.fleet.versions.SchedulerVersion;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A fleet release as the {@link ReleaseMachine} keeps it, persisted with the scheduler
 * ({@code SchedulerStore.saveRelease}) so that another owner can resume it.
 *
 * @param target          the version being rolled out
 * @param previous        the version whose config comes back if the release fails; empty for the watcher's repair
 *                        of rooms left on an older major (nothing to roll back to: a failure just ends it)
 * @param phase           where the release stands
 * @param maxSurge        rooms replaced at once
 * @param timeout         how long the replace (and then the rollback) may take
 * @param deadline        when the phase running now times out
 * @param chunkSize       rooms per chunk, fixed on the first tick from the rooms then ({@code 0} before it)
 * @param chunk           the old rooms the chunk in flight replaces (removed when it started)
 * @param expectedNew     rooms on the goal's major that exist once the chunk in flight's rooms are created
 * @param failure         why the release failed (ERROR, CANCELED or TIMED_OUT), once it has
 * @param rollbackOutcome how the rollback ended (DEPLOYED, ERROR or TIMED_OUT), once it has
 */
public record ReleaseState(SchedulerVersion target, Optional<SchedulerVersion> previous, ReleasePhase phase,
                           MaxSurge maxSurge, Duration timeout, Instant deadline, int chunkSize, List<String> chunk,
                           int expectedNew, Optional<ReleasePhase> failure, Optional<ReleasePhase> rollbackOutcome) {

    /**
     * Checks the parts.
     *
     * @param target          the version being rolled out
     * @param previous        the version restored on failure, if any
     * @param maxSurge        rooms replaced at once
     * @param timeout         the replace timeout
     * @param deadline        when the running phase times out
     * @param chunkSize       rooms per chunk, 0 before the first tick
     * @param chunk           the old rooms the chunk in flight replaces
     * @param expectedNew     goal-major rooms once the chunk's rooms exist
     * @param failure         why the release failed
     * @param rollbackOutcome how the rollback ended
     */
    public ReleaseState {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(previous, "previous");
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(maxSurge, "maxSurge");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(deadline, "deadline");
        chunk = List.copyOf(Objects.requireNonNull(chunk, "chunk"));
        Objects.requireNonNull(failure, "failure");
        Objects.requireNonNull(rollbackOutcome, "rollbackOutcome");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout: bad value '" + timeout + "': must be positive");
        }
        if (chunkSize < 0) {
            throw new IllegalArgumentException("chunkSize: bad value '" + chunkSize + "': must not be negative");
        }
        if (expectedNew < 0) {
            throw new IllegalArgumentException("expectedNew: bad value '" + expectedNew + "': must not be negative");
        }
        if (failure.isPresent() && !failure.get().failure()) {
            throw new IllegalArgumentException("failure: bad value '" + failure.get() + "': must be ERROR, CANCELED or TIMED_OUT");
        }
    }

    /**
     * A release that starts now.
     *
     * @param target   the version being rolled out
     * @param previous the version restored on failure; empty for a repair that has nothing to roll back to
     * @param maxSurge rooms replaced at once
     * @param timeout  how long the replace may take
     * @param now      the start
     * @return a release REPLACING, before its first tick
     */
    public static ReleaseState start(SchedulerVersion target, Optional<SchedulerVersion> previous, MaxSurge maxSurge,
                                     Duration timeout, Instant now) {
        return new ReleaseState(target, previous, ReleasePhase.REPLACING, maxSurge, timeout, now.plus(timeout), 0,
                List.of(), 0, Optional.empty(), Optional.empty());
    }

    /**
     * The version a rollback saves: the next major after the target (the target is current while it is rolled
     * out, since the release holds CONFIG).
     */
    public SchedulerVersion restored() {
        return target.nextMajor();
    }

    /**
     * The version the rooms are moving to now: the target, or while rolling back (and after) the restored one.
     *
     * @return the goal version
     */
    public SchedulerVersion goal() {
        return failure.isPresent() && previous.isPresent() ? restored() : target;
    }

    /**
     * Whether the release is over.
     *
     * @return whether the phase is terminal
     */
    public boolean terminal() {
        return phase.terminal();
    }
}
