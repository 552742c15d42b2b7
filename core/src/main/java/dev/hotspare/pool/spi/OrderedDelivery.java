package dev.hotspare.pool.spi;

import java.util.ArrayDeque;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Hands events to a consumer in the order they were queued, one thread at a time, without holding the lock that
 * ordered them. A driver queues an event while it holds the lock under which it made the change (so the queue's
 * order is the order of the changes, whichever threads made them) and delivers after letting that lock go (so a
 * listener may call back into it). A thread that finds another delivering leaves its events to that one.
 *
 * <p>For {@link MemberDriver} implementations whose changes are made on more than one thread: {@link
 * MemberDriver#watch} promises a member's events in the order of its changes. Publishing after the lock without this
 * let two threads' events for one member overtake each other, and a listener that keeps the last record it was told
 * of (the pool controller does, to hand members to claims without waiting for a pass) kept an older one, and so
 * did not hand out a member that was in fact free. The in-memory and Kubernetes drivers use it.
 *
 * @param <E> what is delivered; a member driver delivers its {@code MemberEvent}s
 */
public final class OrderedDelivery<E> {

    private final Consumer<E> consumer;
    private final ArrayDeque<E> queue = new ArrayDeque<>();
    private boolean delivering;

    public OrderedDelivery(Consumer<E> consumer) {
        this.consumer = Objects.requireNonNull(consumer, "consumer");
    }

    /** Queues {@code event}; call it under the lock that orders the changes. */
    public synchronized void add(E event) {
        queue.addLast(Objects.requireNonNull(event, "event"));
    }

    /**
     * Delivers what is queued, in order, unless another thread is delivering; call it without the lock that orders
     * the changes. An exception from the consumer is thrown to this caller; the events after it stay queued for the
     * next call.
     */
    public void deliver() {
        E next;
        synchronized (this) {
            if (delivering) {
                return;
            }
            next = queue.pollFirst();
            if (next == null) {
                return;
            }
            delivering = true;
        }
        while (next != null) {
            boolean delivered = false;
            try {
                consumer.accept(next);
                delivered = true;
            } finally {
                // One lock round per event: hand the next one over, or stop delivering (also on an exception).
                synchronized (this) {
                    next = delivered ? queue.pollFirst() : null;
                    if (next == null) {
                        delivering = false;
                    }
                }
            }
        }
    }
}
