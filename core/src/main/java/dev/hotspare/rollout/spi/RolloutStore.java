package dev.hotspare.rollout.spi;

import dev.hotspare.rollout.RolloutState;
import dev.hotspare.spi.StoreUnavailableException;

import java.util.List;
import java.util.Optional;

/**
 * Persisted rollout state with optimistic concurrency, and the rule that a target belongs to one rollout in
 * progress at a time. Implementations store the text of {@link dev.hotspare.rollout.RolloutStateJson#write}
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
}
