package dev.hotspare.fleet.runtime.internal;

import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.TaskScheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Waits, on a {@link TaskScheduler}, until a driver no longer lists some members — used wherever rooms are
 * deleted and the next step must not start before they are gone (scale-down, rolling replace, dead rooms).
 */
public final class MembersGone {

    private MembersGone() {
    }

    /**
     * Completes when none of {@code ids} is listed in {@code pool} any more, or at {@code deadline},
     * whichever comes first; checks every {@code pollInterval}. Completes exceptionally if the driver fails.
     */
    public static CompletableFuture<Void> await(MemberDriver driver, TaskScheduler tasks, Duration pollInterval, String pool,
                                         List<String> ids, Instant deadline) {
        CompletableFuture<Void> gone = new CompletableFuture<>();
        Runnable[] check = new Runnable[1];
        check[0] = () -> {
            try {
                boolean anyLeft = ids.stream().anyMatch(id -> driver.find(pool, id).isPresent());
                if (!anyLeft || !tasks.clock().instant().isBefore(deadline)) {
                    gone.complete(null);
                } else {
                    tasks.schedule(pollInterval, check[0]);
                }
            } catch (RuntimeException e) {
                gone.completeExceptionally(e);
            }
        };
        check[0].run();
        return gone;
    }
}
