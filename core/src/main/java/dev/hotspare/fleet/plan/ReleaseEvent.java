package dev.hotspare.fleet.plan;

import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.pool.Member;

import java.util.List;
import java.util.Objects;

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
