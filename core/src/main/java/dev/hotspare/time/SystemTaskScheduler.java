package dev.hotspare.time;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** {@link TaskScheduler} on a real {@link ScheduledExecutorService}. */
final class SystemTaskScheduler implements TaskScheduler {

    private static final Logger LOG = LoggerFactory.getLogger(SystemTaskScheduler.class);

    private final ScheduledExecutorService executor;
    private final Clock clock;

    SystemTaskScheduler(ScheduledExecutorService executor, Clock clock) {
        this.executor = Objects.requireNonNull(executor, "executor");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (executor instanceof ScheduledThreadPoolExecutor pool) {
            // Lease renewals and timeouts are cancelled far more often than they fire; without this a
            // cancelled task stays queued until its due time and the queue grows with every lock cycle.
            pool.setRemoveOnCancelPolicy(true);
        }
    }

    @Override
    public Clock clock() {
        return clock;
    }

    @Override
    public Cancellable schedule(Duration delay, Runnable task) {
        ScheduledFuture<?> future = executor.schedule(guarded(task), delay.toNanos(), TimeUnit.NANOSECONDS);
        return () -> future.cancel(false);
    }

    @Override
    public Cancellable scheduleAtFixedRate(Duration initialDelay, Duration period, Runnable task) {
        ScheduledFuture<?> future = executor.scheduleAtFixedRate(guarded(task), initialDelay.toNanos(),
                period.toNanos(), TimeUnit.NANOSECONDS);
        return () -> future.cancel(false);
    }

    private static Runnable guarded(Runnable task) {
        // A periodic task that throws is silently descheduled by ScheduledExecutorService; keep loops alive.
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.error("scheduled task failed; it stays scheduled", e);
            }
        };
    }
}
