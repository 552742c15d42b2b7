package dev.hotspare.pool.runtime;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.ClaimOutcome;
import dev.hotspare.pool.ClaimRequest;
import dev.hotspare.pool.ClaimReason;
import dev.hotspare.pool.ClaimService;
import dev.hotspare.pool.ClaimStages;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.MemberPhase;
import dev.hotspare.pool.MemberState;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolPlanner;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.Reservation;
import dev.hotspare.pool.ScaleOperation;
import dev.hotspare.pool.TypicalDurations;
import dev.hotspare.pool.WaitStage;
import dev.hotspare.pool.sizing.SizingDecision;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.MemberAlreadyClaimedException;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.pool.spi.MemberNotFoundException;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs one pool: observe (members from the {@link MemberDriver}, claims from the {@link ClaimStore}) →
 * plan ({@link PoolPlanner}) → apply exactly what the plan says. Level-triggered and idempotent: it
 * reconciles on a period and whenever a member or claim changes, and a failed action is simply retried by
 * the next pass.
 *
 * <p>Users claim members with {@link #claim}, give them back with {@link #release} (or by cancelling the
 * handle), ask {@link #explain} why a claim waits, and wind the pool down with {@link #delete}. Releasing marks
 * the member released before the claim ends, so the member is deleted because it was released — never because a
 * claim was missing from one read of the claim store.
 *
 * <p>Inconsistent member and claim records (an assignment cut short between its two writes, a claim record naming
 * a member that does not know it, duplicates) are repaired before planning or reported and left alone; no record
 * makes a pass fail for good.
 */
public final class PoolController implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PoolController.class);

    private final MemberDriver driver;
    private final ClaimStore claims;
    private final TaskScheduler scheduler;
    private final Duration resyncPeriod;
    private final Duration closeTimeout;
    /** The plan listener and the KPI listener in one, guarded. */
    private final PoolListener listener;
    private volatile PoolSpec spec;

    private final Map<String, ClaimHandle> handles = new ConcurrentHashMap<>();
    /** Whether this instance owns the pool now: only the owner plans and changes members and claims. */
    private final java.util.function.BooleanSupplier owned;
    private final AtomicBoolean reconcileQueued = new AtomicBoolean();
    /** Held for a whole pass (and by close, to wait for one); releases and the fast path do not take it. */
    private final ReentrantLock passLock = new ReentrantLock();
    private final List<AutoCloseable> subscriptions = new ArrayList<>();
    private final TransitionTimes transitions = new TransitionTimes();
    /** Waiting claims: the stage of their current reason, since when, and what they waited before (pass lock). */
    private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();
    /** Served claims' whole wait by stage, kept while they are live (for explain). */
    private final Map<String, ClaimStages> served = new ConcurrentHashMap<>();
    private final CompletableFuture<Void> deleted = new CompletableFuture<>();
    private TaskScheduler.Cancellable periodic;
    private volatile PoolPlan lastPlan;
    /** The auto-sizer's state and decisions. */
    private final PoolSizing sizing;
    /** The spec as the last pass planned with: the spec, with the sized running count when sizing is applied. */
    private volatile PoolSpec effective;
    private volatile boolean closed;
    /** Set by {@link #start()}: only a started controller hands out between passes. */
    private volatile boolean started;
    private boolean emptyReadWarned;

    /**
     * Guards the hand-out index and the fast path: a claim takes its member under this lock, never under the pass
     * lock, so it never waits for a pass. Order: pass lock, then this one.
     */
    private final ReentrantLock handOutLock = new ReentrantLock();
    /** Replaced by each pass with one built from its read (hand-out lock). */
    private HandOut handOut = new HandOut();
    /** Whether a pass has read the stores and not yet rebuilt the index from that read (hand-out lock). */
    private boolean readInFlight;
    /** What the fast path did since the running pass's read began (hand-out lock): served claims and their members. */
    private final List<HandOut.Pair> servedSinceRead = new ArrayList<>();
    /** Claims submitted since the running pass's read began and not served yet (hand-out lock). */
    private final Map<String, Claim> submittedSinceRead = new LinkedHashMap<>();
    /** Claims ended since the running pass's read began (hand-out lock): the read still lists them. */
    private final Set<String> goneSinceRead = new HashSet<>();
    /** When the index was last rebuilt from a whole read (hand-out lock); between rebuilds it follows deltas. */
    private Instant lastIndexRebuild;
    /** The members as the passes read them, kept between passes (pass lock): no whole-pool map per pass. */
    private final MemberTable table = new MemberTable();

    /** A waiting claim's stage since {@code since}, and its wait by stage before that. */
    private record Waiting(WaitStage stage, Instant since, ClaimStages before) {
        ClaimStages until(Instant now) {
            return before.plus(stage, Duration.between(since, now));
        }
    }

    private PoolController(Builder b) {
        this.spec = b.spec;
        this.driver = b.driver;
        this.claims = b.claims;
        this.scheduler = b.scheduler;
        this.resyncPeriod = b.resyncPeriod;
        this.closeTimeout = b.closeTimeout;
        this.listener = PoolListener.guarded(b.listener);
        this.sizing = new PoolSizing(b.sizingInterval, listener, claims);
        this.effective = b.spec;
        this.owned = b.owned;
    }

    /**
     * A controller for {@code spec}; its member driver and claim store are in memory until replaced, and
     * {@link Builder#scheduler} is the one required setting.
     *
     * @param spec the pool
     * @return a builder whose {@link Builder#build()} checks every setting
     */
    public static Builder builder(PoolSpec spec) {
        return new Builder(spec);
    }

    /**
     * Subscribes to member and claim changes and starts the periodic resync. Reconciles once right away.
     *
     * @return this controller
     */
    public synchronized PoolController start() {
        if (periodic != null || closed) {
            return this;
        }
        String pool = spec.name();
        subscriptions.add(driver.watch(pool, event -> {
            memberEvent(event);
            requestReconcile();
        }));
        subscriptions.add(claims.watch(pool, this::requestReconcile));
        periodic = scheduler.scheduleAtFixedRate(Duration.ZERO, resyncPeriod, this::reconcileQuietly);
        started = true;
        return this;
    }

    /**
     * The pool's spec as currently applied.
     */
    public PoolSpec spec() {
        return spec;
    }

    /**
     * Replaces the spec (e.g. a new runningCount); takes effect on the next pass, which is requested now. A spec
     * with {@code deleted: true} deletes the pool like {@link #delete()}; a deleted pool cannot be revived.
     *
     * @param newSpec the spec, for the same pool
     * @throws ValidationException if it names another pool, or revives a deleted one
     */
    public void updateSpec(PoolSpec newSpec) {
        PoolSpec current = spec;
        if (!newSpec.name().equals(current.name())) {
            throw new ValidationException(Problem.of("name", newSpec.name(), "a controller runs one pool, '" + current.name() + "'"));
        }
        if (current.deleted() && !newSpec.deleted()) {
            throw new ValidationException(Problem.of("deleted", false, "pool '" + current.name() + "' is being deleted and cannot be revived"));
        }
        this.spec = newSpec;
        requestReconcile();
    }

    /**
     * Claims a member with the pool's default lifetime.
     *
     * @param claimName a DNS-1123 label, unique among the pool's live claims
     * @return the handle; its future completes when a member is assigned
     * @throws dev.hotspare.pool.spi.ClaimExistsException if a live claim of that name exists
     * @throws PoolDeletedException                        if the pool is being deleted
     */
    public ClaimHandle claim(String claimName) {
        return claim(claimName, Optional.empty());
    }

    /**
     * Submits a claim and returns at once; the handle's future completes when a running member is assigned,
     * oldest claim first.
     *
     * @param claimName a DNS-1123 label, unique among the pool's live claims
     * @param lifetime  how long it wants its member (capped by the pool's maximum); empty for the pool's default
     * @throws dev.hotspare.pool.spi.ClaimExistsException if a live claim of that name exists
     * @throws PoolDeletedException                        if the pool is being deleted
     */
    public ClaimHandle claim(String claimName, Optional<Duration> lifetime) {
        PoolSpec current = spec;
        if (current.deleted()) {
            throw new PoolDeletedException(current.name(), claimName);
        }
        return submitAndHandOut(current, claimName, Optional.empty(),
                now -> claims.submit(current.name(), claimName, lifetime, now));
    }

    /**
     * Submits a claim with a class and a deadline and returns at once. Pending claims are served in
     * {@link PoolPlanner#serviceOrder}: higher class first, oldest first within a class, and a claim that has waited
     * the pool's {@code agingLimit} before every younger one. A claim still pending at its deadline expires: it is
     * removed from the claim store and its handle's future completes exceptionally with a
     * {@link ClaimExpiredException}.
     *
     * @param request name, lifetime, class and deadline
     * @return the handle; its future completes when a member is assigned
     * @throws dev.hotspare.pool.spi.ClaimExistsException if a live claim of that name exists
     * @throws PoolDeletedException                        if the pool is being deleted
     * @throws UnsupportedOperationException               if the claim store keeps no class or deadline and one was asked for
     */
    public ClaimHandle claim(ClaimRequest request) {
        Objects.requireNonNull(request, "request");
        PoolSpec current = spec;
        if (current.deleted()) {
            throw new PoolDeletedException(current.name(), request.name());
        }
        return submitAndHandOut(current, request.name(), request.deadline(), now -> claims.submit(current.name(), request, now));
    }

    /**
     * The fast path. Submits the claim and, under the hand-out lock, gives it (and any claim waiting before it) the
     * member {@link PoolPlanner#plan} would give it on this state, at once: the submit is under the same lock, so
     * claims are handed out in the order the store dates them. A claim that gets no member here waits for a pass,
     * which is requested.
     */
    private ClaimHandle submitAndHandOut(PoolSpec current, String claimName, Optional<Instant> deadline,
                                         java.util.function.Function<Instant, Claim> submit) {
        handOutLock.lock();
        try {
            Instant now = scheduler.clock().instant();
            Claim claim = submit.apply(now);
            ClaimHandle handle = new ClaimHandle(current.name(), claimName, claim.createdAt(), this::withdraw);
            handles.put(claimName, handle);
            handOut.claimPending(claim);
            if (readInFlight) {
                submittedSinceRead.put(claimName, claim);
            }
            // A pass at the deadline expires the claim on time, whatever the resync period.
            deadline.ifPresent(at -> scheduler.schedule(
                    Duration.between(now, at).isNegative() ? Duration.ZERO : Duration.between(now, at),
                    this::requestReconcile));
            handOutNow(current, now);
            if (handles.containsKey(claimName)) {
                requestReconcile();
            }
            return handle;
        } finally {
            handOutLock.unlock();
        }
    }

    /** Serves what the index says can be served now; a member another writer took is dropped and the next tried. */
    private void handOutNow(PoolSpec current, Instant now) {
        if (closed || !started || current.deleted() || !owned.getAsBoolean()) {
            return;
        }
        String pool = current.name();
        Duration agingLimit = current.agingLimit();
        for (int round = 0; round < 8; round++) {
            List<HandOut.Pair> pairs = handOut.next(agingLimit, now);
            if (pairs.isEmpty()) {
                return;
            }
            boolean conflict = false;
            for (HandOut.Pair pair : pairs) {
                if (!serveNow(pool, pair, now)) {
                    conflict = true;
                    break;
                }
            }
            if (!conflict) {
                return;
            }
        }
    }

    /**
     * Writes one hand-out through the same two writes a pass makes (member, then claim record). Returns false when
     * the member turned out taken or gone, so the caller tries the next; every other failure is left to the pass.
     */
    private boolean serveNow(String pool, HandOut.Pair pair, Instant now) {
        Claim claim = pair.claim();
        Member member = pair.member();
        try {
            driver.assign(pool, member.id(), claim.name(), now);
        } catch (MemberAlreadyClaimedException | MemberNotFoundException lost) {
            handOut.drop(member.id());
            return false;
        } catch (RuntimeException e) {
            LOG.warn("pool {}: handing {} to {} failed; the next pass retries: {}", pool, member.id(), claim.name(), e.toString());
            handOut.drop(member.id());
            requestReconcile();
            return true;
        }
        // The member names the claim now: whatever the claim store answers, it is no longer free.
        handOut.handedOut(claim, member, now);
        if (readInFlight) {
            // The records as they are now, so the index rebuilt from the pass's older read is brought up to date.
            servedSinceRead.add(new HandOut.Pair(claim.assigned(member.id(), now), member.assignedTo(claim.name(), now)));
            submittedSinceRead.remove(claim.name());
        }
        PoolPlan.Assignment assignment = new PoolPlan.Assignment(claim.name(), member.id(), now,
                "handed out at once: first claim in service order gets the oldest running member");
        if (writeAssignment(pool, assignment, member, claim.createdAt(), now, false) && spec.autoSizing().isPresent()) {
            sizing.servedAtOnce(claim);
        }
        return true;
    }

    /** What the fast path would hand out now (claim->member), without handing it out; for tests. */
    List<String> wouldHandOut() {
        handOutLock.lock();
        try {
            return HandOut.names(handOut.next(spec.agingLimit(), scheduler.clock().instant()));
        } finally {
            handOutLock.unlock();
        }
    }

    /** A member changed: the index follows at once (a pass, requested too, rebuilds it from a full read). */
    private void memberEvent(MemberDriver.MemberEvent event) {
        handOutLock.lock();
        try {
            if (event instanceof MemberDriver.MemberEvent.Added added) {
                handOut.memberChanged(added.member());
            } else if (event instanceof MemberDriver.MemberEvent.Updated updated) {
                handOut.memberChanged(updated.member());
            } else if (event instanceof MemberDriver.MemberEvent.Removed removed) {
                handOut.memberRemoved(removed.memberId());
            }
        } finally {
            handOutLock.unlock();
        }
    }

    /** A claim ended: it waits no more. */
    private void forgetClaim(String claimName) {
        handOutLock.lock();
        try {
            handOut.claimGone(claimName);
            submittedSinceRead.remove(claimName);
            if (readInFlight) {
                goneSinceRead.add(claimName);
            }
        } finally {
            handOutLock.unlock();
        }
    }

    /** A pass is about to read the stores: from now on the fast path notes what it does, for this pass to leave alone. */
    private void beginRead() {
        handOutLock.lock();
        try {
            readInFlight = true;
            servedSinceRead.clear();
            submittedSinceRead.clear();
            goneSinceRead.clear();
        } finally {
            handOutLock.unlock();
        }
    }

    /**
     * Brings the pass's plan and the fast path together. The plan leaves alone every claim and member the fast path
     * served since the read (the read may predate it); the index is rebuilt from the read, with what the fast path did
     * since laid over it, and loses every member this plan acts on (assigns, deletes, hibernates) and every claim it
     * assigns or releases, so the two never hand out or change the same thing.
     */
    private PoolPlan settleWithFastPath(PoolPlan plan, List<Member> members, List<Claim> live, Instant now) {
        // Issue 22, pass cost: the index follows member events and claim changes, and each pass brings its claims up
        // to the read (O(live claims)); a rebuild from the whole read runs once per resync period, for safety. It is
        // built outside the lock (it walks the whole pool): claims never wait for it.
        boolean rebuild = rebuildDue(now);
        HandOut fresh = null;
        if (rebuild) {
            fresh = new HandOut();
            fresh.rebuild(members, live);
        }
        handOutLock.lock();
        try {
            readInFlight = false;
            PoolPlan settled = plan;
            if (!servedSinceRead.isEmpty()) {
                Set<String> taken = new HashSet<>();
                Set<String> servedClaims = new HashSet<>();
                for (HandOut.Pair p : servedSinceRead) {
                    taken.add(p.member().id());
                    servedClaims.add(p.claim().name());
                }
                settled = without(plan, servedClaims, taken);
            }
            if (rebuild) {
                handOut = fresh;
                lastIndexRebuild = now;
                for (HandOut.Pair p : servedSinceRead) {
                    handOut.claimChanged(p.claim());
                    handOut.memberChanged(p.member());
                }
                for (Claim c : submittedSinceRead.values()) {
                    handOut.claimPending(c);
                }
                for (String name : goneSinceRead) {
                    handOut.claimGone(name);
                }
            } else {
                Set<String> newer = new HashSet<>(goneSinceRead);
                newer.addAll(submittedSinceRead.keySet());
                servedSinceRead.forEach(p -> newer.add(p.claim().name()));
                handOut.syncClaims(live, newer);
            }
            servedSinceRead.clear();
            submittedSinceRead.clear();
            goneSinceRead.clear();
            for (PoolPlan.Assignment a : settled.assignments()) {
                handOut.claimGone(a.claimName());
                handOut.drop(a.memberId());
            }
            for (PoolPlan.Release r : settled.releases()) {
                handOut.claimGone(r.claimName());
            }
            for (PoolPlan.Delete d : settled.deletes()) {
                handOut.drop(d.memberId());
            }
            for (PoolPlan.PowerChange change : settled.powerChanges()) {
                if (change.to() == dev.hotspare.pool.DesiredPower.HIBERNATING) {
                    handOut.drop(change.memberId());
                }
            }
            return settled;
        } finally {
            handOutLock.unlock();
        }
    }

    /** Whether the hand-out index is due for a rebuild from a whole read: first pass, then once per resync period. */
    private boolean rebuildDue(Instant now) {
        handOutLock.lock();
        try {
            return lastIndexRebuild == null || !now.isBefore(lastIndexRebuild.plus(resyncPeriod)) || now.isBefore(lastIndexRebuild);
        } finally {
            handOutLock.unlock();
        }
    }

    /** Whether the hand-out index equals one rebuilt from the stores now; for tests (call with no pass running). */
    boolean handOutMatchesRebuild() {
        handOutLock.lock();
        try {
            HandOut fresh = new HandOut();
            fresh.rebuild(unique(driver.list(spec.name())), uniqueClaims(claims.live(spec.name())));
            return fresh.snapshot().equals(handOut.snapshot());
        } finally {
            handOutLock.unlock();
        }
    }

    /** {@code plan} without what concerns claims or members the fast path handed out after the pass's read. */
    private static PoolPlan without(PoolPlan plan, Set<String> claimNames, Set<String> memberIds) {
        return new PoolPlan(
                plan.releases().stream().filter(r -> !claimNames.contains(r.claimName())).toList(),
                plan.assignments().stream().filter(a -> !claimNames.contains(a.claimName()) && !memberIds.contains(a.memberId())).toList(),
                plan.powerChanges().stream().filter(c -> !memberIds.contains(c.memberId())).toList(),
                plan.orphanMarks().stream().filter(o -> !memberIds.contains(o.memberId())).toList(),
                plan.deletes().stream().filter(d -> !memberIds.contains(d.memberId())).toList(),
                plan.creates(),
                plan.reasons().stream().filter(r -> !claimNames.contains(r.claimName())).toList(),
                plan.orphans(),
                plan.status());
    }

    /**
     * Reserves a member: the first phase of a two-phase claim. The handle's future completes with the member once
     * one is assigned, exactly as for {@link #claim}; the claimer then {@link #confirm confirms} within {@code ttl}
     * (from the first reserve under the key), or the reservation ends by itself at the first pass after that time:
     * its claim ends and the member it held is marked released, so it is deleted and the pool refills (the claimer
     * may have seen and used it; it is never handed to another claimer). Idempotent: while the reservation (or the
     * claim it became) is live, the same key answers with the same claim and, once assigned, the same member —
     * whichever controller of the pool is asked, and however often; {@code ttl} then changes nothing.
     *
     * @param key an idempotency key ({@link Reservation#requireValidKey}): the claimer's request id, say
     * @param ttl how long the reservation waits for its confirmation; positive
     * @throws ValidationException          naming {@code key} or {@code ttl} when one is invalid
     * @throws PoolDeletedException          if the pool is being deleted
     * @throws UnsupportedOperationException if the claim store keeps no reservations
     */
    public ClaimHandle reserve(String key, Duration ttl) {
        Reservation.requireValidKey(key);
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative() || ttl.isZero()) {
            throw new ValidationException(Problem.of("ttl", ttl, "must be positive"));
        }
        PoolSpec current = spec;
        String pool = current.name();
        String fresh = reservationClaimName(key);
        if (current.deleted()) {
            throw new PoolDeletedException(pool, fresh);
        }
        // Under the hand-out lock like claim(): the fast path learns of the reservation's claim in the order the store
        // dates it, and serves it as a pass would.
        handOutLock.lock();
        try {
            return reserveLocked(current, key, fresh, ttl);
        } finally {
            handOutLock.unlock();
        }
    }

    private ClaimHandle reserveLocked(PoolSpec current, String key, String fresh, Duration ttl) {
        String pool = current.name();
        Instant now = scheduler.clock().instant();
        Reservation reservation = claims.reserve(pool, key, ClaimRequest.of(fresh), ttl, now);
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
            scheduler.schedule(left.isNegative() ? Duration.ZERO : left, this::requestReconcile);
        }
        if (claim.assignedMember().isEmpty()) {
            handOut.claimPending(claim);
            if (readInFlight) {
                submittedSinceRead.put(claim.name(), claim);
            }
            handOutNow(current, now);
        }
        if (handles.containsKey(claim.name())) {
            requestReconcile();
        }
        return handle;
    }

    /**
     * Confirms the reservation made under {@code key}: its claim becomes an ordinary claim, released like any other.
     * Idempotent.
     *
     * @param key the key it was reserved under
     * @return the confirmed reservation, or empty when the key has no live reservation (never reserved, its time
     *         ran out, or its claim ended)
     * @throws ValidationException           naming {@code key} when it is invalid
     * @throws UnsupportedOperationException if the claim store keeps no reservations
     */
    public Optional<Reservation> confirm(String key) {
        Reservation.requireValidKey(key);
        return claims.confirm(spec.name(), key, scheduler.clock().instant());
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
    private void expireReservations(String pool, Instant now) {
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
            forgetClaim(claim.name());
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

    /**
     * Ends a claim: its member (if it has one) is marked released first, then the claim ends, and the next pass
     * deletes the member (a claimed member is never reused). Idempotent. If the mark cannot be written the claim
     * stays live and the failure is thrown, so nothing is lost.
     *
     * @param handle the claim's handle
     * @return whether the claim was live
     */
    public boolean release(ClaimHandle handle) {
        return release(handle.name());
    }

    /**
     * Ends claim {@code claimName}; see {@link #release(ClaimHandle)}.
     *
     * @param claimName the claim
     * @return whether the claim was live
     */
    public boolean release(String claimName) {
        Objects.requireNonNull(claimName, "claimName");
        // Not under the pass lock (issue 22, pass cost: releases queued behind whole passes held members for seconds at
        // 10,000 claims/s). The release mark goes on the member before the claim ends, so a pass that read either
        // record before or after sees a claimed member, a released one, or an orphan it confirms by name before it
        // deletes it; an assignment the pass writes for a claim ended meanwhile is answered CLAIM_NOT_FOUND and its
        // member marked released.
        String pool = spec.name();
        Optional<Claim> claim = claims.find(pool, claimName);
        Instant now = scheduler.clock().instant();
        for (String memberId : membersOf(pool, claimName, claim)) {
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
        forgetClaim(claimName);
        requestReconcile();
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
    private boolean withdraw(ClaimHandle handle) {
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

    /**
     * Whether {@code claim} is the one {@code handle} was made for, not a later claim reusing its name. Creation
     * times are compared to the microsecond: durable stores (PostgreSQL) keep no finer time.
     */
    private static boolean isHandleOf(ClaimHandle handle, Claim claim) {
        return claim.createdAt().truncatedTo(ChronoUnit.MICROS).equals(handle.createdAt().truncatedTo(ChronoUnit.MICROS));
    }

    /**
     * Why claim {@code claimName} is where it is now: what it waits for (one reason, typed, with the member and
     * its expected ready time where there is one), or the member it holds; with its created, assigned and ready
     * times and its wait by stage. Reads the members and claims; changes nothing.
     *
     * @param claimName a claim
     * @return the explanation, or empty when no live claim has that name
     */
    public Optional<ClaimExplanation> explain(String claimName) {
        Objects.requireNonNull(claimName, "claimName");
        PoolSpec current = spec;
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
            return Optional.of(new ClaimExplanation(pool, claim, held, served.getOrDefault(claimName, ClaimStages.NONE)));
        }
        List<Member> members = unique(driver.list(pool));
        List<Claim> live = uniqueClaims(claims.live(pool));
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
        Waiting w = waiting.get(claimName);
        ClaimStages waited = w != null ? w.until(now) : ClaimStages.NONE.plus(WaitStage.QUEUE, Duration.between(claim.createdAt(), now));
        return Optional.of(new ClaimExplanation(pool, claim, reason, waited));
    }

    /**
     * Deletes the pool: from now on new claims are refused ({@link PoolDeletedException}), pending claims are not
     * served, unclaimed members are deleted within {@code maxConcurrent}, and claimed members stay until their
     * claims are released. The plan's status lists the members deletion still waits for. Idempotent.
     *
     * @return completes once a pass observes the pool without members
     */
    public CompletableFuture<Void> delete() {
        PoolSpec current = spec;
        if (!current.deleted()) {
            spec = current.toBuilder().deleted(true).build();
        }
        requestReconcile();
        return deleted;
    }

    /**
     * How long installs and resumes have taken in this pool, as this controller observed them (the median of the
     * latest few of each); what the expected ready times of waiting claims are computed from.
     *
     * @return the typical durations; empty parts until one transition of that kind was seen
     */
    public TypicalDurations typicalDurations() {
        synchronized (transitions) {
            return transitions.typical();
        }
    }

    /**
     * The last plan applied, if any pass ran.
     */
    public Optional<PoolPlan> lastPlan() {
        return Optional.ofNullable(lastPlan);
    }

    /** Asks for a pass soon; many requests before it runs collapse into one. Does nothing once closed. */
    public void requestReconcile() {
        if (!closed && reconcileQueued.compareAndSet(false, true)) {
            scheduler.execute(this::reconcileQuietly);
        }
    }

    /**
     * Runs one observe → plan → apply pass now and returns the plan it applied.
     *
     * @throws IllegalStateException           if the controller is closed
     * @throws dev.hotspare.spi.StoreUnavailableException if the members or claims cannot be read
     */
    public PoolPlan reconcile() {
        passLock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("the controller of pool '" + spec.name() + "' is closed");
            }
            return pass();
        } finally {
            passLock.unlock();
        }
    }

    private void reconcileQuietly() {
        if (closed) {
            return;
        }
        passLock.lock();
        try {
            // close() may have run while this pass waited for the lock: a closed controller starts no pass.
            if (closed) {
                return;
            }
            if (!owned.getAsBoolean()) {
                // Another instance owns the pool and does its passes; here only the handles of claims made through
                // this instance need an answer, so a quiet pool costs this instance no store call at all.
                reconcileQueued.set(false);
                if (!handles.isEmpty()) {
                    completeAssignedHandles(spec.name(), uniqueClaims(claims.live(spec.name())));
                }
                return;
            }
            pass();
        } catch (RuntimeException e) {
            LOG.warn("reconcile of pool {} failed; the next pass retries", spec.name(), e);
        } finally {
            passLock.unlock();
        }
    }

    private PoolPlan pass() {
        reconcileQueued.set(false);
        PoolSpec current = spec;
        String pool = current.name();
        Instant now = scheduler.clock().instant();
        boolean owner = owned.getAsBoolean();
        if (owner) {
            expireReservations(pool, now);
        }
        beginRead();
        List<Member> members;
        List<Claim> live;
        try {
            members = table.read(driver.list(pool), (first, other) -> LOG.warn(
                    "pool {}: member {} listed twice with different records; using the first", pool, first.id()));
            live = uniqueClaims(claims.live(pool));
        } catch (RuntimeException e) {
            endReadWithoutPlan();
            throw e;
        }
        if (!owner) {
            endReadWithoutPlan();
            // Not the owner: say what the owner's plan would be, complete handles it served, and change nothing.
            PoolPlan plan;
            synchronized (transitions) {
                plan = PoolPlanner.plan(effective, members, live, now, transitions.typical());
            }
            completeAssignedHandles(pool, live);
            return plan;
        }
        repairRecords(pool, members, live, now);
        PoolPlan plan;
        synchronized (transitions) {
            transitions.observe(table.changed(), table::previous);
            PoolSpec planned = sizing.sized(current, live, now, transitions);
            effective = planned;
            plan = PoolPlanner.plan(planned, members, live, now, transitions.typical());
        }
        plan = settleWithFastPath(plan, members, live, now);
        warnOnEmptyRead(pool, plan);
        apply(pool, plan, members, live, now);
        trackWaits(plan, live, now);
        completeAssignedHandles(pool, live);
        lastPlan = plan;
        listener.onPlanApplied(pool, plan, now);
        if (listener != PoolListener.NONE) {
            listener.membersPerState(pool, MemberState.count(members));
        }
        if (current.deleted() && members.isEmpty()) {
            deleted.complete(null);
        }
        return plan;
    }

    /** A read that plans nothing (not the owner, or the read failed): the fast path stops noting what it does. */
    private void endReadWithoutPlan() {
        handOutLock.lock();
        try {
            readInFlight = false;
            servedSinceRead.clear();
            submittedSinceRead.clear();
            goneSinceRead.clear();
        } finally {
            handOutLock.unlock();
        }
    }

    /**
     * The sizer's last decision, when the spec asks for auto-sizing and it has decided once: applied, the running
     * count in force; in shadow mode ({@code apply: false}), what it would have set.
     *
     * @return the last decision, or empty
     */
    public Optional<SizingDecision> sizing() {
        return spec.autoSizing().isPresent() ? sizing.last() : Optional.empty();
    }

    /**
     * The running count the pool keeps now: the spec's, or the sizer's when sizing is applied.
     *
     * @return the running count the last pass planned with
     */
    public int effectiveRunningCount() {
        return effective.runningCount();
    }

    private void warnOnEmptyRead(String pool, PoolPlan plan) {
        if (!plan.status().emptyClaimRead()) {
            emptyReadWarned = false;
        } else if (!emptyReadWarned) {
            emptyReadWarned = true;
            LOG.warn("pool {}: the claim store listed no live claim while {} member(s) are claimed; deleting none of them "
                    + "(members carrying the release mark excepted) until it lists claims again", pool, plan.status().orphaned());
        }
    }

    /** One record per id and per name; a backend that lists one twice is reported, not fatal. */
    private List<Member> unique(List<Member> listed) {
        Map<String, Member> byId = new LinkedHashMap<>();
        for (Member m : listed) {
            Member before = byId.putIfAbsent(m.id(), m);
            if (before != null && !before.equals(m)) {
                LOG.warn("pool {}: member {} listed twice with different records; using the first", spec.name(), m.id());
            }
        }
        return new ArrayList<>(byId.values());
    }

    private List<Claim> uniqueClaims(List<Claim> listed) {
        Map<String, Claim> byName = new LinkedHashMap<>();
        for (Claim c : listed) {
            Claim before = byName.putIfAbsent(c.name(), c);
            if (before != null && !before.equals(c)) {
                LOG.warn("pool {}: claim {} listed twice with different records; using the first", spec.name(), c.name());
            }
        }
        return new ArrayList<>(byName.values());
    }

    /**
     * Brings member and claim records back together before planning. Assignment writes the member first and the
     * claim second: a crash in between leaves a member naming a claim the store calls pending — record it on the
     * claim, so the claim is not served twice — also when that member is being deleted: as Hive records the
     * deleting cluster on its claim, the claim then shows {@link ClaimReason.MemberDeleting} and is never served
     * again (released once the member is gone). A claim record naming a member that names no claim (a store-side
     * assignment) — record it on the member. An assigned claim both records agree on but not marked ready — mark
     * it. Every repair that fails is logged and left to the next pass.
     */
    private void repairRecords(String pool, List<Member> members, List<Claim> live, Instant now) {
        // Issue 22, pass cost: driven by the claims and by the members naming a claim (the table lists those while it
        // reads), never by a walk of the whole pool; the repairs are the same as member by member.
        Map<String, Integer> claimIndex = new HashMap<>();
        Map<String, String> claimOfMember = new HashMap<>();
        for (int i = 0; i < live.size(); i++) {
            Claim c = live.get(i);
            claimIndex.put(c.name(), i);
            c.assignedMember().ifPresent(m -> claimOfMember.put(m, c.name()));
        }
        List<Integer> named = new ArrayList<>(table.naming());
        for (int i : named) {
            Member m = members.get(i);
            Integer at = claimIndex.get(m.claimName().get());
            Claim claim = at == null ? null : live.get(at);
            if (claim != null && !claim.isAssigned() && m.serves(claim)) {
                Instant assignedAt = m.claimedAt().orElse(now);
                ClaimStore.AssignOutcome outcome = tryAssignClaim(pool, claim.name(), m.id(), assignedAt);
                if (outcome == ClaimStore.AssignOutcome.ASSIGNED || outcome == ClaimStore.AssignOutcome.ALREADY_ASSIGNED) {
                    live.set(at, claim.assigned(m.id(), assignedAt));
                } else if (outcome != null) {
                    LOG.warn("pool {}: member {} names pending claim {}, but the claim store answered {}; the plan "
                            + "settles it", pool, m.id(), claim.name(), outcome);
                }
            }
        }
        for (Map.Entry<String, String> e : claimOfMember.entrySet()) {
            int i = table.indexOf(e.getKey());
            Member m = i < 0 ? null : members.get(i);
            if (m == null || m.isReleased() || m.phase() == MemberPhase.DELETING || m.claimName().isPresent()) {
                continue;
            }
            Claim claim = live.get(claimIndex.get(e.getValue()));
            Instant claimedAt = claim.assignedAt().orElseThrow();
            if (attempt(pool, "record claim " + claim.name() + " on member " + m.id(),
                    () -> driver.assign(pool, m.id(), claim.name(), claimedAt))) {
                Member repaired = m.assignedTo(claim.name(), claimedAt);
                members.set(i, repaired);
                table.replaced(repaired);
                named.add(i);
            }
        }
        markReady(pool, members, named, live, claimIndex, now);
    }

    /** Assigned claims both records agree on are handed over: their ready time is recorded. */
    private void markReady(String pool, List<Member> members, List<Integer> named, List<Claim> live,
                           Map<String, Integer> claimIndex, Instant now) {
        for (int i : named) {
            Member m = members.get(i);
            if (m.claimName().isEmpty() || m.phase() == MemberPhase.DELETING || m.isReleased()) {
                continue;
            }
            Integer at = claimIndex.get(m.claimName().get());
            Claim claim = at == null ? null : live.get(at);
            if (claim != null && claim.isAssigned() && !claim.isReady() && m.serves(claim)) {
                Instant readyAt = latest(now, claim.assignedAt().get());
                if (attempt(pool, "mark claim " + claim.name() + " ready", () -> claims.markReady(pool, claim.name(), readyAt))) {
                    live.set(at, claim.ready(readyAt));
                }
            }
        }
    }

    private ClaimStore.AssignOutcome tryAssignClaim(String pool, String claimName, String memberId, Instant at) {
        try {
            return claims.assign(pool, claimName, memberId, at);
        } catch (RuntimeException e) {
            LOG.warn("pool {}: recording member {} on claim {} failed; the next pass retries: {}", pool, memberId,
                    claimName, e.toString());
            return null;
        }
    }

    private void apply(String pool, PoolPlan plan, List<Member> observed, List<Claim> live, Instant now) {
        Set<String> unmarked = new HashSet<>();
        applyReleases(pool, plan, now, unmarked);
        applyAssignments(pool, plan, observed, live, now);
        for (PoolPlan.PowerChange change : plan.powerChanges()) {
            attempt(pool, "power " + change.memberId() + " " + change.to(),
                    () -> driver.setDesiredPower(pool, change.memberId(), change.to()));
        }
        for (PoolPlan.OrphanMark mark : plan.orphanMarks()) {
            attempt(pool, (mark.since().isPresent() ? "mark " : "unmark ") + mark.memberId() + " orphaned",
                    () -> driver.markOrphaned(pool, mark.memberId(), mark.since()));
        }
        Map<String, String> orphanClaims = new HashMap<>();
        plan.orphans().forEach(o -> orphanClaims.put(o.memberId(), o.claimName()));
        // The lookups are I/O and stay here; what they mean for the deletes is the planner's decision.
        Set<String> liveAgain = new HashSet<>();
        for (PoolPlan.Delete delete : plan.deletes()) {
            if (delete.reason() == PoolPlan.DeleteReason.CLAIM_GONE && !unmarked.contains(delete.memberId())
                    && claimStillLive(pool, delete.memberId(), orphanClaims.get(delete.memberId()))) {
                liveAgain.add(delete.memberId());
            }
        }
        int deleted = 0;
        for (PoolPlan.Delete delete : PoolPlanner.confirmedDeletes(plan, unmarked, liveAgain)) {
            if (attempt(pool, "delete " + delete.memberId(), () -> driver.delete(pool, delete.memberId()))) {
                deleted++;
            }
        }
        int created = 0;
        for (PoolPlan.Create create : plan.creates()) {
            if (attempt(pool, "create member", () -> driver.create(pool, create.templateVersion(), create.power()))) {
                created++;
            }
        }
        if (deleted > 0) {
            listener.scaled(pool, ScaleOperation.DELETE, deleted);
        }
        if (created > 0) {
            listener.scaled(pool, ScaleOperation.CREATE, created);
        }
    }

    /**
     * A claim expires by marking its member released first; only then does the claim end. A member whose mark
     * could not be written is noted ({@code unmarked}): {@link PoolPlanner#confirmedDeletes} keeps it, and its claim
     * stays live for the next pass to retry.
     */
    private void applyReleases(String pool, PoolPlan plan, Instant now, Set<String> unmarked) {
        for (PoolPlan.Release release : plan.releases()) {
            if (release.reason() == PoolPlan.ReleaseReason.LIFETIME_EXPIRED && release.memberId().isPresent()) {
                String memberId = release.memberId().get();
                if (!attempt(pool, "mark " + memberId + " released", () -> driver.markReleased(pool, memberId, now))) {
                    unmarked.add(memberId);
                    continue;
                }
            }
            if (release.reason() == PoolPlan.ReleaseReason.DEADLINE_PASSED) {
                expire(pool, release.claimName(), now);
                continue;
            }
            attempt(pool, "release claim " + release.claimName(), () -> claims.release(pool, release.claimName()));
            ClaimHandle handle = handles.remove(release.claimName());
            if (handle != null) {
                handle.end();
            }
            waiting.remove(release.claimName());
            served.remove(release.claimName());
        }
    }

    /**
     * A pending claim whose deadline passed leaves the store only if still pending (another controller may have
     * served it meanwhile); then its handle fails with {@link ClaimExpiredException} and EXPIRED is reported.
     */
    private void expire(String pool, String claimName, Instant now) {
        Optional<Claim> claim;
        boolean[] removed = new boolean[1];
        try {
            claim = claims.find(pool, claimName);
        } catch (RuntimeException e) {
            LOG.warn("pool {}: reading expired claim {} failed; the next pass retries: {}", pool, claimName, e.toString());
            return;
        }
        // Read again: a claim made since under the same name is expired only if its own deadline has come too.
        if (claim.isEmpty() || !claim.get().isExpiredAt(now)
                || !attempt(pool, "expire claim " + claimName, () -> removed[0] = claims.releasePending(pool, claimName))
                || !removed[0]) {
            return;
        }
        Instant deadline = claim.get().deadline().get();
        LOG.info("pool {}: claim {} expired unserved at its deadline {}", pool, claimName, deadline);
        waiting.remove(claimName);
        served.remove(claimName);
        ClaimHandle handle = handles.remove(claimName);
        if (handle != null && isHandleOf(handle, claim.get())) {
            handle.expire(new ClaimExpiredException(pool, claimName, deadline));
        } else if (handle != null) {
            handle.end();
        }
        listener.claimEnded(pool, claimName, ClaimOutcome.EXPIRED);
    }

    private void applyAssignments(String pool, PoolPlan plan, List<Member> observed, List<Claim> live, Instant now) {
        if (plan.assignments().isEmpty()) {
            return;
        }
        // The pass's read, by id, from the table kept between passes (issue 22): no map of the whole pool here.
        java.util.function.Function<String, Member> byId = table::get;
        Map<String, Instant> claimCreatedAt = new HashMap<>();
        for (Claim c : live) {
            claimCreatedAt.put(c.name(), c.createdAt());
        }
        // Member records first, one by one (the driver's writes); then every claim record in one batch, ready at once.
        List<PoolPlan.Assignment> written = new ArrayList<>(plan.assignments().size());
        List<ClaimStore.Assignment> batch = new ArrayList<>(plan.assignments().size());
        for (PoolPlan.Assignment assignment : plan.assignments()) {
            Member before = byId.apply(assignment.memberId());
            String claimName = assignment.claimName();
            Instant createdAt = claimCreatedAt.get(claimName);
            Optional<ClaimOutcome> servedAs = before == null || createdAt == null ? Optional.empty()
                    : Optional.of(ClaimOutcome.served(ClaimService.classify(before, createdAt)));
            if (attempt(pool, "assign " + assignment.memberId() + " to " + claimName,
                    () -> driver.assign(pool, assignment.memberId(), claimName, assignment.claimedAt()))) {
                written.add(assignment);
                batch.add(new ClaimStore.Assignment(claimName, assignment.memberId(), assignment.claimedAt(), servedAs));
            }
        }
        if (batch.isEmpty()) {
            return;
        }
        List<ClaimStore.AssignOutcome> outcomes;
        try {
            outcomes = claims.assignAll(pool, batch, now);
        } catch (RuntimeException e) {
            // The members name their claims; the next pass records them on the claims (repairRecords).
            LOG.warn("pool {}: recording {} assignment(s) on the claims failed; the next pass retries: {}", pool,
                    batch.size(), e.toString());
            return;
        }
        for (int i = 0; i < written.size(); i++) {
            PoolPlan.Assignment assignment = written.get(i);
            Member before = byId.apply(assignment.memberId());
            String claimName = assignment.claimName();
            Instant createdAt = claimCreatedAt.get(claimName);
            Optional<ClaimOutcome> servedAs = batch.get(i).outcome();
            ClaimStore.AssignOutcome outcome = outcomes.get(i);
            if (outcome == ClaimStore.AssignOutcome.CLAIM_NOT_FOUND) {
                // The claim ended between the read and this write: the member now names a claim known to be gone.
                // Mark it released at once instead of waiting out the orphan grace period.
                attempt(pool, "mark " + assignment.memberId() + " released (its claim ended meanwhile)",
                        () -> driver.markReleased(pool, assignment.memberId(), now));
                continue;
            }
            if (outcome != ClaimStore.AssignOutcome.ASSIGNED && outcome != ClaimStore.AssignOutcome.ALREADY_ASSIGNED) {
                LOG.warn("pool {}: assigning {} to {}: the claim store answered {}; the next pass settles it", pool,
                        assignment.memberId(), claimName, outcome);
                continue;
            }
            listener.onClaimAssigned(pool, assignment, before);
            reportServed(pool, claimName, before, createdAt, now);
            ClaimHandle handle = handles.remove(claimName);
            if (handle != null && handle.settle()) {
                // The claimer gets the member as it now is: claimed by it, running.
                handle.serve(before.claimName().isPresent() ? before : before.assignedTo(claimName, assignment.claimedAt()));
            }
            if (servedAs.isPresent()) {
                listener.claimEnded(pool, claimName, servedAs.get());
                if (handle != null) {
                    handle.ended(servedAs.get());
                }
            }
        }
    }

    /**
     * One assignment: member record, then claim record, then the ready mark, the listeners and the handle. With
     * {@code writeMember} false the member record is already written (the fast path). Returns whether the claim
     * now holds the member.
     */
    private boolean writeAssignment(String pool, PoolPlan.Assignment assignment, Member before, Instant createdAt,
                                    Instant now, boolean writeMember) {
        String claimName = assignment.claimName();
        ClaimStore.AssignOutcome[] outcome = new ClaimStore.AssignOutcome[1];
        Optional<ClaimOutcome> servedAs = before == null || createdAt == null ? Optional.empty()
                : Optional.of(ClaimOutcome.served(ClaimService.classify(before, createdAt)));
        boolean written = attempt(pool, "assign " + assignment.memberId() + " to " + claimName, () -> {
            if (writeMember) {
                driver.assign(pool, assignment.memberId(), claimName, assignment.claimedAt());
            }
            outcome[0] = claims.assign(pool, claimName, assignment.memberId(), assignment.claimedAt(), servedAs);
        });
        if (!written) {
            return false;
        }
        if (outcome[0] == ClaimStore.AssignOutcome.CLAIM_NOT_FOUND) {
            // The claim ended between the read and this write: the member now names a claim known to be gone.
            // Mark it released at once instead of waiting out the orphan grace period.
            attempt(pool, "mark " + assignment.memberId() + " released (its claim ended meanwhile)",
                    () -> driver.markReleased(pool, assignment.memberId(), now));
            return false;
        }
        if (outcome[0] != ClaimStore.AssignOutcome.ASSIGNED && outcome[0] != ClaimStore.AssignOutcome.ALREADY_ASSIGNED) {
            LOG.warn("pool {}: assigning {} to {}: the claim store answered {}; the next pass settles it", pool,
                    assignment.memberId(), claimName, outcome[0]);
            return false;
        }
        attempt(pool, "mark claim " + claimName + " ready", () -> claims.markReady(pool, claimName, now));
        listener.onClaimAssigned(pool, assignment, before);
        reportServed(pool, claimName, before, createdAt, now);
        ClaimHandle handle = handles.remove(claimName);
        if (handle != null && handle.settle()) {
            // The claimer gets the member as it now is: claimed by it, running.
            handle.serve(before.claimName().isPresent() ? before : before.assignedTo(claimName, assignment.claimedAt()));
        }
        if (servedAs.isPresent()) {
            listener.claimEnded(pool, claimName, servedAs.get());
            if (handle != null) {
                handle.ended(servedAs.get());
            }
        }
        return true;
    }

    /** Before an orphan is deleted its claim is looked up once more by name; found, the member stays. */
    private boolean claimStillLive(String pool, String memberId, String claimName) {
        if (claimName == null) {
            return false;
        }
        try {
            Optional<Claim> claim = claims.find(pool, claimName);
            if (claim.isPresent()) {
                LOG.info("pool {}: claim {} of orphaned member {} is live after all; keeping the member", pool, claimName, memberId);
                return true;
            }
            return false;
        } catch (RuntimeException e) {
            LOG.warn("pool {}: could not confirm that claim {} is gone; keeping member {} for now: {}", pool, claimName,
                    memberId, e.toString());
            return true;
        }
    }

    /** The claim's wait ends now; its service is judged by the member as it was when the claim arrived. */
    private void reportServed(String pool, String claimName, Member before, Instant claimCreatedAt, Instant now) {
        Waiting w = waiting.remove(claimName);
        if (claimCreatedAt == null) {
            return;
        }
        ClaimStages stages = w != null ? w.until(now) : ClaimStages.NONE.plus(WaitStage.QUEUE, Duration.between(claimCreatedAt, now));
        served.put(claimName, stages);
        if (spec.autoSizing().isPresent()) {
            sizing.served(claimCreatedAt, now);
        }
        if (listener == PoolListener.NONE || before == null) {
            return;
        }
        Duration wait = Duration.between(claimCreatedAt, now);
        ClaimService service = ClaimService.classify(before, claimCreatedAt);
        listener.claimServed(pool, service, wait.isNegative() ? Duration.ZERO : wait);
        listener.claimStages(pool, service, stages);
    }

    /**
     * Each waiting claim's time goes to the stage of the reason it had: from its creation to the first pass that
     * saw it counts as queue, then each pass's reason holds until the next pass.
     */
    private void trackWaits(PoolPlan plan, List<Claim> live, Instant now) {
        Set<String> liveNames = new HashSet<>();
        live.forEach(c -> liveNames.add(c.name()));
        waiting.keySet().retainAll(liveNames);
        served.keySet().retainAll(liveNames);
        for (PoolPlan.PendingClaim pending : plan.reasons()) {
            Waiting w = waiting.get(pending.claimName());
            ClaimStages before = w != null ? w.until(now)
                    : ClaimStages.NONE.plus(WaitStage.QUEUE, Duration.between(pending.createdAt(), now));
            waiting.put(pending.claimName(), new Waiting(pending.reason().stage(), now, before));
        }
    }

    /**
     * Handles of claims assigned by another controller (or before a restart) complete here. A handle ends only when
     * its claim is missing both from this pass's read and from a lookup by name: one short read never cancels it.
     */
    private void completeAssignedHandles(String pool, List<Claim> live) {
        if (handles.isEmpty()) {
            return;
        }
        Map<String, Claim> byName = new HashMap<>();
        live.forEach(c -> byName.put(c.name(), c));
        for (ClaimHandle handle : List.copyOf(handles.values())) {
            Claim claim = byName.get(handle.name());
            if (claim == null) {
                try {
                    claim = claims.find(pool, handle.name()).orElse(null);
                } catch (RuntimeException e) {
                    continue;
                }
            }
            if (claim == null || !isHandleOf(handle, claim)) {
                handles.remove(handle.name(), handle);
                handle.end();
            } else if (claim.assignedMember().isPresent()) {
                Claim assigned = claim;
                driver.find(pool, claim.assignedMember().get()).ifPresent(member -> {
                    if (handles.remove(handle.name(), handle) && handle.settle()) {
                        handle.serve(member);
                        assigned.outcome().ifPresent(handle::ended);
                    }
                });
            }
        }
    }

    private boolean attempt(String pool, String what, Runnable action) {
        try {
            action.run();
            return true;
        } catch (RuntimeException e) {
            LOG.warn("pool {}: {} failed; the next pass retries: {}", pool, what, e.toString());
            return false;
        }
    }

    private static Instant latest(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    /**
     * Stops the resync and the subscriptions, then waits for a pass already running to finish (at most the
     * builder's {@code closeTimeout}), so nothing the pass does reaches a scheduler or driver the caller shuts down
     * next. No pass starts afterwards. Outstanding claim handles stay as they are.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            if (periodic != null) {
                periodic.cancel();
            }
            for (AutoCloseable subscription : subscriptions) {
                try {
                    subscription.close();
                } catch (Exception e) {
                    LOG.debug("closing a subscription failed", e);
                }
            }
            subscriptions.clear();
        }
        boolean idle = false;
        try {
            idle = passLock.tryLock(closeTimeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (idle) {
            passLock.unlock();
        } else {
            LOG.warn("pool {}: a reconcile pass was still running {} after close; not waiting longer", spec.name(), closeTimeout);
        }
    }

    /**
     * The settings this controller was built with (its ports are not settings).
     */
    public Settings settings() {
        return new Settings(spec.name(), resyncPeriod, closeTimeout, sizing.interval());
    }

    /**
     * A pool controller's settings, read back.
     *
     * @param pool           the pool's name
     * @param resyncPeriod   how often it reconciles when nothing changes
     * @param closeTimeout   how long {@link #close()} waits for a pass already running
     * @param sizingInterval how often the auto-sizer decides
     */
    public record Settings(String pool, Duration resyncPeriod, Duration closeTimeout, Duration sizingInterval) {
    }

    /**
     * Builder for {@link PoolController}: ports are named setters, in memory until replaced; time is
     * {@link #scheduler}, the one required setting; {@link #listener} is the one listener. Setters only record:
     * {@link #build()} checks every setting and names each bad one with its value.
     */
    public static final class Builder {
        private final PoolSpec spec;
        private MemberDriver driver;
        private ClaimStore claims;
        private TaskScheduler scheduler;
        private Duration resyncPeriod = Duration.ofSeconds(30);
        private Duration closeTimeout = Duration.ofSeconds(30);
        private PoolListener listener = PoolListener.NONE;
        private Duration sizingInterval = Duration.ofMinutes(1);
        private java.util.function.BooleanSupplier owned = () -> true;

        private Builder(PoolSpec spec) {
            this.spec = Objects.requireNonNull(spec, "spec");
        }

        /**
         * Creates, deletes and powers the pool's members, and reports them (default: in memory, on the scheduler).
         *
         * @param value e.g. a Kubernetes driver
         * @return this builder
         */
        public Builder memberDriver(MemberDriver value) {
            this.driver = value;
            return this;
        }

        /**
         * Where the pool's claims live (default: in memory).
         *
         * @param value e.g. a PostgreSQL claim store
         * @return this builder
         */
        public Builder claimStore(ClaimStore value) {
            this.claims = value;
            return this;
        }

        /**
         * Where passes run and what clock they read. Required.
         *
         * @param value {@code TaskScheduler.system(..)}, or virtual time in tests
         * @return this builder
         */
        public Builder scheduler(TaskScheduler value) {
            this.scheduler = value;
            return this;
        }

        /**
         * How often to reconcile when nothing changes (default 30 s): catches what a missed event would hide.
         *
         * @param value a positive duration
         * @return this builder
         */
        public Builder resyncPeriod(Duration value) {
            this.resyncPeriod = value;
            return this;
        }

        /**
         * How long {@link PoolController#close()} waits for a pass already running (default 30 s).
         *
         * @param value zero or more
         * @return this builder
         */
        public Builder closeTimeout(Duration value) {
            this.closeTimeout = value;
            return this;
        }

        /**
         * Receives every applied plan and assignment and the pool's KPIs (default: none): claims served with their
         * wait and its split by stage, members per state after each pass, member creates and deletes. For several,
         * pass {@link PoolListener#all}. A listener that throws is logged and ignored.
         *
         * @param value the listener
         * @return this builder
         */
        public Builder listener(PoolListener value) {
            this.listener = value;
            return this;
        }

        /**
         * How often the auto-sizer decides, for a spec with {@code autoSizing} (default 1 min): at most once per
         * interval, on the first pass after it; the sizer's {@code maxStep} is per decision.
         *
         * @param value a positive duration
         * @return this builder
         */
        public Builder sizingInterval(Duration value) {
            this.sizingInterval = value;
            return this;
        }

        /**
         * Whether this instance owns the pool now (default: always). Instances that share a pool's stores give each
         * pool one owner, usually through {@code OwnershipMember.track("pool", ..)} and the pool's fenced lease:
         * {@code owned(() -> pools.fence(name).isPresent())}. Only the owner's passes plan and change members and
         * claims; elsewhere a pass only completes the handles of claims made there once the owner has served them,
         * and costs no store call while no claim made there waits. Asked at the start of every pass.
         *
         * @param value asked at every pass
         * @return this builder
         */
        public Builder owned(java.util.function.BooleanSupplier value) {
            this.owned = value;
            return this;
        }

        /**
         * Builds the controller; {@link PoolController#start()} starts it.
         *
         * @throws ValidationException naming every bad setting and its value
         */
        public PoolController build() {
            List<Problem> problems = new ArrayList<>();
            if (scheduler == null) {
                problems.add(Problem.of("scheduler", Problem.MISSING, "is required (TaskScheduler.system(..) or virtual time)"));
            }
            positive("resyncPeriod", resyncPeriod, problems);
            positive("sizingInterval", sizingInterval, problems);
            if (closeTimeout == null || closeTimeout.isNegative()) {
                problems.add(Problem.of("closeTimeout", closeTimeout == null ? Problem.MISSING : closeTimeout, "must not be negative"));
            }
            if (listener == null) {
                problems.add(Problem.of("listener", Problem.MISSING, "must not be null"));
            }
            if (owned == null) {
                problems.add(Problem.of("owned", Problem.MISSING, "must not be null"));
            }
            if (!problems.isEmpty()) {
                throw new ValidationException(problems);
            }
            if (driver == null) {
                driver = dev.hotspare.memory.InMemoryMemberDriver.builder(scheduler).build();
            }
            if (claims == null) {
                claims = new dev.hotspare.memory.InMemoryClaimStore();
            }
            return new PoolController(this);
        }

        private static void positive(String field, Duration value, List<Problem> problems) {
            if (value == null || value.isNegative() || value.isZero()) {
                problems.add(Problem.of(field, value == null ? Problem.MISSING : value, "must be positive"));
            }
        }
    }
}
