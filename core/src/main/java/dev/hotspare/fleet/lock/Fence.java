package dev.hotspare.fleet.lock;

import dev.hotspare.fleet.lock.spi.Lease;
import dev.hotspare.fleet.lock.spi.LockKeys;

import java.util.Objects;

/**
 * A fencing token together with the lock key that issued it. Stores that accept fenced writes remember, per
 * lock key, the largest token they accepted and reject a write carrying a smaller one, so a holder whose lease
 * lapsed (a long GC pause, a partition) cannot overwrite what the next holder wrote. Tokens of different keys
 * are unrelated and never compared.
 *
 * @param lockKey the key of the lock whose lease issued the token
 * @param token   the lease's fencing token
 */
public record Fence(String lockKey, long token) {

    public Fence {
        LockKeys.requireValid(lockKey);
    }

    /**
     * The fence of {@code lease}.
     */
    public static Fence of(Lease lease) {
        return new Fence(Objects.requireNonNull(lease, "lease").key(), lease.fencingToken());
    }

    /**
     * A fenced write carried a token older than the newest one the store already accepted for the same lock
     * key: its writer's lease has lapsed and someone else holds (or held) the lock since. The write was not
     * applied. The writer must stop; retrying cannot succeed.
     */
    public static final class StaleFenceException extends IllegalStateException {

        private final Fence rejected;
        private final long newestAccepted;

        public StaleFenceException(Fence rejected, long newestAccepted) {
            super("write fenced by " + rejected.lockKey() + " token " + rejected.token()
                    + " rejected: token " + newestAccepted + " of that lock was already accepted");
            this.rejected = rejected;
            this.newestAccepted = newestAccepted;
        }

        /**
         * The fence of the rejected write.
         */
        public Fence rejected() {
            return rejected;
        }

        /**
         * The newest token the store had accepted for that lock key.
         */
        public long newestAccepted() {
            return newestAccepted;
        }
    }
}
