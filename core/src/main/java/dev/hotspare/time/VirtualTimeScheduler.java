package dev.hotspare.time;

import java.time.ZoneId;
import java.time.ZoneOffset;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.PriorityQueue;

/**
 * A {@link TaskScheduler} on virtual time: scheduled tasks run on the caller's thread, in time order (ties in
 * scheduling order), only inside {@link #advanceTo}, {@link #advanceBy} or {@link #runDueTasks}. The runtime
 * loops, the simulator and the tests share it, so a month of pool activity replays in seconds and every
 * run is reproducible.
 *
 * <p>Thread-safe for scheduling from other threads; running is done by whoever advances the time.
 */
public final class VirtualTimeScheduler implements TaskScheduler {

    private static final Logger LOG = LoggerFactory.getLogger(VirtualTimeScheduler.class);

    private final VirtualClock clock;
    private final PriorityQueue<Entry> queue = new PriorityQueue<>();
    private long sequence;
    private long executed;

    public VirtualTimeScheduler(VirtualClock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * A scheduler on a fresh {@link VirtualClock#atEpochOf2026()}.
     */
    public static VirtualTimeScheduler startingAt2026() {
        return new VirtualTimeScheduler(VirtualClock.atEpochOf2026());
    }

    @Override
    public Clock clock() {
        return clock;
    }

    /**
     * The virtual clock, for callers that move time themselves.
     */
    public VirtualClock virtualClock() {
        return clock;
    }

    /**
     * The current virtual instant.
     */
    public Instant now() {
        return clock.instant();
    }

    @Override
    public Cancellable schedule(Duration delay, Runnable task) {
        if (delay.isNegative()) {
            delay = Duration.ZERO;
        }
        Entry entry = enqueue(clock.instant().plus(delay), null, task);
        return entry::cancel;
    }

    @Override
    public Cancellable scheduleAtFixedRate(Duration initialDelay, Duration period, Runnable task) {
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("period: " + period + " must be positive");
        }
        Entry entry = enqueue(clock.instant().plus(initialDelay.isNegative() ? Duration.ZERO : initialDelay), period, task);
        return entry::cancel;
    }

    private synchronized Entry enqueue(Instant at, Duration period, Runnable task) {
        Entry entry = new Entry(at, sequence++, period, task);
        queue.add(entry);
        return entry;
    }

    /**
     * Runs every task due at or before now, including tasks they schedule for now. Returns how many ran.
     */
    public int runDueTasks() {
        return runUntil(clock.instant());
    }

    /**
     * Advances the clock to {@code target}, running each task at its own due time on the way.
     */
    public int advanceTo(Instant target) {
        int ran = runUntil(target);
        if (clock.instant().isBefore(target)) {
            clock.setTo(target);
        }
        return ran;
    }

    /**
     * Advances the clock by {@code duration}; see {@link #advanceTo}.
     */
    public int advanceBy(Duration duration) {
        return advanceTo(clock.instant().plus(duration));
    }

    /**
     * The due time of the next pending task, if any.
     */
    public synchronized java.util.Optional<Instant> nextDueTime() {
        purgeCancelled();
        return queue.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(queue.peek().at);
    }

    /**
     * Number of tasks run since creation.
     */
    public synchronized long executedCount() {
        return executed;
    }

    /**
     * Number of tasks waiting (periodic tasks count once).
     */
    public synchronized int pendingCount() {
        purgeCancelled();
        return queue.size();
    }

    private int runUntil(Instant target) {
        int ran = 0;
        while (true) {
            Entry next;
            synchronized (this) {
                purgeCancelled();
                next = queue.peek();
                if (next == null || next.at.isAfter(target)) {
                    return ran;
                }
                queue.poll();
                executed++;
            }
            if (next.at.isAfter(clock.instant())) {
                clock.setTo(next.at);
            }
            try {
                next.task.run();
            } catch (RuntimeException e) {
                LOG.error("virtual-time task failed", e);
            }
            ran++;
            if (next.period != null && !next.cancelled) {
                synchronized (this) {
                    next.at = next.at.plus(next.period);
                    next.order = sequence++;
                    queue.add(next);
                }
            }
        }
    }

    private void purgeCancelled() {
        while (!queue.isEmpty() && queue.peek().cancelled) {
            queue.poll();
        }
    }

    private static final class Entry implements Comparable<Entry> {
        private Instant at;
        private long order;
        private final Duration period;
        private final Runnable task;
        private volatile boolean cancelled;

        private Entry(Instant at, long order, Duration period, Runnable task) {
            this.at = at;
            this.order = order;
            this.period = period;
            this.task = Objects.requireNonNull(task, "task");
        }

        private void cancel() {
            cancelled = true;
        }

        @Override
        public int compareTo(Entry other) {
            int byTime = at.compareTo(other.at);
            return byTime != 0 ? byTime : Long.compare(order, other.order);
        }
    }

    /**
     * A {@link Clock} that only moves when told to. Thread-safe. Moving it backwards is refused, because every
     * hotspare decision assumes time does not run backwards within one process.
     */
    public static final class VirtualClock extends Clock {

        private volatile Instant now;

        public VirtualClock(Instant start) {
            this.now = Objects.requireNonNull(start, "start");
        }

        /**
         * A clock at {@code 2026-01-01T00:00:00Z}, a fixed and readable origin for tests and simulations.
         */
        public static VirtualClock atEpochOf2026() {
            return new VirtualClock(Instant.parse("2026-01-01T00:00:00Z"));
        }

        /**
         * Moves the clock to {@code instant}.
         */
        public synchronized void setTo(Instant instant) {
            if (instant.isBefore(now)) {
                throw new IllegalArgumentException("instant: " + instant + " is before the clock's " + now + "; virtual time never runs backwards");
            }
            now = instant;
        }

        /**
         * Moves the clock forward by {@code duration}.
         */
        public synchronized void advance(Duration duration) {
            if (duration.isNegative()) {
                throw new IllegalArgumentException("duration: " + duration + " is negative; virtual time never runs backwards");
            }
            now = now.plus(duration);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            if (zone.equals(ZoneOffset.UTC)) {
                return this;
            }
            throw new UnsupportedOperationException("zone: " + zone + "; a VirtualClock is always UTC");
        }
    }
}
