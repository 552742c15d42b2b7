package dev.hotspare.redis.internal;

import io.netty.channel.EventLoop;

/**
 * Tells whether the calling thread runs a Netty event loop (a Lettuce I/O thread, or another library's), where a
 * write to a channel of that loop happens inline instead of being queued behind the writes other threads handed
 * to the loop earlier.
 *
 * <p>Netty keeps no public record of the loop a thread runs, so this asks the thread's own stack, through the
 * JDK's {@link StackWalker}: an event-loop thread runs its loop's {@code run()} from start to end, so whatever it
 * is doing, a frame of a class implementing {@link EventLoop} sits near the bottom of its stack. Lettuce's
 * computation threads run executors that are not event loops, and are not counted. The answer never changes for
 * a thread, so each thread walks its stack once and later calls read a thread local (a virtual thread, which
 * lives for one task, pays the walk on its first call).
 */
final class IoThreads {

    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    private static final ThreadLocal<Boolean> RUNS_EVENT_LOOP = ThreadLocal.withInitial(() -> WALKER.walk(frames ->
            frames.anyMatch(frame -> EventLoop.class.isAssignableFrom(frame.getDeclaringClass()))));

    private IoThreads() {
    }

    /** Whether the calling thread runs a Netty event loop. */
    static boolean current() {
        return RUNS_EVENT_LOOP.get();
    }
}
