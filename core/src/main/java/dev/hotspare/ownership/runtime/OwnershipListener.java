package dev.hotspare.ownership.runtime;

import java.time.Duration;

/**
 * What an {@link OwnershipMember} tells about the keys it owns; every method does nothing by default. Called on the
 * member's heartbeat thread: implementations must be quick and must not throw.
 */
public interface OwnershipListener {

    /**
     * This instance took {@code key}'s fenced lease and may act on it from now on.
     *
     * @param kind         what the key names ({@code scheduler}, {@code pool}, ...)
     * @param key          the scheduler or pool name
     * @param fencingToken the lease's fencing token, to pass with fenced writes
     * @param waited       how long the key had no live owner before this instance took it (zero when it was handed over
     *                     at once or never owned)
     */
    default void acquired(String kind, String key, long fencingToken, Duration waited) {
    }

    /**
     * This instance let {@code key} go, because the live members changed and it is another's now, or because it is
     * closing.
     *
     * @param kind what the key names
     * @param key  the scheduler or pool name
     */
    default void handedOver(String kind, String key) {
    }

    /**
     * This instance lost {@code key}'s lease without letting it go (it expired or was force-released: a pause, a
     * partition); it stopped acting on it.
     *
     * @param kind what the key names
     * @param key  the scheduler or pool name
     */
    default void lost(String kind, String key) {
    }
}
