package dev.hotspare.time;

import dev.hotspare.time.VirtualTimeScheduler.VirtualClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Where runtime loops get their time and their timers. Production code uses {@link #system}; tests and the
 * simulator use {@link dev.hotspare.time.VirtualTimeScheduler}, which runs the very same loops on virtual
 * time, deterministically and without sleeping.
 */
public interface TaskScheduler {

    /**
     * The clock every decision made under this scheduler reads.
     */
    Clock clock();

    /**
     * Runs {@code task} once after {@code delay}.
     */
    Cancellable schedule(Duration delay, Runnable task);

    /**
     * Runs {@code task} after {@code initialDelay} and then every {@code period} until cancelled.
     * A run that throws is logged and does not stop later runs.
     */
    Cancellable scheduleAtFixedRate(Duration initialDelay, Duration period, Runnable task);

    /**
     * Runs {@code task} as soon as possible, not on the caller's thread (or, on virtual time, not inside the call).
     *
     * @return runs {@code task} as soon as possible, not on the caller's thread (or, on virtual time, not inside the
     *         call)
     */
    default Cancellable execute(Runnable task) {
        return schedule(Duration.ZERO, task);
    }

    /** A handle to cancel a scheduled task; cancelling twice, or after it ran, does nothing. */
    @FunctionalInterface
    interface Cancellable {
        void cancel();
    }

    /**
     * Real time: tasks run on {@code executor}, decisions read {@code clock}. The caller owns the executor; a
     * {@link java.util.concurrent.ScheduledThreadPoolExecutor} is switched to remove cancelled tasks at once,
     * since hotspare cancels timers (lease renewals, timeouts) far more often than they fire.
     */
    static TaskScheduler system(ScheduledExecutorService executor, Clock clock) {
        return new SystemTaskScheduler(executor, clock);
    }

    /**
     * Virtual time starting at {@code start}: nothing runs until the caller advances the clock
     * ({@link VirtualTimeScheduler#advanceBy}), and then every task due runs, in due-time order, on the caller's
     * thread. What tests and the simulator run the real runtime on.
     *
     * @return virtual time starting at {@code start}: nothing runs until the caller advances the clock ({@link
     *         VirtualTimeScheduler#advanceBy}), and then every task due runs, in due-time order, on the caller's
     *         thread
     */
    static VirtualTimeScheduler virtual(Instant start) {
        return new VirtualTimeScheduler(new VirtualClock(start));
    }
}
