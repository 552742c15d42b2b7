package dev.hotspare.pool.spi;

import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Creates, deletes and powers the members of pools, and reports what it observes. Implemented by the
 * in-memory driver (simulated durations), Kubernetes pods (game rooms) and Kubernetes custom resources
 * (cluster-like members).
 *
 * <p>Every mutating call is one write to the backing system, and drivers make writes only when asked: the
 * planner already emits nothing for a member in its target state. Calls for unknown members throw
 * {@link MemberNotFoundException}.
 */
public interface MemberDriver {

    /**
     * Creates one member of {@code pool} from {@code templateVersion}, already asking for {@code power} (one
     * write, where Hive needs a create and an update).
     *
     * @return the member as created (phase PROVISIONING), with an id chosen by the driver
     */
    Member create(String pool, String templateVersion, DesiredPower power);

    /** Starts deleting a member; it stays listed as DELETING until it is gone. Deleting a missing member does nothing. */
    void delete(String pool, String memberId);

    /** Asks a member for a power state. */
    void setDesiredPower(String pool, String memberId, DesiredPower power);

    /**
     * Records that {@code claimName} holds the member since {@code claimedAt} and asks for it to run, in one
     * write. Idempotent for the same claim; refuses a member held by another claim.
     *
     * @throws MemberAlreadyClaimedException if another claim holds it
     */
    void assign(String pool, String memberId, String claimName, Instant claimedAt);

    /**
     * Records the release mark on a member: its claim was released at {@code releasedAt}, so the pool may delete
     * it. The mark is durable (it lives with the member in the backing system, so a restarted controller sees it)
     * and is the only way a claimed member becomes deletable by release; a claim merely missing from the claim
     * store never is. Idempotent: the first mark's time stays.
     *
     * @param memberId   the member
     * @param releasedAt when the claim was released
     * <p>Every driver a {@code PoolController} runs on must implement it (the contract suite checks); the default
     * refuses, for drivers that only serve fleets, which never release claims.
     *
     * @throws MemberNotFoundException        if the member does not exist
     * @throws UnsupportedOperationException  if the driver keeps no release marks
     */
    default void markReleased(String pool, String memberId, Instant releasedAt) {
        throw new UnsupportedOperationException("this member driver keeps no release marks; a pool needs a driver that does");
    }

    /**
     * Records ({@code since} present) or clears (empty) the orphan mark on a claimed member: since when its claim
     * has been missing from the claim store. Durable like the release mark, so the grace period survives a
     * restart. Setting a mark that is already there, or clearing one that is not, writes nothing.
     *
     * @param memberId the member
     * @param since    since when its claim is missing, or empty to clear the mark
     * <p>Every driver a {@code PoolController} runs on must implement it (the contract suite checks); the default
     * refuses, for drivers that only serve fleets, which have no claims.
     *
     * @throws MemberNotFoundException        if the member does not exist
     * @throws UnsupportedOperationException  if the driver keeps no orphan marks
     */
    default void markOrphaned(String pool, String memberId, Optional<Instant> since) {
        throw new UnsupportedOperationException("this member driver keeps no orphan marks; a pool needs a driver that does");
    }

    /** Every member of {@code pool} as last observed, in no particular order. */
    List<Member> list(String pool);

    /** One member as last observed. */
    Optional<Member> find(String pool, String memberId);

    /**
     * Calls {@code listener} whenever a member of {@code pool} is added, changes or disappears, from the
     * driver's own thread, one member's events in the order of its changes: the pool controller keeps the last record
     * it is told of to hand members to claims between passes (see {@link OrderedDelivery} for changes made on several
     * threads). Listeners must be quick.
     *
     * @return a handle that stops the notifications
     */
    AutoCloseable watch(String pool, MemberListener listener);

    /** Receives member changes. */
    @FunctionalInterface
    interface MemberListener {
        void onChange(MemberEvent event);
    }

    /** A change to one member. */
    sealed interface MemberEvent permits MemberEvent.Added, MemberEvent.Updated, MemberEvent.Removed {

        /** The pool the member belongs to. */
        String pool();

        /** A member appeared. */
        record Added(String pool, Member member) implements MemberEvent {
        }

        /** A member changed. */
        record Updated(String pool, Member member) implements MemberEvent {
        }

        /** A member is gone. */
        record Removed(String pool, String memberId) implements MemberEvent {
        }
    }

    /** A member was about to be given to a claim while another claim holds it; nothing was written. */
    public static final class MemberAlreadyClaimedException extends RuntimeException {

        private final String memberId;
        private final String heldBy;

        public MemberAlreadyClaimedException(String pool, String memberId, String heldBy, String wanted) {
            super("member '" + memberId + "' of pool '" + pool + "' is held by claim '" + heldBy
                    + "'; refusing to give it to claim '" + wanted + "'");
            this.memberId = memberId;
            this.heldBy = heldBy;
        }

        public String memberId() {
            return memberId;
        }

        /** The claim that holds the member. */
        public String heldBy() {
            return heldBy;
        }
    }

    /** A {@link MemberDriver} call named a member that does not exist (any more). */
    public static final class MemberNotFoundException extends RuntimeException {

        private final String pool;
        private final String memberId;

        public MemberNotFoundException(String pool, String memberId) {
            super("member '" + memberId + "' not found in pool '" + pool + "'");
            this.pool = pool;
            this.memberId = memberId;
        }

        public String pool() {
            return pool;
        }

        public String memberId() {
            return memberId;
        }
    }
}
