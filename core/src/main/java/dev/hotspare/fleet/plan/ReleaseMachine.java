package dev.hotspare.fleet.plan;

import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.MemberPhase;
import dev.hotspare.pool.ObservedPower;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The fleet release state machine: a rolling replace of every room whose major differs from the goal, in chunks
 * of maxSurge, rolling back on failure. {@link #decide} is pure and total: it never reads a clock, never performs
 * I/O and never mutates its inputs; the runtime saves the returned state (with the expected version) and then runs
 * the commands, so whoever loads the state next — this owner's next poll, or another instance after a crash —
 * continues from it.
 *
 * <p>On a {@link ReleaseEvent.Tick}, in this order: on a {@link ReleaseEvent.Resume}, the chunk in flight is first
 * completed from what is observed (missing new rooms created, old rooms of the chunk still listed removed), as the
 * previous owner would have; the deadline (TIMED_OUT); a room on the goal's major that failed (ERROR); rooms on the goal's major not ready yet mean the chunk is
 * still in flight; no room left on an older major means done; otherwise the next chunk starts: as many new rooms
 * as old rooms it removes, at most the chunk size (maxSurge of the rooms at the first tick, at least one).
 *
 * <p>A release that fails while replacing records its failure, saves the previous config again as the next major
 * and rolls back to it (the rollback is not cancelled; it ends DEPLOYED, ERROR or TIMED_OUT on its own
 * deadline), then ends in the phase of its failure. A terminal state never changes. A release without a
 * previous version (the watcher's repair of rooms left on an older major) has nothing to roll back to and records
 * no status.
 */
public final class ReleaseMachine {

    private ReleaseMachine() {
    }

    /**
     * Applies {@code event} at {@code now} to {@code state}.
     *
     * @param state the current state
     * @param event what happened
     * @param now   the time of the decision
     * @return the new state and the commands to run once it is saved
     */
    public static ReleaseDecision decide(ReleaseState state, ReleaseEvent event, Instant now) {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(now, "now");
        if (state.terminal()) {
            return new ReleaseDecision(state, List.of());
        }
        if (event instanceof ReleaseEvent.Cancel) {
            return state.phase() == ReleasePhase.REPLACING ? fail(state, ReleasePhase.CANCELED, now)
                    : new ReleaseDecision(state, List.of());
        }
        if (event instanceof ReleaseEvent.LeaseLost) {
            return fail(state, ReleasePhase.ERROR, now);
        }
        if (event instanceof ReleaseEvent.Resume resume) {
            if (state.phase() == ReleasePhase.ROLLING_BACK && resume.current().compareTo(state.restored()) < 0) {
                // The previous owner decided to roll back and stopped before the rollback's version was saved.
                return new ReleaseDecision(state, List.of(
                        new ReleaseCommand.SetReleaseStatus(state.target(), state.failure().orElseThrow()),
                        new ReleaseCommand.SaveRollback(state.restored(), state.previous().orElseThrow())));
            }
            return tick(state, resume.rooms(), true, now);
        }
        return tick(state, ((ReleaseEvent.Tick) event).rooms(), false, now);
    }

    /**
     * The statuses a terminal release recorded, for an owner that finds it saved but cannot tell whether its last
     * commands ran (they are idempotent: setting a status again changes nothing).
     *
     * @param state a release
     * @return the status commands its end implies; none while it is in progress or for a repair
     */
    public static List<ReleaseCommand> outcomes(ReleaseState state) {
        Objects.requireNonNull(state, "state");
        if (!state.terminal() || state.previous().isEmpty()) {
            return List.of();
        }
        if (state.phase() == ReleasePhase.DEPLOYED) {
            return List.of(new ReleaseCommand.SetReleaseStatus(state.target(), ReleasePhase.DEPLOYED));
        }
        return List.of(new ReleaseCommand.SetReleaseStatus(state.target(), state.phase()),
                new ReleaseCommand.SetReleaseStatus(state.restored(), state.rollbackOutcome().orElseThrow()));
    }

    private static ReleaseDecision tick(ReleaseState state, List<Member> rooms, boolean resumed, Instant now) {
        List<Member> live = FleetPlanner.liveRooms(rooms);
        SchedulerVersion goal = state.goal();
        int chunkSize = state.chunkSize() > 0 ? state.chunkSize() : state.maxSurge().chunkSize(live.size());
        ReleaseState sized = with(state, chunkSize, state.chunk(), state.expectedNew());
        List<Member> onGoal = live.stream().filter(m -> !FleetPlanner.isOutdated(m, goal)).toList();
        if (resumed) {
            // The previous owner saved this chunk and may have died before (or while) creating and removing its rooms:
            // that is done first, as it would have been, and only then is the chunk judged (next tick).
            List<ReleaseCommand> redo = new ArrayList<>();
            int missing = Math.min(state.chunk().size(), state.expectedNew() - onGoal.size());
            if (missing > 0) {
                redo.add(new ReleaseCommand.CreateRooms(goal, missing));
            }
            Set<String> listed = new HashSet<>();
            live.forEach(m -> listed.add(m.id()));
            List<String> stillListed = state.chunk().stream().filter(listed::contains).toList();
            if (!stillListed.isEmpty()) {
                redo.add(new ReleaseCommand.RemoveRooms(stillListed));
            }
            if (!redo.isEmpty()) {
                return new ReleaseDecision(sized, redo);
            }
        }
        if (!now.isBefore(state.deadline())) {
            return fail(sized, ReleasePhase.TIMED_OUT, now);
        }
        if (onGoal.stream().anyMatch(m -> m.phase() == MemberPhase.FAILED)) {
            return fail(sized, ReleasePhase.ERROR, now);
        }
        if (onGoal.stream().anyMatch(m -> !ready(m))) {
            return new ReleaseDecision(sized, List.of()); // the chunk in flight is still starting
        }
        List<Member> old = live.stream().filter(m -> FleetPlanner.isOutdated(m, goal)).toList();
        if (old.isEmpty()) {
            return succeed(sized);
        }
        List<String> next = old.subList(0, Math.min(chunkSize, old.size())).stream().map(Member::id).toList();
        return new ReleaseDecision(with(sized, chunkSize, next, onGoal.size() + next.size()), List.of(
                new ReleaseCommand.CreateRooms(goal, next.size()), new ReleaseCommand.RemoveRooms(next)));
    }

    private static boolean ready(Member room) {
        return room.phase() == MemberPhase.READY && room.observedPower() == ObservedPower.RUNNING;
    }

    private static ReleaseDecision succeed(ReleaseState s) {
        if (s.phase() == ReleasePhase.ROLLING_BACK) {
            return endRollback(s, ReleasePhase.DEPLOYED);
        }
        ReleaseState done = new ReleaseState(s.target(), s.previous(), ReleasePhase.DEPLOYED, s.maxSurge(), s.timeout(),
                s.deadline(), s.chunkSize(), List.of(), s.expectedNew(), Optional.empty(), Optional.empty());
        return new ReleaseDecision(done, s.previous().isPresent()
                ? List.of(new ReleaseCommand.SetReleaseStatus(s.target(), ReleasePhase.DEPLOYED)) : List.of());
    }

    /** The phase running now failed with {@code why}. */
    private static ReleaseDecision fail(ReleaseState s, ReleasePhase why, Instant now) {
        if (s.phase() == ReleasePhase.ROLLING_BACK) {
            return endRollback(s, why);
        }
        if (s.previous().isEmpty()) {
            ReleaseState over = new ReleaseState(s.target(), s.previous(), why, s.maxSurge(), s.timeout(), s.deadline(),
                    s.chunkSize(), List.of(), s.expectedNew(), Optional.of(why), Optional.empty());
            return new ReleaseDecision(over, List.of());
        }
        // The rollback gets its own deadline and sizes its chunks from the rooms at its first tick.
        ReleaseState back = new ReleaseState(s.target(), s.previous(), ReleasePhase.ROLLING_BACK, s.maxSurge(), s.timeout(),
                now.plus(s.timeout()), 0, List.of(), 0, Optional.of(why), Optional.empty());
        return new ReleaseDecision(back, List.of(new ReleaseCommand.SetReleaseStatus(s.target(), why),
                new ReleaseCommand.SaveRollback(back.restored(), s.previous().get())));
    }

    private static ReleaseDecision endRollback(ReleaseState s, ReleasePhase outcome) {
        ReleasePhase failure = s.failure().orElseThrow();
        ReleaseState over = new ReleaseState(s.target(), s.previous(), failure, s.maxSurge(), s.timeout(), s.deadline(),
                s.chunkSize(), List.of(), s.expectedNew(), s.failure(), Optional.of(outcome));
        return new ReleaseDecision(over, List.of(new ReleaseCommand.SetReleaseStatus(s.restored(), outcome)));
    }

    private static ReleaseState with(ReleaseState s, int chunkSize, List<String> chunk, int expectedNew) {
        return new ReleaseState(s.target(), s.previous(), s.phase(), s.maxSurge(), s.timeout(), s.deadline(), chunkSize,
                chunk, expectedNew, s.failure(), s.rollbackOutcome());
    }
}
