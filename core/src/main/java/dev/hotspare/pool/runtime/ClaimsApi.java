package dev.hotspare.pool.runtime;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Claim.ClaimClass;
import dev.hotspare.pool.Claim.ClaimOutcome;
import dev.hotspare.pool.Claim.ClaimReason;
import dev.hotspare.pool.Claim.ClaimStages;
import dev.hotspare.pool.Claim.Reservation;
import dev.hotspare.pool.Claim.WaitStage;
import dev.hotspare.pool.ClaimRequest;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolPlanner;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.PoolController.ClaimExplanation;
import dev.hotspare.pool.runtime.PoolController.PoolDeletedException;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.ClaimStore.ClaimExistsException;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.pool.spi.MemberDriver.MemberNotFoundException;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

import static dev.hotspare.pool.runtime.PoolContext.attempt;
import static dev.hotspare.pool.runtime.ClaimTracking.isHandleOf;

/**
 * The pool controller's claims API: claim, reserve, confirm, release, withdraw and explain, and the end of lapsed
 * reservations. A claim is handed out at once where the {@link FastPath} can; otherwise it waits for a pass.
 */
final class ClaimsApi {

    private static final Logger LOG = LoggerFactory.getLogger(PoolController.class);
    /**
     * At most this many batches are submitted in one hold of the hand-out lock: passes get it in between, and the
     * holder's own caller waits for no more than that. Each hand-over of the lock costs a wake-up, so a busy pool
     * hands it over less often than once a batch.
     */
    private static final int BATCHES_PER_HOLD = 4;

    private final PoolContext ctx;
    private final ClaimTracking tracking;
    private final FastPath fastPath;
    private final MemberDriver driver;
    private final ClaimStore claims;
    private final TaskScheduler scheduler;
    private final PoolListener listener;
    private final TransitionTimes transitions;
    private final PoolSizing sizing;
    private final Map<String, ClaimHandle> handles;
    private final Map<String, ClaimTracking.Waiting> waiting;
    private final Map<String, ClaimTracking.Served> served;
    /** Claims whose threads wait for the hand-out lock or their answer: its next holder submits them all at once. */
    private final ConcurrentLinkedQueue<Arrival> arrivals;

    ClaimsApi(PoolContext ctx, ClaimTracking tracking, FastPath fastPath) {
        this.ctx = ctx;
        this.tracking = tracking;
        this.fastPath = fastPath;
        this.driver = ctx.driver;
        this.claims = ctx.claims;
        this.scheduler = ctx.scheduler;
        this.listener = ctx.listener;
        this.transitions = ctx.transitions;
        this.sizing = ctx.sizing;
        this.handles = tracking.handles;
        this.waiting = tracking.waiting;
        this.served = tracking.served;
        this.arrivals = fastPath.arrivals;
    }

    ClaimHandle claim(String claimName) {
        return claim(claimName, Optional.empty());
    }

    ClaimHandle claim(String claimName, Optional<Duration> lifetime) {
        PoolSpec current = ctx.spec;
        if (current.deleted()) {
            throw new PoolDeletedException(current.name(), claimName);
        }
        Names.requireDns1123Label("claimName", claimName);
        Objects.requireNonNull(lifetime, "lifetime");
        return submitAndHandOut(new Arrival(new ClaimRequest(claimName, lifetime, ClaimClass.DEFAULT, Optional.empty()),
                now -> claims.submit(current.name(), claimName, lifetime, now)));
    }

    ClaimHandle claim(ClaimRequest request) {
        Objects.requireNonNull(request, "request");
        PoolSpec current = ctx.spec;
        if (current.deleted()) {
            throw new PoolDeletedException(current.name(), request.name());
        }
        return submitAndHandOut(new Arrival(request, now -> claims.submit(current.name(), request, now)));
    }

    /**
     * A claim on its way in: what to submit, and what came of it. Written by whichever claim thread holds the hand-out
     * lock; read by the claim's own thread once {@link #answered} says so (the volatile write and read order the two).
     */
    static final class Arrival {
        final ClaimRequest request;
        /** How a batch of one is submitted: through the store method the caller's API maps to, as before batches. */
        final Function<Instant, Claim> submitAlone;
        /** The claim's own thread, parked until the claim is answered or the hand-out lock is free. */
        final Thread thread = Thread.currentThread();
        /** Set once submitted. */
        ClaimHandle handle;
        /** Set if it could not be submitted. */
        RuntimeException failure;
        /** Set last, once {@link #handle} or {@link #failure} is and the claim was handed out if it could be. */
        private volatile boolean answered;

        Arrival(ClaimRequest request, Function<Instant, Claim> submitAlone) {
            this.request = request;
            this.submitAlone = submitAlone;
        }

        boolean answered() {
            return answered;
        }

        /** Tells the claim's thread its answer is ready; one that was never submitted fails with {@code cause}. */
        void answer(Throwable cause) {
            if (handle == null && failure == null) {
                failure = new IllegalStateException("claim " + request.name()
                        + " was not submitted: an unexpected error stopped the batch it was in", cause);
            }
            answered = true;
            if (thread != Thread.currentThread()) {
                LockSupport.unpark(thread);
            }
        }
    }

    /**
     * The fast path. The claim joins the arrivals; the thread that then holds the hand-out lock submits every arrival
     * waiting (one store call for all of them: on PostgreSQL one round trip, however many claim threads arrived while
     * the previous holder waited on the database) and gives each claim (and any claim waiting before it) the member
     * {@link PoolPlanner#plan} would give it on this state, at once. The submit is under the lock, so claims are
     * handed out in the order the store dates them. A claim that gets no member here waits for a pass, which is
     * requested. A claim thread that finds the lock held parks until its claim is answered or the lock is released
     * ({@link FastPath#unlockHandOut}); it does not take the lock only to read an answer already given.
     */
    private ClaimHandle submitAndHandOut(Arrival mine) {
        arrivals.add(mine);
        boolean interrupted = false;
        while (!mine.answered()) {
            if (fastPath.handOutLock.tryLock()) {
                try {
                    // Whatever queued meanwhile goes too, a few batches at most, while this thread is running anyway.
                    for (int batches = 0; batches < BATCHES_PER_HOLD && !arrivals.isEmpty(); batches++) {
                        submitBatch(ctx.spec);
                    }
                } finally {
                    fastPath.unlockHandOut();
                }
            } else {
                // Woken once answered, or by the holder's unlock if this claim is still queued then.
                LockSupport.park(this);
                // Like waiting for a lock: an interrupt does not abandon a claim that may already be submitted.
                interrupted |= Thread.interrupted();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (mine.failure != null) {
            throw mine.failure;
        }
        return mine.handle;
    }

    /** Submits and hands out every claim queued now (hand-out lock), then answers each one's thread. */
    private void submitBatch(PoolSpec current) {
        List<Arrival> batch = new ArrayList<>();
        for (Arrival next; (next = arrivals.poll()) != null; ) {
            batch.add(next);
        }
        Throwable unexpected = null;
        try {
            submitAndHandOut(current, batch);
        } catch (RuntimeException | Error e) {
            unexpected = e;
            throw e;
        } finally {
            for (Arrival arrival : batch) {
                arrival.answer(unexpected);
            }
        }
    }

    /** Submits the arrivals (hand-out lock) and hands out what can be handed out now; each arrival is answered after. */
    private void submitAndHandOut(PoolSpec current, List<Arrival> batch) {
        try {
            Instant now = scheduler.clock().instant();
            List<Optional<Claim>> submitted = submit(current.name(), batch, now);
            boolean anySubmitted = false;
            for (int i = 0; i < batch.size(); i++) {
                Arrival arrival = batch.get(i);
                Optional<Claim> claim = submitted.get(i);
                if (claim.isEmpty()) {
                    if (arrival.failure == null) {
                        arrival.failure = new ClaimExistsException(current.name(), arrival.request.name());
                    }
                    continue;
                }
                anySubmitted = true;
                arrival.handle = new ClaimHandle(current.name(), claim.get().name(), claim.get().createdAt(), this::withdraw);
                handles.put(claim.get().name(), arrival.handle);
                // A claim served here earlier under this name has ended: its member is not this claim's.
                served.remove(claim.get().name());
                fastPath.claimPending(claim.get());
                // A pass at the deadline expires the claim on time, whatever the resync period.
                arrival.request.deadline().ifPresent(at -> scheduler.schedule(
                        Duration.between(now, at).isNegative() ? Duration.ZERO : Duration.between(now, at),
                        ctx::requestReconcile));
            }
            if (!anySubmitted) {
                return;
            }
            ctx.yields.claimSubmitted();
            fastPath.handOutNow(current, now);
            for (Arrival arrival : batch) {
                if (arrival.handle != null && handles.containsKey(arrival.request.name())) {
                    ctx.requestReconcile();
                    return;
                }
            }
        } catch (RuntimeException e) {
            // A claim not submitted fails with the store's error; a submitted one is live and keeps its handle.
            boolean anyLive = false;
            for (Arrival arrival : batch) {
                if (arrival.handle != null) {
                    anyLive = true;
                } else if (arrival.failure == null) {
                    arrival.failure = e;
                }
            }
            if (anyLive) {
                LOG.warn("pool {}: handing out claims at once failed; the next pass serves them: {}", current.name(), e.toString());
                ctx.requestReconcile();
            }
        }
    }

    /**
     * One store call for the batch: more than one through {@link ClaimStore#submitAll}, a batch of one through the
     * method its API maps to (so a store's own checks and errors are as before batches). Empty where the claim was not
     * submitted, its failure then set.
     */
    private List<Optional<Claim>> submit(String pool, List<Arrival> batch, Instant now) {
        List<Optional<Claim>> out = new ArrayList<>(batch.size());
        if (batch.size() > 1) {
            List<ClaimRequest> requests = new ArrayList<>(batch.size());
            batch.forEach(a -> requests.add(a.request));
            try {
                out.addAll(claims.submitAll(pool, requests, now));
            } catch (RuntimeException e) {
                LOG.debug("pool {}: submitting {} claims at once failed; submitting them one by one: {}", pool,
                        batch.size(), e.toString());
            }
        }
        // One alone, or what the store did not get to: one by one, so each caller hears its own claim's answer.
        for (Arrival rest : batch.subList(out.size(), batch.size())) {
            try {
                out.add(Optional.of(rest.submitAlone.apply(now)));
            } catch (RuntimeException e) {
                rest.failure = e;
                out.add(Optional.empty());
            }
        }
        return out;
    }

    /** Claims whose threads are waiting to be submitted; for tests. */
    int waitingToSubmit() {
        return arrivals.size();
    }

    ClaimHandle reserve(String key, Duration ttl) {
        Reservation.requireValidKey(key);
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative() || ttl.isZero()) {
            throw new ValidationException(Problem.of("ttl", ttl, "must be positive"));
        }
        PoolSpec current = ctx.spec;
        String pool = current.name();
        String fresh = reservationClaimName(key);
        if (current.deleted()) {
            throw new PoolDeletedException(pool, fresh);
        }
        // Under the hand-out lock like claim(): the fast path learns of the reservation's claim in the order the store
        // dates it, and serves it as a pass would.
        fastPath.handOutLock.lock();
        try {
            return reserveLocked(current, key, fresh, ttl);
        } finally {
            fastPath.unlockHandOut();
        }
    }

    private ClaimHandle reserveLocked(PoolSpec current, String key, String fresh, Duration ttl) {
        String pool = current.name();
        Instant now = scheduler.clock().instant();
        Reservation reservation = claims.reserve(pool, key, ClaimRequest.of(fresh), ttl, now);
        ctx.yields.claimSubmitted();
        Claim claim = reservation.claim();
        ClaimHandle known = handles.get(claim.name());
        if (known != null && isHandleOf(known, claim)) {
            return known;
        }
        ClaimHandle handle = new ClaimHandle(pool, claim.name(), claim.createdAt(), this::withdraw);
        if (claim.assignedMember().isPresent()) {
            // A retry after the member was handed out: the same member, at once.
            Optional<Member> member = driver.find(pool, claim.assignedMember().get());
            if (member.isPresent() && handle.settle()) {
                handle.serve(member.get());
                claim.outcome().ifPresent(handle::ended);
                return handle;
            }
        }
        handles.put(claim.name(), handle);
        if (!reservation.confirmed()) {
            // A pass when the time runs out ends the reservation on time, whatever the resync period.
            Duration left = Duration.between(now, reservation.expiresAt());
            scheduler.schedule(left.isNegative() ? Duration.ZERO : left, ctx::requestReconcile);
        }
        if (claim.assignedMember().isEmpty()) {
            fastPath.claimPending(claim);
            fastPath.handOutNow(current, now);
        }
        if (handles.containsKey(claim.name())) {
            ctx.requestReconcile();
        }
        return handle;
    }

    Optional<Reservation> confirm(String key) {
        Reservation.requireValidKey(key);
        return claims.confirm(ctx.spec.name(), key, scheduler.clock().instant());
    }

    /** A fresh DNS-1123 claim name for a reservation: the key's hash for the reader, a random part for uniqueness. */
    private static String reservationClaimName(String key) {
        return String.format("rsv-%08x-%016x", key.hashCode(), java.util.concurrent.ThreadLocalRandom.current().nextLong());
    }

    /**
     * Ends reservations whose time ran out: each claim is gone from the store first (a confirm racing it loses),
     * then the member it held is marked released; a mark that fails leaves a member naming a gone claim, which the
     * plan deletes as an orphan.
     */
    void expireReservations(String pool, Instant now) {
        List<Reservation> ended;
        try {
            ended = claims.expireReservations(pool, now);
        } catch (RuntimeException e) {
            LOG.warn("pool {}: ending lapsed reservations failed; the next pass retries: {}", pool, e.toString());
            return;
        }
        for (Reservation r : ended) {
            Claim claim = r.claim();
            LOG.info("pool {}: reservation {} (claim {}) was not confirmed by {}; ending it", pool, r.key(), claim.name(),
                    r.expiresAt());
            fastPath.forgetClaim(claim.name());
            claim.assignedMember().ifPresent(memberId -> attempt(pool, "mark " + memberId + " released (reservation lapsed)",
                    () -> driver.markReleased(pool, memberId, now)));
            ClaimHandle handle = handles.remove(claim.name());
            if (handle != null) {
                handle.end();
            }
            waiting.remove(claim.name());
            served.remove(claim.name());
            if (!claim.isAssigned()) {
                listener.claimEnded(pool, claim.name(), ClaimOutcome.WITHDRAWN);
                if (handle != null) {
                    handle.ended(ClaimOutcome.WITHDRAWN);
                }
            }
        }
    }

    boolean release(ClaimHandle handle) {
        return release(handle.name());
    }

    boolean release(String claimName) {
        Objects.requireNonNull(claimName, "claimName");
        // Not under the pass lock (issue 22, pass cost: releases queued behind whole passes held members for seconds at
        // 10,000 claims/s). The release mark goes on the member before the claim ends, so a pass that read either
        // record before or after sees a claimed member, a released one, or an orphan it confirms by name before it
        // deletes it; an assignment the pass writes for a claim ended meanwhile is answered CLAIM_NOT_FOUND and its
        // member marked released.
        String pool = ctx.spec.name();
        // A claim served here holds the member it was given (a claim's member never changes): no read (issue 22, the
        // release's second round trip on PostgreSQL). Any other claim is read first, to find its member.
        ClaimTracking.Served servedHere = served.get(claimName);
        Optional<Claim> claim = servedHere != null ? Optional.empty() : claims.find(pool, claimName);
        List<String> members = servedHere != null ? List.of(servedHere.memberId()) : membersOf(pool, claimName, claim);
        Instant now = scheduler.clock().instant();
        for (String memberId : members) {
            try {
                driver.markReleased(pool, memberId, now);
            } catch (MemberNotFoundException gone) {
                // nothing left to delete
            }
        }
        boolean wasLive = claims.release(pool, claimName);
        ClaimHandle handle = handles.remove(claimName);
        if (handle != null) {
            handle.end();
        }
        if (wasLive && claim.isPresent() && !claim.get().isAssigned()) {
            listener.claimEnded(pool, claimName, ClaimOutcome.WITHDRAWN);
            if (handle != null) {
                handle.ended(ClaimOutcome.WITHDRAWN);
            }
        }
        waiting.remove(claimName);
        served.remove(claimName);
        fastPath.forgetClaim(claimName);
        ctx.requestReconcile();
        return wasLive;
    }

    /** The members to mark when {@code claimName} is released: its recorded member, or members naming it. */
    private List<String> membersOf(String pool, String claimName, Optional<Claim> claim) {
        if (claim.isPresent() && claim.get().assignedMember().isPresent()) {
            return List.of(claim.get().assignedMember().get());
        }
        List<String> out = new ArrayList<>();
        for (Member m : driver.list(pool)) {
            if (m.claimName().filter(claimName::equals).isPresent() && !m.isReleased()
                    && m.phase() != MemberPhase.DELETING && (claim.isEmpty() || m.serves(claim.get()))) {
                out.add(m.id());
            }
        }
        return out;
    }

    /** A handle was cancelled by its holder: the claim is withdrawn. */
    boolean withdraw(ClaimHandle handle) {
        try {
            // Only this handle's claim: a claim made later under the same name is someone else's.
            Optional<Claim> claim = claims.find(handle.pool(), handle.name());
            if (claim.isEmpty() || !isHandleOf(handle, claim.get())) {
                handles.remove(handle.name(), handle);
                return false;
            }
            return release(handle.name());
        } catch (RuntimeException e) {
            LOG.warn("pool {}: withdrawing claim {} failed; release it again: {}", handle.pool(), handle.name(), e.toString());
            return false;
        }
    }

    Optional<ClaimExplanation> explain(String claimName) {
        Objects.requireNonNull(claimName, "claimName");
        PoolSpec current = ctx.spec;
        String pool = current.name();
        Optional<Claim> found = claims.find(pool, claimName);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        Claim claim = found.get();
        Instant now = scheduler.clock().instant();
        if (claim.assignedMember().isPresent()) {
            String holder = claim.assignedMember().get();
            boolean deleting = driver.list(pool).stream()
                    .anyMatch(m -> m.id().equals(holder) && m.phase() == MemberPhase.DELETING);
            ClaimReason held = deleting ? new ClaimReason.MemberDeleting(holder)
                    : new ClaimReason.Assigned(holder, claim.assignedAt().orElseThrow(), claim.readyAt());
            ClaimStages waited = Optional.ofNullable(served.get(claimName)).map(ClaimTracking.Served::stages)
                    .orElse(ClaimStages.NONE);
            return Optional.of(new ClaimExplanation(pool, claim, held, waited));
        }
        List<Member> members = ctx.unique(driver.list(pool));
        List<Claim> live = ctx.uniqueClaims(claims.live(pool));
        if (live.stream().noneMatch(c -> c.name().equals(claimName))) {
            live.add(claim);
        }
        PoolPlan plan;
        synchronized (transitions) {
            plan = PoolPlanner.plan(sizing.effectiveFor(current), members, live, now, transitions.typical());
        }
        ClaimReason reason = plan.reasonFor(claimName)
                .or(() -> plan.assignments().stream().filter(a -> a.claimName().equals(claimName)).findFirst()
                        .map(a -> new ClaimReason.Assigning(a.memberId())))
                .or(() -> members.stream().filter(m -> m.serves(claim)).findFirst()
                        .map(m -> new ClaimReason.Assigned(m.id(), m.claimedAt().orElse(now), Optional.empty())))
                .orElse(new ClaimReason.Queued(0));
        ClaimTracking.Waiting w = waiting.get(claimName);
        ClaimStages waited = w != null ? w.until(now) : ClaimStages.NONE.plus(WaitStage.QUEUE, Duration.between(claim.createdAt(), now));
        return Optional.of(new ClaimExplanation(pool, claim, reason, waited));
    }
}
