package dev.hotspare.rollout.spi;

import dev.hotspare.rollout.RolloutState;
import dev.hotspare.spi.StoreUnavailableException;

import java.util.List;
import java.util.Optional;

/**
 * Persisted rollout state with optimistic concurrency. Implementations store the text of
 * {@link dev.hotspare.rollout.RolloutStateJson#write} (PostgreSQL: a JSONB column next to a version column)
 * keyed by the rollout's name. Thread-safe.
 *
 * <p>Contract (checked by {@code RolloutStoreContract} in hotspare-testkit):
 * <ul>
 *   <li>{@code save(state, 0)} creates; it fails with {@link StaleRolloutVersionException} if the rollout exists.</li>
 *   <li>{@code save(state, v)} replaces version {@code v} and returns {@code v + 1}; any other stored version
 *       (or no rollout) fails with {@link StaleRolloutVersionException} and changes nothing.</li>
 *   <li>Of two concurrent saves with the same expected version exactly one succeeds.</li>
 *   <li>{@code load} returns exactly what was last saved (equal by {@code equals}).</li>
 * </ul>
 * When the backend cannot answer, methods throw {@link StoreUnavailableException} (and only that), so the
 * {@code RolloutController} can tell "try later" from a lost race.
 */
public interface RolloutStore {

    /** The rollout named {@code name} and its version, if stored. */
    Optional<VersionedRollout> load(String name);

    /**
     * Saves {@code state} under {@code state.name()} if the stored version is {@code expectedVersion}
     * (0 = the rollout must not exist yet).
     *
     * @return the new version
     * @throws StaleRolloutVersionException if the stored version differs
     */
    long save(RolloutState state, long expectedVersion);

    /** Names of all stored rollouts, sorted. */
    List<String> names();

    /** Deletes the rollout; returns whether it existed. */
    boolean delete(String name);
}
