package dev.hotspare.fleet.spi;

import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.lock.Fence;
import dev.hotspare.fleet.lock.Fence.StaleFenceException;
import dev.hotspare.fleet.plan.ReleaseState;
import dev.hotspare.fleet.plan.ScaleInputs;
import dev.hotspare.fleet.spi.Release.OperationStatus;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.spi.StoreUnavailableException;
import java.util.NoSuchElementException;
import java.util.Objects;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where schedulers' desired state lives (Maestro keeps it in PostgreSQL): the current version and
 * configuration, every release, the outcome of the operation that introduced each version, the scheduler
 * state and the last successful scale.
 *
 * <h2>Contract (checked by {@code dev.hotspare.testkit.fleet.SchedulerStoreContract})</h2>
 * <ul>
 *   <li>Names are DNS-1123 labels, validated before I/O.</li>
 *   <li>Releases are kept with the configuration exactly as submitted; a saved version must be newer than the
 *       current one.</li>
 *   <li><b>Fenced writes.</b> Every write after creation carries a {@link Fence}. Per lock key, the store
 *       remembers the newest token it accepted and rejects a write with an older token with
 *       {@link StaleFenceException}, applying nothing. Tokens of different lock keys are not compared.</li>
 *   <li>Writes to a scheduler that does not exist throw {@link SchedulerNotFoundException}.</li>
 *   <li><b>The release in flight</b> ({@link #saveRelease}, {@link #loadRelease}): at most one
 *       {@link ReleaseState} per scheduler, saved with an expected version (0: none stored yet) and given back
 *       equal; a save whose expected version is not the stored one throws {@link StaleReleaseException} and
 *       changes nothing. It is deleted with the scheduler.</li>
 *   <li><b>Scale inputs</b> ({@link #saveScaleInputs}, {@link #loadScaleInputs}): at most one {@link ScaleInputs}
 *       per scheduler (manual scale requests and the panic input the watcher reads), saved with an expected version
 *       (0: none stored yet) and given back equal; a save whose expected version is not the stored one returns
 *       false and changes nothing. Not fenced: they are written by API calls and room reports, which hold no lock,
 *       and the expected version alone keeps every writer's change. Deleted with the scheduler.</li>
 *   <li>When the backend cannot answer, methods throw {@link StoreUnavailableException}.</li>
 * </ul>
 * The store does not interpret the configuration; it is stored as a {@link ConfigDocument}. Thread-safe.
 */
public interface SchedulerStore {

    /**
     * Creates scheduler {@code name} at {@link SchedulerVersion#FIRST} with status
     * {@link OperationStatus#DEPLOYED} and state {@code initialState}.
     *
     * @param name the scheduler
     * @param config the restored configuration
     * @param now the current instant
     * @return false (changing nothing) if a scheduler of that name exists
     */
    boolean create(String name, ConfigDocument config, String initialState, Instant now);

    /**
     * The scheduler, if it exists.
     *
     * @param name the scheduler
     */
    Optional<SchedulerRecord> get(String name);

    /**
     * Every scheduler, ordered by name.
     */
    List<SchedulerRecord> list();

    /**
     * Saves {@code config} as {@code version}, makes it current and appends it to the releases with status
     * {@link OperationStatus#IN_PROGRESS}.
     *
     * @throws IllegalArgumentException if {@code version} is not newer than the current version
     * @param name the scheduler
     * @param version the new version, newer than the current one
     * @param config the restored configuration
     * @param createdAt when it is saved
     * @param fence the writer's fencing token
     * @return saves {@code config} as {@code version}, makes it current and appends it to the releases with status
     *         {@link OperationStatus#IN_PROGRESS}
     */
    SchedulerRecord saveVersion(String name, SchedulerVersion version, ConfigDocument config, Instant createdAt, Fence fence);

    /**
     * As {@link #saveVersion}, for a version a rollback records: its release says which version's config it
     * restored ({@link Release#rolledBackTo()}).
     *
     * @param name         the scheduler
     * @param version      the new version, newer than the current one
     * @param rolledBackTo the version whose config {@code config} is
     * @param config       the restored configuration
     * @param createdAt    when it is saved
     * @param fence        the writer's fencing token
     * @return the scheduler after the save
     * @throws IllegalArgumentException if {@code version} is not newer than the current version
     */
    SchedulerRecord saveRollback(String name, SchedulerVersion version, SchedulerVersion rolledBackTo, ConfigDocument config,
                                 Instant createdAt, Fence fence);

    /**
     * Releases of {@code name}, oldest first; empty if it does not exist.
     *
     * @param name the scheduler
     */
    List<Release> releases(String name);

    /**
     * One release of {@code name}.
     *
     * @param name the scheduler
     * @param version the new version, newer than the current one
     */
    Optional<Release> release(String name, SchedulerVersion version);

    /**
     * Records the outcome of the operation that introduced {@code version}.
     *
     * @param name the scheduler
     * @param version the new version, newer than the current one
     * @param fence the writer's fencing token
     */
    void setStatus(String name, SchedulerVersion version, OperationStatus status, Fence fence);

    /**
     * Sets the scheduler state; {@code stateLastChangedAt} moves only when the state differs.
     *
     * @param name the scheduler
     * @param now the current instant
     * @param fence the writer's fencing token
     */
    void setState(String name, String state, Instant now, Fence fence);

    /**
     * Records a successful scale.
     *
     * @param name the scheduler
     * @param fence the writer's fencing token
     */
    void setLastScaleAt(String name, Instant at, Fence fence);

    /**
     * Deletes the scheduler and all its releases.
     *
     * @param name the scheduler
     * @param fence the writer's fencing token
     * @return false if it did not exist
     */
    boolean delete(String name, Fence fence);

    /**
     * The scheduler's persisted release (the latest one, finished or not), if one was saved.
     *
     * @param name the scheduler
     * @return the release and its stored version; empty if none was saved or the scheduler does not exist
     */
    Optional<VersionedRelease> loadRelease(String name);

    /**
     * Saves the scheduler's release if the stored version is {@code expectedVersion} (0: no release stored);
     * a new release replaces a finished one by passing the finished one's version.
     *
     * @param name            the scheduler
     * @param state           the release
     * @param expectedVersion the version the caller read, 0 when none was stored
     * @param fence           the writer's fencing token
     * @return the new stored version ({@code expectedVersion + 1})
     * @throws StaleReleaseException if the stored version differs
     */
    long saveRelease(String name, ReleaseState state, long expectedVersion, Fence fence);

    /**
     * The scheduler's scale inputs and their stored version.
     *
     * @param name the scheduler
     * @return {@link VersionedScaleInputs#NONE} when none were saved or the scheduler does not exist
     */
    VersionedScaleInputs loadScaleInputs(String name);

    /**
     * Saves the scheduler's scale inputs if the stored version is {@code expectedVersion} (0: none stored).
     *
     * @param name            the scheduler
     * @param inputs          the inputs
     * @param expectedVersion the version the caller read
     * @return true when saved (the stored version is now {@code expectedVersion + 1}); false, changing nothing, when
     *         the stored version differs
     * @throws SchedulerNotFoundException when the scheduler does not exist
     */
    boolean saveScaleInputs(String name, ScaleInputs inputs, long expectedVersion);

    /**
     * A scheduler's persisted release and the store's version of it (for the next save's expected version).
     *
     * @param state   the release as the machine last decided it
     * @param version the store's version, from 1, increased by every save
     */
    public record VersionedRelease(ReleaseState state, long version) {
        /**
         * Checks the parts.
         *
         * @param state   the release
         * @param version the store's version of it
         */
        public VersionedRelease {
            Objects.requireNonNull(state, "state");
            if (version < 1) {
                throw new IllegalArgumentException("version: bad value '" + version + "': must be at least 1");
            }
        }
    }

    /** No scheduler of this name exists (Maestro's 404 on scheduler routes). */
    public static final class SchedulerNotFoundException extends NoSuchElementException {

        private final String scheduler;

        public SchedulerNotFoundException(String scheduler) {
            super("scheduler: bad value '" + scheduler + "': no scheduler of this name exists");
            this.scheduler = scheduler;
        }

        /**
         * The name that was not found.
         */
        public String scheduler() {
            return scheduler;
        }
    }

    /**
     * A release save whose expected version is not the stored one: another owner saved the release since this one
     * read it. Nothing was changed; the caller stops driving the release (the other owner does).
     */
    public static final class StaleReleaseException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        /**
         * Names the scheduler and both versions.
         *
         * @param scheduler whose release was saved concurrently
         * @param expected  the version the caller read
         * @param stored    the version stored (0: none)
         */
        public StaleReleaseException(String scheduler, long expected, long stored) {
            super("release of scheduler " + scheduler + ": expected version " + expected + " but the store holds " + stored);
        }
    }
}
