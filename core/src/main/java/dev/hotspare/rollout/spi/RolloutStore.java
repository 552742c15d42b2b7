package dev.hotspare.rollout.spi;

import dev.hotspare.rollout.RolloutState;
import dev.hotspare.rollout.RolloutState.Phase;
import dev.hotspare.rollout.TargetRef;
import dev.hotspare.spi.StoreUnavailableException;
import java.util.stream.Collectors;
import java.util.TreeMap;
import java.util.Map;
import java.util.Objects;

import java.util.List;
import java.util.Optional;

/**
 * Persisted rollout state with optimistic concurrency, and the rule that a target belongs to one rollout in
 * progress at a time. Implementations store the text of {@link dev.hotspare.rollout.RolloutState.RolloutStateJson#write}
 * (PostgreSQL: a JSONB column next to a version column) keyed by the rollout's name, and the targets each
 * rollout in progress holds ({@link RolloutState#coveredTargets()}). Thread-safe.
 *
 * <p>Contract (checked by {@code RolloutStoreContract} in hotspare-testkit):
 * <ul>
 *   <li>{@code save(state, 0)} creates; it fails with {@link StaleRolloutVersionException} if the rollout exists.</li>
 *   <li>{@code save(state, v)} replaces version {@code v} and returns {@code v + 1}; any other stored version
 *       (or no rollout) fails with {@link StaleRolloutVersionException} and changes nothing.</li>
 *   <li>Of two concurrent saves with the same expected version exactly one succeeds.</li>
 *   <li>A save (create or update) whose covered targets include one another rollout in progress covers fails
 *       with {@link RolloutConflictException} naming that rollout and the targets, and changes nothing; of
 *       concurrent creators of overlapping rollouts exactly one succeeds. A rollout that reaches a terminal
 *       phase, or leaves a target alone, frees it.</li>
 *   <li>{@code delete} of a rollout in progress fails with {@link RolloutInProgressException}.</li>
 *   <li>{@code load} returns exactly what was last saved (equal by {@code equals}).</li>
 * </ul>
 * When the backend cannot answer, methods throw {@link StoreUnavailableException} (and only that), so the
 * {@code RolloutController} can tell "try later" from a lost race or a refusal.
 */
public interface RolloutStore {

    /**
     * The rollout named {@code name} and its version, if stored.
     *
     * @param name the rollout's name
     * @return the stored state and version
     */
    Optional<VersionedRollout> load(String name);

    /**
     * Saves {@code state} under {@code state.name()} if the stored version is {@code expectedVersion}
     * (0 = the rollout must not exist yet) and no other rollout in progress covers any of its covered targets.
     *
     * @param state           the state to store
     * @param expectedVersion the version the caller read, 0 to create
     * @return the new version
     * @throws StaleRolloutVersionException if the stored version differs
     * @throws RolloutConflictException     if another rollout in progress holds a target {@code state} covers
     */
    long save(RolloutState state, long expectedVersion);

    /**
     * Names of all stored rollouts.
     *
     * @return the names, sorted
     */
    List<String> names();

    /**
     * Deletes a rollout that is over (terminal).
     *
     * @param name the rollout's name
     * @return whether it existed
     * @throws RolloutInProgressException if it is in progress; abort it first
     */
    boolean delete(String name);

    /**
     * A rollout state as stored, with the version to pass to the next {@link RolloutStore#save}.
     *
     * @param version the store's version of it, from 1, increased by every save
     */
    public record VersionedRollout(RolloutState state, long version) {
        /**
         * Validates and normalises the components.
         *
         * @param version the store's version of it, from 1, increased by every save
         */
        public VersionedRollout {
            Objects.requireNonNull(state, "state");
            if (version < 1) {
                throw new IllegalArgumentException("version: " + version + " must be at least 1");
            }
        }
    }

    /**
     * A {@link RolloutStore#save} would give targets to a rollout while another rollout in progress holds them: a
     * target belongs to one rollout at a time (see {@link dev.hotspare.rollout.RolloutState#coveredTargets()}).
     * Nothing was saved. Unlike {@link StaleRolloutVersionException}, deciding again does not help: finish or abort
     * the other rollout, or leave the targets out.
     */
    public static final class RolloutConflictException extends RuntimeException {

        /** Targets named in the message per rollout; the exception keeps them all. */
        private static final int SHOWN = 10;

        /** The rollout whose save was refused. */
        private final String rollout;
        /** Rollout in progress to the targets it holds. */
        private final Map<String, List<TargetRef>> heldBy;

        /**
         * A refused save.
         *
         * @param rollout the rollout whose save was refused
         * @param heldBy  each rollout in progress that holds some of its targets, with those targets
         */
        public RolloutConflictException(String rollout, Map<String, List<TargetRef>> heldBy) {
            super(message(Objects.requireNonNull(rollout, "rollout"), heldBy));
            this.rollout = rollout;
            TreeMap<String, List<TargetRef>> copy = new TreeMap<>();
            heldBy.forEach((other, targets) -> copy.put(other, targets.stream().sorted().toList()));
            this.heldBy = java.util.Collections.unmodifiableMap(copy);
        }

        private static String message(String rollout, Map<String, List<TargetRef>> heldBy) {
            String held = new TreeMap<>(heldBy).entrySet().stream().map(e -> {
                List<TargetRef> targets = e.getValue().stream().sorted().toList();
                String names = targets.subList(0, Math.min(SHOWN, targets.size())).stream().map(TargetRef::toString)
                        .collect(Collectors.joining(", "));
                String more = targets.size() > SHOWN ? " and " + (targets.size() - SHOWN) + " more" : "";
                return "rollout '" + e.getKey() + "' (" + names + more + ")";
            }).collect(Collectors.joining("; "));
            return "rollout '" + rollout + "' covers targets of a rollout in progress: " + held
                    + "; a target belongs to one rollout at a time (finish or abort the other rollout first)";
        }

        /**
         * The rollout whose save was refused.
         *
         * @return its name
         */
        public String rollout() {
            return rollout;
        }

        /**
         * The rollouts in progress that hold the targets, each with the targets it holds.
         *
         * @return rollout name to targets, sorted
         */
        public Map<String, List<TargetRef>> heldBy() {
            return heldBy;
        }
    }

    /**
     * {@link RolloutStore#delete} refused: the rollout is in progress (not in a terminal phase), so deleting it would
     * abandon its in-flight ops and free its targets behind its back. Send {@code Abort} first.
     */
    public static final class RolloutInProgressException extends RuntimeException {

        /** The rollout. */
        private final String rollout;
        /** Its phase when the delete was refused. */
        private final Phase phase;

        /**
         * A refused delete.
         *
         * @param rollout the rollout's name
         * @param phase   its phase
         */
        public RolloutInProgressException(String rollout, Phase phase) {
            super("rollout '" + rollout + "' is in progress (" + phase + "); abort it before deleting it");
            this.rollout = Objects.requireNonNull(rollout, "rollout");
            this.phase = Objects.requireNonNull(phase, "phase");
        }

        /**
         * The rollout.
         *
         * @return its name
         */
        public String rollout() {
            return rollout;
        }

        /**
         * Its phase when the delete was refused.
         *
         * @return a non-terminal phase
         */
        public Phase phase() {
            return phase;
        }
    }

    /**
     * A {@link RolloutStore#save} carried a version other than the stored one: someone else saved in between
     * (or the rollout already exists, or no longer does). Reload and decide again.
     */
    public static final class StaleRolloutVersionException extends RuntimeException {

        /** The rollout's name. */
        private final String rollout;
        /** The version the caller passed. */
        private final long expectedVersion;
        /** The stored version, 0 when the rollout does not exist. */
        private final long actualVersion;

        /**
         * A save that lost the race (or created an existing rollout, or updated a missing one).
         *
         * @param rollout         the rollout's name
         * @param expectedVersion the version the caller passed
         * @param actualVersion   the stored version (0 when the rollout does not exist)
         */
        public StaleRolloutVersionException(String rollout, long expectedVersion, long actualVersion) {
            super("rollout '" + rollout + "': save expected version " + expectedVersion + " but the store has "
                    + (actualVersion == 0 ? "no such rollout" : "version " + actualVersion));
            this.rollout = rollout;
            this.expectedVersion = expectedVersion;
            this.actualVersion = actualVersion;
        }

        /**
         * The rollout.
         *
         * @return its name
         */
        public String rollout() {
            return rollout;
        }

        /**
         * The version the caller passed.
         *
         * @return the expected version
         */
        public long expectedVersion() {
            return expectedVersion;
        }

        /**
         * The stored version, 0 if the rollout does not exist.
         *
         * @return the actual version
         */
        public long actualVersion() {
            return actualVersion;
        }
    }
}
