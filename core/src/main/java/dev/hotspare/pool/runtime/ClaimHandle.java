package dev.hotspare.pool.runtime;

import dev.hotspare.pool.Claim.ClaimOutcome;
import dev.hotspare.pool.Member;

import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * A claim made through {@link PoolController#claim}. Its future completes with the member once one is
 * assigned (the member as it was at assignment: running), completes exceptionally with a
 * {@link ClaimExpiredException} if its deadline passes first, or is cancelled if the claim is released first.
 * {@link #outcome()} completes with how the wait ended in every case.
 *
 * <p>Cancelling the future ({@code member().cancel(...)}) or calling {@link #cancel()} withdraws the claim: a
 * pending claim is released and never served; a claim that already got a member is released and its member is
 * deleted. Either way the claim does not linger.
 */
public final class ClaimHandle {

    private final String pool;
    private final String name;
    private final Instant createdAt;
    private final CompletableFuture<Member> member = new CompletableFuture<>();
    private final CompletableFuture<ClaimOutcome> outcome = new CompletableFuture<>();
    /** Set once the claim's fate is decided here (served, released, withdrawn), so it is acted on once. */
    private final AtomicBoolean settled = new AtomicBoolean();
    private final Predicate<ClaimHandle> withdraw;

    ClaimHandle(String pool, String name, Instant createdAt, Predicate<ClaimHandle> withdraw) {
        this.pool = Objects.requireNonNull(pool, "pool");
        this.name = Objects.requireNonNull(name, "name");
        this.createdAt = Objects.requireNonNull(createdAt, "createdAt");
        this.withdraw = Objects.requireNonNull(withdraw, "withdraw");
        member.whenComplete((m, e) -> {
            if (e instanceof CancellationException && settled.compareAndSet(false, true)) {
                withdraw.test(this);
            }
        });
    }

    /**
     * The pool claimed from.
     *
     * @return the pool name
     */
    public String pool() {
        return pool;
    }

    /**
     * The claim's name.
     */
    public String name() {
        return name;
    }

    /**
     * When the claim was made.
     *
     * @return its creation time
     */
    public Instant createdAt() {
        return createdAt;
    }

    /**
     * Completes with the assigned member; cancelled if the claim ends first. Cancelling it withdraws the claim.
     *
     * @return the future
     */
    public CompletableFuture<Member> member() {
        return member;
    }

    /**
     * Completes with how the claim's wait ended: a served kind, {@link ClaimOutcome#WITHDRAWN} or
     * {@link ClaimOutcome#EXPIRED}. It stays incomplete for a claim served or ended by another controller, which
     * this one cannot judge. Cancelling it changes nothing.
     *
     * @return the future
     */
    public CompletableFuture<ClaimOutcome> outcome() {
        return outcome;
    }

    /**
     * Withdraws the claim: released while pending (never served), or released with its member deleted once
     * assigned. Idempotent.
     *
     * @return whether the claim was live
     */
    public boolean cancel() {
        settled.set(true);
        member.cancel(false);
        return withdraw.test(this);
    }

    /** Marks the claim's fate as decided by the controller, so a cancellation that follows withdraws nothing. */
    boolean settle() {
        return settled.compareAndSet(false, true);
    }

    /** The controller ends the wait: the claim is gone. */
    void end() {
        settled.set(true);
        member.cancel(false);
    }

    /** The controller serves the claim. */
    boolean serve(Member assigned) {
        return member.complete(assigned);
    }

    /** The controller expired the claim: its deadline passed unserved. */
    void expire(ClaimExpiredException expired) {
        settled.set(true);
        member.completeExceptionally(expired);
        outcome.complete(ClaimOutcome.EXPIRED);
    }

    /** How the claim's wait ended, once known. */
    void ended(ClaimOutcome how) {
        outcome.complete(how);
    }

    @Override
    public String toString() {
        return "ClaimHandle[pool=" + pool + ", name=" + name + ", createdAt=" + createdAt + ", member=" + member + "]";
    }

    /**
     * A claim's deadline passed before it was served: it was removed from the queue with outcome
     * {@link dev.hotspare.pool.Claim.ClaimOutcome#EXPIRED}. Its {@link ClaimHandle#member()} future completes exceptionally
     * with this exception.
     */
    public static final class ClaimExpiredException extends IllegalStateException {

        /** The pool. */
        private final String pool;
        /** The claim that expired. */
        private final String claimName;
        /** Its deadline. */
        private final Instant deadline;

        /**
         * Claim {@code claimName} of {@code pool} expired at {@code deadline}.
         *
         * @param claimName the claim
         * @param deadline  its deadline
         */
        public ClaimExpiredException(String pool, String claimName, Instant deadline) {
            super("claim '" + claimName + "' of pool '" + pool + "' expired: its deadline " + deadline
                    + " passed before a member was free");
            this.pool = Objects.requireNonNull(pool, "pool");
            this.claimName = Objects.requireNonNull(claimName, "claimName");
            this.deadline = Objects.requireNonNull(deadline, "deadline");
        }

        /**
         * The pool.
         *
         * @return its name
         */
        public String pool() {
            return pool;
        }

        /**
         * The claim that expired.
         *
         * @return its name
         */
        public String claimName() {
            return claimName;
        }

        /**
         * Its deadline.
         *
         * @return the instant it had to be served by
         */
        public Instant deadline() {
            return deadline;
        }
    }
}
