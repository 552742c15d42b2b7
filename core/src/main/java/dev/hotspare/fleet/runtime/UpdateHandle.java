package dev.hotspare.fleet.runtime;

import dev.hotspare.fleet.spi.OperationStatus;
import dev.hotspare.fleet.versions.ConfigDiff;
import dev.hotspare.fleet.versions.SchedulerVersion;

import java.util.concurrent.CompletableFuture;

/**
 * What an update returns as soon as the new version is saved — before a rolling replace finishes.
 *
 * @param version the version now current (unchanged when the diff is empty)
 * @param diff    what changed
 * @param outcome completes with the final status of {@code version}: DEPLOYED, or CANCELED / ERROR /
 *                TIMEDOUT after which the previous config was restored as a newer major version; it completes
 *                after the update released its locks, so an operation started on completion is not refused
 *                {@link ErrorCode#LOCKED} by this one
 * @param control cancels a running rolling replace (which then rolls back)
 */
public record UpdateHandle(SchedulerVersion version, ConfigDiff diff, CompletableFuture<OperationStatus> outcome,
                           Runnable control) {

    /** Asks a running rolling replace to stop and roll back; no effect once it finished. */
    public void cancel() {
        control.run();
    }
}
