package dev.hotspare.pool.spi;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Claim.ClaimClass;
import dev.hotspare.pool.Claim.ClaimOutcome;
import dev.hotspare.pool.Claim.Reservation;
import dev.hotspare.pool.ClaimRequest;
import dev.hotspare.pool.sizing.SizingHistory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
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

    /**
     * Records new pending claims, each as {@link #submit(String, ClaimRequest, Instant)} would, all created at
     * {@code now}: a pool controller submits the claims that arrived while it was busy in one call. The default
     * submits them one by one and stops at the first that fails; PostgreSQL writes them all in one statement.
     *
     * @param requests the claims, in the order to date them (they share {@code now}; equal times are served by name)
     * @return one entry per request, in the same order: the claim as stored, or empty if a live claim of that name
     *         exists (a name given twice is submitted once, for its first request). It may stop early, even before
     *         the first: the requests after its last entry were not submitted (the caller submits them one by one,
     *         and so learns each one's own error)
     * @throws RuntimeException if the store failed; PostgreSQL then submitted none of them
     */
    default List<Optional<Claim>> submitAll(String pool, List<ClaimRequest> requests, Instant now) {
        Objects.requireNonNull(requests, "requests");
        Objects.requireNonNull(now, "now");
        List<Optional<Claim>> out = new ArrayList<>(requests.size());
        for (ClaimRequest request : requests) {
            try {
                out.add(Optional.of(submit(pool, request, now)));
            } catch (ClaimExistsException taken) {
                out.add(Optional.empty());
            } catch (RuntimeException e) {
                break;
            }
        }
        return List.copyOf(out);
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
     * Applies a batch of assignments, each as {@link #assign(String, String, String, Instant, Optional)}, and marks
     * every claim that then holds its member ready at {@code readyAt} (or at its assignment, if later): the caller
     * wrote each member's record first, so both records agree once this returns. The default applies them one by
     * one; PostgreSQL applies the whole batch in one statement. If it throws, any prefix of the batch may have been
     * written (one by one) or none (PostgreSQL); a pass reading the store afterwards settles it.
     *
     * @param assignments the pairs, each claim and each member at most once
     * @param readyAt     when the members were handed over
     * @return one outcome per assignment, in the same order
     */
    default List<AssignOutcome> assignAll(String pool, List<Assignment> assignments, Instant readyAt) {
        Objects.requireNonNull(readyAt, "readyAt");
        List<AssignOutcome> out = new ArrayList<>(assignments.size());
        for (Assignment a : assignments) {
            AssignOutcome outcome = assign(pool, a.claimName(), a.memberId(), a.at(), a.outcome());
            if (outcome == AssignOutcome.ASSIGNED || outcome == AssignOutcome.ALREADY_ASSIGNED) {
                markReady(pool, a.claimName(), readyAt.isAfter(a.at()) ? readyAt : a.at());
            }
            out.add(outcome);
        }
        return List.copyOf(out);
    }

    /**
     * Reserves: the first phase of a two-phase claim. While a claim reserved under {@code key} is live (reserved
     * and not expired at {@code now}, or confirmed) it is returned as it is — whatever {@code request} says.
     * Otherwise the claim {@code request} describes is submitted, reserved until {@code now + ttl}; an expired
     * reservation under the key is ended first. A reservation not {@link #confirm confirmed} by then ends by
     * itself ({@link #expireReservations}). Stores without reservations inherit this default, which refuses.
     *
     * @param key     the claimer's idempotency key ({@link Reservation#requireValidKey})
     * @param request the claim to make when the key has no live reservation; its name must be unused
     * @param ttl     how long the reservation waits for its confirmation; positive
     * @throws UnsupportedOperationException if this store keeps no reservations
     */
    default Reservation reserve(String pool, String key, ClaimRequest request, Duration ttl, Instant now) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no reservations");
    }

    /**
     * Confirms the reservation under {@code key}: its claim becomes an ordinary claim that no longer expires as a
     * reservation. Idempotent: confirming a confirmed reservation returns it unchanged.
     *
     * @return the confirmed reservation, or empty when the key has no live reservation at {@code now} (never made,
     *         expired, or its claim ended)
     * @throws UnsupportedOperationException if this store keeps no reservations
     */
    default Optional<Reservation> confirm(String pool, String key, Instant now) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no reservations");
    }

    /**
     * The live reservation under {@code key} (reserved and not expired at {@code now}, or confirmed).
     *
     * @throws UnsupportedOperationException if this store keeps no reservations
     */
    default Optional<Reservation> findReservation(String pool, String key, Instant now) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no reservations");
    }

    /**
     * Ends every unconfirmed reservation of {@code pool} whose time ran out at {@code now}, with its claim, in one
     * step each: a concurrent {@link #confirm} either wins (the reservation stays, confirmed) or finds it gone.
     * Stores without reservations have none to end.
     *
     * @return the reservations ended, with their claims as they were (the member each held, if any, is the caller's
     *         to give back)
     */
    default List<Reservation> expireReservations(String pool, Instant now) {
        return List.of();
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
     * The claim history this store keeps for a pool's sizer, so a controller started again (or another one taking
     * the pool over) sizes from the days already seen instead of learning from nothing: when the pool began to be
     * watched ({@link #recordSizingStart}), the arrivals of claims submitted at or after {@code from}, and the waits
     * of those marked ready ({@link #markReady}: ready time minus creation time). The default keeps none: a store
     * whose claims live and die with the process has nothing to hand over.
     *
     * @param from the oldest arrival wanted (the sizer keeps {@link SizingHistory#KEPT})
     * @return the history, or empty when this store keeps none (or none for this pool)
     */
    default Optional<SizingHistory> sizingHistory(String pool, Instant from) {
        return Optional.empty();
    }

    /**
     * Records that a controller began watching {@code pool} for its sizer at {@code since}; the first record stays
     * (a restarted controller keeps the original start, so its profile has as many days as before). The default
     * keeps nothing, like {@link #sizingHistory}.
     *
     * @param since when its controller's sizer first saw it
     */
    default void recordSizingStart(String pool, Instant since) {
    }

    /**
     * Calls {@code onChange} after a claim of {@code pool} is submitted, assigned or released — by this
     * process or, for shared stores, by another — so a controller can wake instead of polling fast.
     *
     * @return a handle that stops the notifications
     */
    AutoCloseable watch(String pool, Runnable onChange);

    /**
     * One pair of a batch for {@link #assignAll}.
     *
     * @param claimName the pending claim
     * @param memberId  the member it gets
     * @param at        the assignment time
     * @param outcome   how it was served; empty when not judged
     */
    record Assignment(String claimName, String memberId, Instant at, Optional<ClaimOutcome> outcome) {
        /** @throws NullPointerException naming the missing part */
        public Assignment {
            Objects.requireNonNull(claimName, "claimName");
            Objects.requireNonNull(memberId, "memberId");
            Objects.requireNonNull(at, "at");
            Objects.requireNonNull(outcome, "outcome");
        }
    }

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

    /** A claim was submitted under a name a live claim of the same pool already has. */
    public static final class ClaimExistsException extends RuntimeException {

        private final String claimName;

        public ClaimExistsException(String pool, String claimName) {
            super("claimName: bad value '" + claimName + "': a live claim of that name exists in pool '" + pool + "'");
            this.claimName = claimName;
        }

        public String claimName() {
            return claimName;
        }
    }
}
