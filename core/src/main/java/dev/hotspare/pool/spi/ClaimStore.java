package dev.hotspare.pool.spi;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.ClaimClass;
import dev.hotspare.pool.ClaimOutcome;
import dev.hotspare.pool.ClaimRequest;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Durable claims of pools. A claim is <em>live</em> from {@link #submit} until {@link #release}; while live it
 * is pending (no member yet) or assigned. The in-memory store is the default; PostgreSQL makes claims survive
 * the process and be shared by several controllers.
 *
 * <p>Assignment is compare-and-set: a claim is assigned at most once and a member is given to at most one
 * live claim, whatever the interleaving of callers.
 */
public interface ClaimStore {

    /**
     * Records a new pending claim.
     *
     * @throws ClaimExistsException if a live claim of that name exists in the pool
     */
    Claim submit(String pool, String claimName, Optional<Duration> lifetime, Instant now);

    /**
     * Records a new pending claim as {@code request} asks: with its class and deadline. Stores written before
     * claim classes existed inherit this default, which takes default-class claims without deadline and refuses
     * the rest rather than drop what was asked for.
     *
     * @param request name, lifetime, class and deadline
     * @param now     its creation time
     * @return the claim as stored
     * @throws ClaimExistsException if a live claim of that name exists in the pool
     * @throws UnsupportedOperationException if this store cannot keep a class or a deadline and one was asked for
     */
    default Claim submit(String pool, ClaimRequest request, Instant now) {
        if (!request.claimClass().equals(ClaimClass.DEFAULT) || request.deadline().isPresent()) {
            throw new UnsupportedOperationException(getClass().getSimpleName()
                    + " keeps no claim class or deadline; claim '" + request.name() + "' asked for one");
        }
        return submit(pool, request.name(), request.lifetime(), now);
    }

    /** A live claim by name. */
    Optional<Claim> find(String pool, String claimName);

    /** Every live claim of the pool, oldest first ((createdAt, name) order). */
    List<Claim> live(String pool);

    /** Live claims without a member, oldest first. */
    default List<Claim> pending(String pool) {
        return live(pool).stream().filter(c -> !c.isAssigned()).toList();
    }

    /**
     * Gives pending claim {@code claimName} member {@code memberId}.
     *
     * @return what happened; only {@link AssignOutcome#ASSIGNED} and {@link AssignOutcome#ALREADY_ASSIGNED}
     * (the same pair again, idempotent) mean the claim holds the member
     */
    AssignOutcome assign(String pool, String claimName, String memberId, Instant at);

    /**
     * Gives pending claim {@code claimName} member {@code memberId}, recording how it was served. Stores that keep
     * no outcome inherit this default, which assigns without it.
     *
     * @param claimName the claim
     * @param memberId  the member
     * @param at        the assignment time
     * @param outcome   how it was served (a served kind); empty when not judged
     * @return what happened, as {@link #assign(String, String, String, Instant)}
     */
    default AssignOutcome assign(String pool, String claimName, String memberId, Instant at, Optional<ClaimOutcome> outcome) {
        return assign(pool, claimName, memberId, at);
    }

    /**
     * Records that assigned claim {@code claimName} was handed its member at {@code readyAt}: the pool controller
     * confirmed the assignment on both the member and the claim. The first ready time stays.
     *
     * @param claimName the claim
     * @param readyAt   when the member was handed over; not before the claim's assignment
     * @return whether this call recorded it (false when the claim is not live, not assigned, or already ready)
     */
    boolean markReady(String pool, String claimName, Instant readyAt);

    /**
     * Ends a live claim (the claimer is done, or its lifetime ran out). Idempotent.
     *
     * @return whether the claim was live
     */
    boolean release(String pool, String claimName);

    /**
     * Ends claim {@code claimName} only if it is still pending (its deadline passed): a claim assigned meanwhile,
     * by this process or another, stays. The default finds and then releases, which a concurrent assignment can
     * slip between; the in-memory and PostgreSQL stores do it in one step.
     *
     * @param claimName the claim
     * @return whether a pending claim was ended
     */
    default boolean releasePending(String pool, String claimName) {
        Optional<Claim> claim = find(pool, claimName);
        return claim.isPresent() && !claim.get().isAssigned() && release(pool, claimName);
    }

    /**
     * Calls {@code onChange} after a claim of {@code pool} is submitted, assigned or released — by this
     * process or, for shared stores, by another — so a controller can wake instead of polling fast.
     *
     * @return a handle that stops the notifications
     */
    AutoCloseable watch(String pool, Runnable onChange);

    /** Result of {@link #assign}. */
    enum AssignOutcome {
        /** The claim now holds the member. */
        ASSIGNED,
        /** The claim already held this very member; nothing changed. */
        ALREADY_ASSIGNED,
        /** No live claim of that name. */
        CLAIM_NOT_FOUND,
        /** The claim already holds another member. */
        CLAIM_ALREADY_ASSIGNED,
        /** Another live claim holds the member. */
        MEMBER_TAKEN
    }
}
