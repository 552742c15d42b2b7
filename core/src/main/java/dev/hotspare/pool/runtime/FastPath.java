package dev.hotspare.pool.runtime;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.internal.PlanOverrides;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.pool.spi.MemberDriver.MemberAlreadyClaimedException;
import dev.hotspare.pool.spi.MemberDriver.MemberNotFoundException;
import dev.hotspare.time.TaskScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The pool controller's fast path: the hand-out index ({@link HandOut}) that serves a claim at once, without waiting for
 * a pass, and what it did while a pass was reading, so the pass's plan and the index never hand out or change the same
 * thing.
 */
final class FastPath {

    private static final Logger LOG = LoggerFactory.getLogger(PoolController.class);

    private final PoolContext ctx;
    private final PlanApplier applier;
    private final MemberDriver driver;
    private final TaskScheduler scheduler;
    private final java.util.function.BooleanSupplier owned;
    private final PoolSizing sizing;

    /**
     * Guards the hand-out index and the fast path: a claim takes its member under this lock, never under the pass
     * lock, so it never waits for a pass. Order: pass lock, then this one.
     */
    final ReentrantLock handOutLock = new ReentrantLock();
    /**
     * Kept between passes (hand-out lock): each pass brings its claims up to the pass's read, and replaces it with one
     * rebuilt from its read once per resync period (issue 22, pass cost).
     */
    private HandOut handOut = new HandOut();
    /** Whether a pass has read the stores and not yet rebuilt the index from that read (hand-out lock). */
    private boolean readInFlight;
    /** What the fast path did since the running pass's read began (hand-out lock): served claims and their members. */
    private final List<HandOut.Pair> servedSinceRead = new ArrayList<>();
    /** Claims submitted since the running pass's read began and not served yet (hand-out lock). */
    private final Map<String, Claim> submittedSinceRead = new LinkedHashMap<>();
    /** Claims ended since the running pass's read began (hand-out lock): the read still lists them. */
    private final Set<String> goneSinceRead = new HashSet<>();
    /**
     * Member changes since the running pass's read began (hand-out lock): an index rebuilt from that read replays
     * them, or it would keep the read's older record of a member that changed meanwhile until the member's next event.
     */
    private final List<MemberDriver.MemberEvent> eventsSinceRead = new ArrayList<>();
    /** When the index was last rebuilt from a whole read (hand-out lock); between rebuilds it follows deltas. */
    private Instant lastIndexRebuild;
    /**
     * Claims ended whose index entries are still to be dropped (issue 22: releases waited for the hand-out lock while
     * claim threads held it across their store round trips, and at 2,000 claims/s on PostgreSQL fell so far behind
     * that the pool's live claims grew without bound). Whoever holds the lock drops them before it reads the index.
     */
    private final ConcurrentLinkedQueue<String> ended = new ConcurrentLinkedQueue<>();
    /** Member changes not yet applied to the index, in the order they were delivered; as {@link #ended}. */
    private final ConcurrentLinkedQueue<MemberDriver.MemberEvent> changes = new ConcurrentLinkedQueue<>();
    /**
     * Claims on their way in ({@link ClaimsApi}): their threads park until the claim is answered or the lock is free,
     * and the lock's next holder submits them all.
     */
    final ConcurrentLinkedQueue<ClaimsApi.Arrival> arrivals = new ConcurrentLinkedQueue<>();

    FastPath(PoolContext ctx, PlanApplier applier) {
        this.ctx = ctx;
        this.applier = applier;
        this.driver = ctx.driver;
        this.scheduler = ctx.scheduler;
        this.owned = ctx.owned;
        this.sizing = ctx.sizing;
    }

    /**
     * Releases the hand-out lock and wakes the thread of the first claim still waiting to be submitted, which then takes
     * the lock and submits every claim queued. A claim thread that finds the lock held parks instead of queueing for it
     * (issue 22: at 2,000 claims/s on PostgreSQL, threads whose claims were already answered took the lock one after
     * the other just to read their answers, and the claims still to submit waited behind them). Every holder releases
     * the lock here, so a thread that parked because the lock was held is woken once it is free.
     */
    void unlockHandOut() {
        handOutLock.unlock();
        if (handOutLock.isHeldByCurrentThread()) {
            // A nested hold (a member event while handing out): the outer release wakes whoever waits.
            return;
        }
        // After the release: a thread that queued its claim and then failed to take the lock is seen here, and one
        // that queued after this look finds the lock free.
        ClaimsApi.Arrival next = arrivals.peek();
        if (next != null) {
            LockSupport.unpark(next.thread);
        }
    }

    /** A claim submitted under the hand-out lock: the index learns of it, and so does a pass reading now. */
    void claimPending(Claim claim) {
        // A claim ended before this one was submitted under the same name is dropped first, not this one after.
        catchUp();
        handOut.claimPending(claim);
        if (readInFlight) {
            submittedSinceRead.put(claim.name(), claim);
        }
    }

    /**
     * Serves what the index says can be served now; a member another writer took is dropped and the next tried. The
     * members' records are written one by one, the claims' records of a round in one store call (one round trip on
     * PostgreSQL).
     */
    void handOutNow(PoolSpec current, Instant now) {
        if (ctx.closed || !ctx.started || current.deleted() || !owned.getAsBoolean()) {
            return;
        }
        catchUp();
        String pool = current.name();
        Duration agingLimit = current.agingLimit();
        for (int round = 0; round < 8; round++) {
            List<HandOut.Pair> pairs = handOut.next(agingLimit, now);
            if (pairs.isEmpty()) {
                return;
            }
            List<PlanApplier.HandedOver> handedOver = new ArrayList<>(pairs.size());
            boolean conflict = false;
            for (HandOut.Pair pair : pairs) {
                if (!takeMember(pool, pair, now, handedOver)) {
                    // Later claims wait for the next round, so none gets a member before an older one does.
                    conflict = true;
                    break;
                }
            }
            List<Boolean> written = applier.writeAssignments(pool, handedOver, now);
            if (ctx.spec.autoSizing().isPresent()) {
                for (int i = 0; i < handedOver.size(); i++) {
                    if (written.get(i)) {
                        sizing.servedAtOnce(handedOver.get(i).claim());
                    }
                }
            }
            if (!conflict) {
                return;
            }
        }
    }

    /**
     * Writes the member's record of one hand-out (the first of the two writes a pass makes) and adds the claim's to
     * {@code handedOver}. Returns false when the member turned out taken or gone, so the caller tries the next; every
     * other failure is left to the pass.
     */
    private boolean takeMember(String pool, HandOut.Pair pair, Instant now, List<PlanApplier.HandedOver> handedOver) {
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
            ctx.requestReconcile();
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
        handedOver.add(new PlanApplier.HandedOver(assignment, member, claim));
        return true;
    }

    /** What the fast path would hand out now (claim->member), without handing it out; for tests. */
    List<String> wouldHandOut() {
        handOutLock.lock();
        try {
            catchUp();
            return HandOut.names(handOut.next(ctx.spec.agingLimit(), scheduler.clock().instant()));
        } finally {
            unlockHandOut();
        }
    }

    /**
     * A member changed: the index follows before anything is next handed out (a pass, requested too, rebuilds it from
     * a full read). Never waits for the hand-out lock: a pass creating and deleting hundreds of members waited for it
     * once per member while claim threads held it across their store round trips.
     */
    void memberEvent(MemberDriver.MemberEvent event) {
        changes.add(event);
        catchUpIfFree();
    }

    private static void apply(HandOut index, MemberDriver.MemberEvent event) {
        if (event instanceof MemberDriver.MemberEvent.Added added) {
            index.memberChanged(added.member());
        } else if (event instanceof MemberDriver.MemberEvent.Updated updated) {
            index.memberChanged(updated.member());
        } else if (event instanceof MemberDriver.MemberEvent.Removed removed) {
            index.memberRemoved(removed.memberId());
        }
    }

    /** A claim ended: it waits no more. Never waits for the hand-out lock; its holder drops the claim if it is busy. */
    void forgetClaim(String claimName) {
        ended.add(claimName);
        catchUpIfFree();
    }

    /** Applies what is queued now if nobody holds the hand-out lock; otherwise its holder does. */
    private void catchUpIfFree() {
        if (handOutLock.tryLock()) {
            try {
                catchUp();
            } finally {
                unlockHandOut();
            }
        }
    }

    /**
     * Brings the index up to the member changes and ended claims queued so far, in the order each queue received them
     * (hand-out lock).
     */
    private void catchUp() {
        for (MemberDriver.MemberEvent event; (event = changes.poll()) != null; ) {
            apply(handOut, event);
            if (readInFlight) {
                eventsSinceRead.add(event);
            }
        }
        for (String name; (name = ended.poll()) != null; ) {
            handOut.claimGone(name);
            submittedSinceRead.remove(name);
            if (readInFlight) {
                goneSinceRead.add(name);
            }
        }
    }

    /** A pass is about to read the stores: from now on the fast path notes what it does, for this pass to leave alone. */
    void beginRead() {
        handOutLock.lock();
        try {
            catchUp();
            readInFlight = true;
            clearSinceRead();
        } finally {
            unlockHandOut();
        }
    }

    /**
     * Brings the pass's plan and the fast path together. The plan leaves alone every claim and member the fast path
     * served since the read (the read may predate it); the index is brought up to the read's claims (or, once per
     * resync period, rebuilt from the whole read), with what the fast path did since laid over it, and loses every member this plan acts on (assigns, deletes, hibernates) and every claim it
     * assigns or releases, so the two never hand out or change the same thing.
     */
    PoolPlan settleWithFastPath(PoolPlan plan, List<Member> members, List<Claim> live, Instant now) {
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
            catchUp();
            readInFlight = false;
            PoolPlan settled = plan;
            if (!servedSinceRead.isEmpty()) {
                Set<String> taken = new HashSet<>();
                Set<String> servedClaims = new HashSet<>();
                for (HandOut.Pair p : servedSinceRead) {
                    taken.add(p.member().id());
                    servedClaims.add(p.claim().name());
                }
                settled = PlanOverrides.keep(plan, servedClaims, taken);
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
                // Members that changed after the read: the read has them as they were, the events as they are.
                for (MemberDriver.MemberEvent event : eventsSinceRead) {
                    apply(handOut, event);
                }
            } else {
                Set<String> newer = new HashSet<>(goneSinceRead);
                newer.addAll(submittedSinceRead.keySet());
                servedSinceRead.forEach(p -> newer.add(p.claim().name()));
                handOut.syncClaims(live, newer);
            }
            clearSinceRead();
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
                if (change.to() == dev.hotspare.pool.Member.DesiredPower.HIBERNATING) {
                    handOut.drop(change.memberId());
                }
            }
            return settled;
        } finally {
            unlockHandOut();
        }
    }

    /** Whether the hand-out index is due for a rebuild from a whole read: first pass, then once per resync period. */
    private boolean rebuildDue(Instant now) {
        handOutLock.lock();
        try {
            return lastIndexRebuild == null || !now.isBefore(lastIndexRebuild.plus(ctx.resyncPeriod))
                    || now.isBefore(lastIndexRebuild);
        } finally {
            unlockHandOut();
        }
    }

    /** Whether the hand-out index equals one rebuilt from the stores now; for tests (call with no pass running). */
    boolean handOutMatchesRebuild() {
        handOutLock.lock();
        try {
            catchUp();
            HandOut fresh = new HandOut();
            fresh.rebuild(ctx.unique(driver.list(ctx.spec.name())), ctx.uniqueClaims(ctx.claims.live(ctx.spec.name())));
            return fresh.snapshot().equals(handOut.snapshot());
        } finally {
            unlockHandOut();
        }
    }

    /** Forgets what the fast path noted since a read began (hand-out lock). */
    private void clearSinceRead() {
        servedSinceRead.clear();
        submittedSinceRead.clear();
        goneSinceRead.clear();
        eventsSinceRead.clear();
    }

    /** A read that plans nothing (not the owner, or the read failed): the fast path stops noting what it does. */
    void endReadWithoutPlan() {
        handOutLock.lock();
        try {
            readInFlight = false;
            clearSinceRead();
        } finally {
            unlockHandOut();
        }
    }
}
