package dev.hotspare.fleet.plan;

import dev.hotspare.fleet.plan.ReleaseState.ReleasePhase;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.ObservedPower;

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

    /** What the runtime does, in order, once the {@link ReleaseMachine}'s new state is saved. */
    public sealed interface ReleaseCommand {

        /**
         * Create rooms on a version (registered {@code creating}).
         *
         * @param version the version the rooms run
         * @param count   how many, at least 1 and never more than one chunk
         */
        record CreateRooms(SchedulerVersion version, int count) implements ReleaseCommand {
            /**
             * Checks the count.
             *
             * @param version the version the rooms run
             * @param count   how many
             */
            public CreateRooms {
                Objects.requireNonNull(version, "version");
                if (count < 1) {
                    throw new IllegalArgumentException("count: bad value '" + count + "': must be at least 1");
                }
            }
        }

        /**
         * Delete rooms (their statuses dropped).
         *
         * @param rooms the rooms, never more than one chunk
         */
        record RemoveRooms(List<String> rooms) implements ReleaseCommand {
            /**
             * Copies the rooms.
             *
             * @param rooms the old rooms to remove, by name
             */
            public RemoveRooms {
                rooms = List.copyOf(Objects.requireNonNull(rooms, "rooms"));
            }
        }

        /**
         * Save the config of {@code rolledBackTo} again as {@code version}, a new major that says what it restored.
         *
         * @param version      the new version
         * @param rolledBackTo the version whose config comes back
         */
        record SaveRollback(SchedulerVersion version, SchedulerVersion rolledBackTo) implements ReleaseCommand {
            /**
             * Checks the parts.
             *
             * @param version      the new version
             * @param rolledBackTo the version whose config comes back
             */
            public SaveRollback {
                Objects.requireNonNull(version, "version");
                Objects.requireNonNull(rolledBackTo, "rolledBackTo");
            }
        }

        /**
         * Record the outcome of the operation that introduced {@code version}.
         *
         * @param version the release
         * @param outcome a terminal phase
         */
        record SetReleaseStatus(SchedulerVersion version, ReleasePhase outcome) implements ReleaseCommand {
            /**
             * Checks the outcome is terminal.
             *
             * @param version the release
             * @param outcome a terminal phase
             */
            public SetReleaseStatus {
                Objects.requireNonNull(version, "version");
                if (!Objects.requireNonNull(outcome, "outcome").terminal()) {
                    throw new IllegalArgumentException("outcome: bad value '" + outcome + "': must be terminal");
                }
            }
        }
    }

    /**
     * What {@link ReleaseMachine#decide} returns: the state to save (with the expected version), then the commands to
     * run, in order.
     *
     * @param state    the new state
     * @param commands what to do once it is saved
     */
    public record ReleaseDecision(ReleaseState state, List<ReleaseCommand> commands) {
        /**
         * Copies the commands.
         *
         * @param state    the new state
         * @param commands what to do once it is saved
         */
        public ReleaseDecision {
            Objects.requireNonNull(state, "state");
            commands = List.copyOf(Objects.requireNonNull(commands, "commands"));
        }

        /**
         * Whether the state changed (a save is needed).
         *
         * @param before the state decided on
         * @return true if {@link #state()} differs from {@code before}
         */
        public boolean changed(ReleaseState before) {
            return !state.equals(before);
        }
    }

    /** What a {@link ReleaseMachine} decides on. */
    public sealed interface ReleaseEvent {

        /**
         * A poll: the scheduler's rooms as the driver lists them now.
         *
         * @param rooms every room the driver lists (deleting ones are ignored)
         */
        record Tick(List<Member> rooms) implements ReleaseEvent {
            /**
             * Copies the rooms.
             *
             * @param rooms every room the driver lists
             */
            public Tick {
                rooms = List.copyOf(Objects.requireNonNull(rooms, "rooms"));
            }
        }

        /**
         * The first poll of an owner that took over a persisted release (after a crash, a shutdown or a lost lease):
         * what the previous owner's last decision asked for may not have happened, so it is done again from what is
         * observed — the chunk in flight completed, a rollback's version saved.
         *
         * @param rooms   every room the driver lists (deleting ones are ignored)
         * @param current the scheduler's current version
         */
        record Resume(List<Member> rooms, SchedulerVersion current) implements ReleaseEvent {
            /**
             * Copies the rooms.
             *
             * @param rooms   every room the driver lists
             * @param current the scheduler's current version
             */
            public Resume {
                rooms = List.copyOf(Objects.requireNonNull(rooms, "rooms"));
                Objects.requireNonNull(current, "current");
            }
        }

        /** Cancel on request: a release still replacing rolls back; a rollback is not cancelled. */
        record Cancel() implements ReleaseEvent {
        }

        /** The lease guarding the release (CONFIG or DOWNSCALE) was lost or could not be taken: the release fails. */
        record LeaseLost() implements ReleaseEvent {
        }
    }
}
