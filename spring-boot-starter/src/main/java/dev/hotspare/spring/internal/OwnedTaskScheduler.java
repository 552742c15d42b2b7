package dev.hotspare.spring.internal;

import dev.hotspare.spring.HotspareConfigurationException;
import dev.hotspare.spring.HotspareProperties;
import dev.hotspare.time.TaskScheduler;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * hotspare's real-time {@link TaskScheduler} on an executor the starter owns: threads {@code hotspare-1..n}, shut
 * down when the application context closes (after the pools and the fleet have stopped). The executor is kept out
 * of the context on purpose: an {@code Executor} bean would make Spring Boot's own task executor back off.
 */
public final class OwnedTaskScheduler implements TaskScheduler, AutoCloseable {

    private final ScheduledThreadPoolExecutor executor;
    private final TaskScheduler delegate;

    /**
     * Starts the executor.
     *
     * @param threads {@code hotspare.threads}, at least 1
     * @param clock   the clock decisions read
     * @throws HotspareConfigurationException when {@code threads} is below 1
     */
    public OwnedTaskScheduler(int threads, Clock clock) {
        if (threads < 1) {
            throw new HotspareConfigurationException(HotspareProperties.PREFIX + ".threads", threads, "must be at least 1");
        }
        AtomicInteger number = new AtomicInteger();
        this.executor = new ScheduledThreadPoolExecutor(threads, runnable -> {
            Thread thread = new Thread(runnable, "hotspare-" + number.incrementAndGet());
            // Daemon, so a context that is never closed does not keep the JVM alive.
            thread.setDaemon(true);
            return thread;
        });
        this.delegate = TaskScheduler.system(executor, clock);
    }

    @Override
    public Clock clock() {
        return delegate.clock();
    }

    @Override
    public Cancellable schedule(Duration delay, Runnable task) {
        return delegate.schedule(delay, task);
    }

    @Override
    public Cancellable scheduleAtFixedRate(Duration initialDelay, Duration period, Runnable task) {
        return delegate.scheduleAtFixedRate(initialDelay, period, task);
    }

    @Override
    public Cancellable execute(Runnable task) {
        return delegate.execute(task);
    }

    /**
     * Whether the executor has been shut down.
     *
     * @return true after {@link #close()}
     */
    public boolean isShutdown() {
        return executor.isShutdown();
    }

    /** Stops the executor: queued passes and timers are dropped, running ones are interrupted. */
    @Override
    public void close() {
        executor.shutdownNow();
    }
}
