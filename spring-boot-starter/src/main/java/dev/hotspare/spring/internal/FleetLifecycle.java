package dev.hotspare.spring.internal;

import dev.hotspare.fleet.runtime.Fleet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Starts the fleet's worker with the application context and, on shutdown, lets running rolling replaces and room
 * removals finish for up to {@code hotspare.fleet.shutdown-timeout} (their locks are released as they finish)
 * before the starter's executor stops.
 */
public final class FleetLifecycle implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(FleetLifecycle.class);

    /** Beyond the shutdown timeout, how long to wait for the fleet to report that it stopped. */
    private static final Duration REPORT_GRACE = Duration.ofSeconds(5);

    private final Fleet fleet;
    private final Duration shutdownTimeout;
    private final Backend backend;
    private volatile boolean running;

    /**
     * A lifecycle for {@code fleet}.
     *
     * @param shutdownTimeout how long shutdown waits for running replaces and removals
     * @param backend         the store the fleet runs on, described in the startup line
     */
    public FleetLifecycle(Fleet fleet, Duration shutdownTimeout, Backend backend) {
        this.fleet = fleet;
        this.shutdownTimeout = shutdownTimeout;
        this.backend = backend;
    }

    @Override
    public void start() {
        fleet.start();
        running = true;
        LOG.info("hotspare fleet started on hotspare.store={}", backend.store().propertyValue());
    }

    @Override
    public void stop() {
        if (!running) {
            return;
        }
        running = false;
        try {
            boolean finished = fleet.shutdown(shutdownTimeout)
                    .get(shutdownTimeout.plus(REPORT_GRACE).toMillis(), TimeUnit.MILLISECONDS);
            if (!finished) {
                LOG.warn("hotspare fleet: replaces or removals still running after {}; their leases expire by their TTL",
                        shutdownTimeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("hotspare fleet: shutdown did not report back: {}", StoreCheck.reason(e));
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
