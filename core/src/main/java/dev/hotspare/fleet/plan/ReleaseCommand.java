package dev.hotspare.fleet.plan;

import dev.hotspare.fleet.versions.SchedulerVersion;

import java.util.List;
import java.util.Objects;

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
