package dev.hotspare.pool.runtime;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberState;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolPlanner;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.TaskScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The pool controller's loop: subscribes to member and claim changes, schedules passes (periodic, and collapsed
 * requests), and runs each pass: observe → repair records → plan → settle with the fast path → apply.
 */
final class ReconcileLoop {

    private static final Logger LOG = LoggerFactory.getLogger(PoolController.class);

    private final PoolContext ctx;
    private final ClaimTracking tracking;
    private final FastPath fastPath;
    private final PlanApplier applier;
    private final ClaimsApi claimsApi;
    private final MemberDriver driver;
    private final ClaimStore claims;
    private final TaskScheduler scheduler;
    private final PoolListener listener;
    private final java.util.function.BooleanSupplier owned;
    private final TransitionTimes transitions;
    private final PoolSizing sizing;
    private final Map<String, ClaimHandle> handles;
    private final Duration resyncPeriod;
    private final Duration closeTimeout;
    private final AtomicBoolean reconcileQueued = new AtomicBoolean();
    private final List<AutoCloseable> subscriptions = new ArrayList<>();
    private TaskScheduler.Cancellable periodic;
    private boolean emptyReadWarned;
    /** When the last pass began: passes asked for by events start {@code passSpacing} apart. */
    private volatile Instant lastPassStart;

    ReconcileLoop(PoolContext ctx, ClaimTracking tracking, FastPath fastPath, PlanApplier applier, ClaimsApi claimsApi) {
        this.ctx = ctx;
        this.tracking = tracking;
        this.fastPath = fastPath;
        this.applier = applier;
        this.claimsApi = claimsApi;
        this.driver = ctx.driver;
        this.claims = ctx.claims;
        this.scheduler = ctx.scheduler;
        this.listener = ctx.listener;
        this.owned = ctx.owned;
        this.transitions = ctx.transitions;
        this.sizing = ctx.sizing;
        this.handles = tracking.handles;
        this.resyncPeriod = ctx.resyncPeriod;
        this.closeTimeout = ctx.closeTimeout;
    }

    synchronized void start() {
        if (periodic != null || ctx.closed) {
            return;
        }
        String pool = ctx.spec.name();
        subscriptions.add(driver.watch(pool, event -> {
            fastPath.memberEvent(event);
            requestReconcile();
        }));
        subscriptions.add(claims.watch(pool, ctx::requestReconcile));
        periodic = scheduler.scheduleAtFixedRate(Duration.ZERO, resyncPeriod, this::periodicPass);
        ctx.started = true;
    }

    /** Asks for a pass soon; many requests before it runs collapse into one. Does nothing once closed. */
    void requestReconcile() {
        if (!ctx.closed && reconcileQueued.compareAndSet(false, true)) {
            Duration wait = spacingLeft();
            if (wait.isZero()) {
                scheduler.execute(this::requestedPass);
            } else {
                scheduler.schedule(wait, this::requestedPass);
            }
        }
    }

    /**
     * How long a requested pass still waits so that passes asked for by events start at least {@code passSpacing}
     * apart (issue 22: at thousands of claims a second, every release asked for a pass, and passes ran back to back,
     * taking a core from the claimers; spaced, one pass settles everything that changed since the last one).
     */
    private Duration spacingLeft() {
        Instant last = lastPassStart;
        if (ctx.passSpacing.isZero() || last == null) {
            return Duration.ZERO;
        }
        Duration since = Duration.between(last, scheduler.clock().instant());
        if (since.isNegative() || since.compareTo(ctx.passSpacing) >= 0) {
            return Duration.ZERO;
        }
        return ctx.passSpacing.minus(since);
    }

    PoolPlan reconcile() {
        ctx.passLock.lock();
        try {
            if (ctx.closed) {
                throw new IllegalStateException("the controller of pool '" + ctx.spec.name() + "' is closed");
            }
            return pass();
        } finally {
            ctx.passLock.unlock();
        }
    }

    /** The pass a {@link #requestReconcile()} queued: requests made from now on queue the next one. */
    private void requestedPass() {
        reconcileQuietly(true);
    }

    private void periodicPass() {
        reconcileQuietly(false);
    }

    private void reconcileQuietly(boolean requested) {
        if (ctx.closed) {
            return;
        }
        ctx.passLock.lock();
        try {
            // close() may have run while this pass waited for the lock: a closed controller starts no pass.
            if (ctx.closed) {
                return;
            }
            if (requested) {
                // Only the queued run clears the flag: a periodic pass that cleared it while a spaced run was still
                // waiting let a second run be queued beside it, and passes ran twice as often as spaced.
                reconcileQueued.set(false);
            }
            if (!owned.getAsBoolean()) {
                // Another instance owns the pool and does its passes; here only the handles of claims made through
                // this instance need an answer, so a quiet pool costs this instance no store call at all.
                if (!handles.isEmpty()) {
                    tracking.completeAssignedHandles(ctx.spec.name(), ctx.uniqueClaims(claims.live(ctx.spec.name())));
                }
                return;
            }
            pass();
        } catch (RuntimeException e) {
            LOG.warn("reconcile of pool {} failed; the next pass retries", ctx.spec.name(), e);
        } finally {
            ctx.passLock.unlock();
        }
    }

    private PoolPlan pass() {
        PoolSpec current = ctx.spec;
        String pool = current.name();
        Instant now = scheduler.clock().instant();
        lastPassStart = now;
        boolean owner = owned.getAsBoolean();
        if (owner) {
            claimsApi.expireReservations(pool, now);
        }
        fastPath.beginRead();
        List<Member> members;
        List<Claim> live;
        try {
            // Read into the table kept between passes (issue 22, pass cost): one record per id, in the planner's order.
            List<Member> listed = driver.list(pool);
            ctx.yields.point();
            members = ctx.table.read(listed, (first, other) -> LOG.warn(
                    "pool {}: member {} listed twice with different records; using the first", pool, first.id()));
            ctx.yields.point();
            live = ctx.uniqueClaims(claims.live(pool));
            ctx.yields.point();
        } catch (RuntimeException e) {
            fastPath.endReadWithoutPlan();
            throw e;
        }
        if (!owner) {
            fastPath.endReadWithoutPlan();
            // Not the owner: say what the owner's plan would be, complete handles it served, and change nothing.
            PoolPlan plan;
            synchronized (transitions) {
                plan = PoolPlanner.plan(ctx.effective, members, live, now, transitions.typical());
            }
            tracking.completeAssignedHandles(pool, live);
            return plan;
        }
        // Repairs change the records of members in place (in the list and the table), and the claims.
        Optional<List<Claim>> repaired = applier.repairRecords(pool, members, live, now);
        if (repaired.isPresent()) {
            live = repaired.get();
        }
        PoolPlan plan;
        synchronized (transitions) {
            transitions.observe(ctx.table.changed(), ctx.table::previous);
            PoolSpec planned = sizing.sized(current, live, now, transitions);
            ctx.effective = planned;
            plan = PoolPlanner.plan(planned, members, live, now, transitions.typical());
        }
        plan = fastPath.settleWithFastPath(plan, members, live, now);
        warnOnEmptyRead(pool, plan);
        applier.apply(pool, plan, members, live, now);
        tracking.trackWaits(plan, live, now);
        tracking.completeAssignedHandles(pool, live);
        ctx.lastPlan = plan;
        listener.onPlanApplied(pool, plan, now);
        if (listener != PoolListener.NONE) {
            listener.membersPerState(pool, MemberState.count(members));
        }
        if (current.deleted() && members.isEmpty()) {
            ctx.deleted.complete(null);
        }
        return plan;
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

    void close() {
        synchronized (this) {
            if (ctx.closed) {
                return;
            }
            ctx.closed = true;
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
            idle = ctx.passLock.tryLock(closeTimeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (idle) {
            ctx.passLock.unlock();
        } else {
            LOG.warn("pool {}: a reconcile pass was still running {} after close; not waiting longer", ctx.spec.name(), closeTimeout);
        }
    }
}
