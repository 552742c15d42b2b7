package dev.hotspare.pool.runtime;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.ClaimService;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.MemberState;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolPlanner;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.ScaleOperation;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.TaskScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs one pool: observe (members from the {@link MemberDriver}, claims from the {@link ClaimStore}) →
 * plan ({@link PoolPlanner}) → apply exactly what the plan says. Level-triggered and idempotent: it
 * reconciles on a period and whenever a member or claim changes, and a failed action is simply retried by
 * the next pass.
 *
 * <p>Users claim members with {@link #claim} and give them back with {@link #release}.
 */
public final class PoolController implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PoolController.class);

    private final MemberDriver driver;
    private final ClaimStore claims;
    private final TaskScheduler scheduler;
    private final Duration resyncPeriod;
    /** The plan listener and the KPI listener in one, guarded. */
    private final PoolListener listener;
    private volatile PoolSpec spec;

    private final Map<String, ClaimHandle> handles = new ConcurrentHashMap<>();
    private final AtomicBoolean reconcileQueued = new AtomicBoolean();
    private final List<AutoCloseable> subscriptions = new ArrayList<>();
    private TaskScheduler.Cancellable periodic;
    private volatile PoolPlan lastPlan;
    private volatile boolean closed;

    private PoolController(Builder b) {
        this.spec = b.spec;
        this.driver = b.driver;
        this.claims = b.claims;
        this.scheduler = b.scheduler;
        this.resyncPeriod = b.resyncPeriod;
        this.listener = PoolListener.all(b.listener, b.kpis);
    }

    /** A controller for {@code spec}, acting through {@code driver} and {@code claims}. */
    public static Builder builder(PoolSpec spec, MemberDriver driver, ClaimStore claims) {
        return new Builder(spec, driver, claims);
    }

    /** Subscribes to member and claim changes and starts the periodic resync. Reconciles once right away. */
    public synchronized PoolController start() {
        if (periodic != null) {
            return this;
        }
        String pool = spec.name();
        subscriptions.add(driver.watch(pool, event -> requestReconcile()));
        subscriptions.add(claims.watch(pool, this::requestReconcile));
        periodic = scheduler.scheduleAtFixedRate(Duration.ZERO, resyncPeriod, this::reconcileQuietly);
        return this;
    }

    /** The pool's spec as currently applied. */
    public PoolSpec spec() {
        return spec;
    }

    /** Replaces the spec (e.g. a new runningCount); takes effect on the next pass, which is requested now. */
    public void updateSpec(PoolSpec newSpec) {
        if (!newSpec.name().equals(spec.name())) {
            throw new IllegalArgumentException("name: bad value '" + newSpec.name() + "': a controller runs one pool, '"
                    + spec.name() + "'");
        }
        this.spec = newSpec;
        requestReconcile();
    }

    /** Claims a member with the pool's default lifetime. */
    public ClaimHandle claim(String claimName) {
        return claim(claimName, Optional.empty());
    }

    /**
     * Submits a claim and returns at once; the handle's future completes when a running member is assigned,
     * oldest claim first.
     *
     * @throws dev.hotspare.pool.spi.ClaimExistsException if a live claim of that name exists
     */
    public ClaimHandle claim(String claimName, Optional<Duration> lifetime) {
        Claim claim = claims.submit(spec.name(), claimName, lifetime, scheduler.clock().instant());
        ClaimHandle handle = new ClaimHandle(spec.name(), claimName, claim.createdAt(), new CompletableFuture<>());
        handles.put(claimName, handle);
        requestReconcile();
        return handle;
    }

    /** Ends a claim; its member is deleted by the next pass (a claimed member is never reused). Idempotent. */
    public boolean release(ClaimHandle handle) {
        boolean wasLive = claims.release(handle.pool(), handle.name());
        handles.remove(handle.name());
        handle.member().cancel(false);
        requestReconcile();
        return wasLive;
    }

    /** The last plan applied, if any pass ran. */
    public Optional<PoolPlan> lastPlan() {
        return Optional.ofNullable(lastPlan);
    }

    /** Asks for a pass soon; many requests before it runs collapse into one. */
    public void requestReconcile() {
        if (!closed && reconcileQueued.compareAndSet(false, true)) {
            scheduler.execute(this::reconcileQuietly);
        }
    }

    /** Runs one observe → plan → apply pass now and returns the plan it applied. */
    public synchronized PoolPlan reconcile() {
        reconcileQueued.set(false);
        PoolSpec current = spec;
        String pool = current.name();
        Instant now = scheduler.clock().instant();
        List<Member> members = driver.list(pool);
        List<Claim> live = new ArrayList<>(claims.live(pool));
        repairClaimRecords(pool, members, live);
        PoolPlan plan = PoolPlanner.plan(current, members, live, now);
        apply(pool, plan, members, live);
        completeAssignedHandles(pool);
        lastPlan = plan;
        listener.onPlanApplied(pool, plan, now);
        if (listener != PoolListener.NONE) {
            listener.membersPerState(pool, MemberState.count(members));
        }
        return plan;
    }

    private void reconcileQuietly() {
        if (closed) {
            return;
        }
        try {
            reconcile();
        } catch (RuntimeException e) {
            LOG.warn("reconcile of pool {} failed; the next pass retries", spec.name(), e);
        }
    }

    /**
     * Assignment writes the member first and the claim second; a crash in between leaves a member holding a
     * claim the store still calls pending. Record it, so the claim is not served twice.
     */
    private void repairClaimRecords(String pool, List<Member> members, List<Claim> live) {
        Map<String, Claim> pending = new HashMap<>();
        for (Claim c : live) {
            if (!c.isAssigned()) {
                pending.put(c.name(), c);
            }
        }
        if (pending.isEmpty()) {
            return;
        }
        for (int i = 0; i < members.size(); i++) {
            Member m = members.get(i);
            if (m.claimName().isPresent() && pending.containsKey(m.claimName().get())) {
                claims.assign(pool, m.claimName().get(), m.id(), m.claimedAt().orElseThrow());
                Claim before = pending.get(m.claimName().get());
                live.set(live.indexOf(before), before.assigned(m.id(), m.claimedAt().orElseThrow()));
            }
        }
    }

    private void apply(String pool, PoolPlan plan, List<Member> observed, List<Claim> live) {
        for (PoolPlan.Release release : plan.releases()) {
            attempt("release claim " + release.claimName(), () -> claims.release(pool, release.claimName()));
            ClaimHandle handle = handles.remove(release.claimName());
            if (handle != null) {
                handle.member().cancel(false);
            }
        }
        Map<String, Member> byId = null;
        Map<String, Instant> claimCreatedAt = null;
        for (PoolPlan.Assignment assignment : plan.assignments()) {
            if (byId == null) {
                byId = new HashMap<>();
                for (Member m : observed) {
                    byId.put(m.id(), m);
                }
                claimCreatedAt = new HashMap<>();
                for (Claim c : live) {
                    claimCreatedAt.put(c.name(), c.createdAt());
                }
            }
            Member before = byId.get(assignment.memberId());
            boolean done = attempt("assign " + assignment.memberId() + " to " + assignment.claimName(), () -> {
                driver.assign(pool, assignment.memberId(), assignment.claimName(), assignment.claimedAt());
                ClaimStore.AssignOutcome outcome = claims.assign(pool, assignment.claimName(), assignment.memberId(),
                        assignment.claimedAt());
                if (outcome != ClaimStore.AssignOutcome.ASSIGNED && outcome != ClaimStore.AssignOutcome.ALREADY_ASSIGNED) {
                    // The claim was released or given elsewhere meanwhile; the next pass deletes this member.
                    throw new IllegalStateException("claim store answered " + outcome);
                }
            });
            if (done) {
                listener.onClaimAssigned(pool, assignment, before);
                reportServed(pool, before, claimCreatedAt.get(assignment.claimName()));
                ClaimHandle handle = handles.remove(assignment.claimName());
                if (handle != null) {
                    handle.member().complete(before);
                }
            }
        }
        for (PoolPlan.PowerChange change : plan.powerChanges()) {
            attempt("power " + change.memberId() + " " + change.to(),
                    () -> driver.setDesiredPower(pool, change.memberId(), change.to()));
        }
        int deleted = 0;
        for (PoolPlan.Delete delete : plan.deletes()) {
            if (attempt("delete " + delete.memberId(), () -> driver.delete(pool, delete.memberId()))) {
                deleted++;
            }
        }
        int created = 0;
        for (PoolPlan.Create create : plan.creates()) {
            if (attempt("create member", () -> driver.create(pool, create.templateVersion(), create.power()))) {
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

    /** The claim's wait ends now, and its service is judged by the member as it was when the claim arrived. */
    private void reportServed(String pool, Member before, Instant claimCreatedAt) {
        if (listener == PoolListener.NONE || before == null || claimCreatedAt == null) {
            return;
        }
        Duration wait = Duration.between(claimCreatedAt, scheduler.clock().instant());
        listener.claimServed(pool, ClaimService.classify(before, claimCreatedAt), wait.isNegative() ? Duration.ZERO : wait);
    }

    /** Handles of claims assigned by another controller (or before a restart) complete here. */
    private void completeAssignedHandles(String pool) {
        if (handles.isEmpty()) {
            return;
        }
        for (ClaimHandle handle : List.copyOf(handles.values())) {
            Optional<Claim> claim = claims.find(pool, handle.name());
            if (claim.isEmpty()) {
                handles.remove(handle.name());
                handle.member().cancel(false);
            } else if (claim.get().assignedMember().isPresent()) {
                driver.find(pool, claim.get().assignedMember().get()).ifPresent(member -> {
                    handles.remove(handle.name());
                    handle.member().complete(member);
                });
            }
        }
    }

    private boolean attempt(String what, Runnable action) {
        try {
            action.run();
            return true;
        } catch (RuntimeException e) {
            LOG.warn("pool {}: {} failed; the next pass retries: {}", spec.name(), what, e.toString());
            return false;
        }
    }

    /** Stops the resync and the subscriptions. Outstanding claim handles stay as they are. */
    @Override
    public synchronized void close() {
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

    /** Builder for {@link PoolController}. */
    public static final class Builder {
        private final PoolSpec spec;
        private final MemberDriver driver;
        private final ClaimStore claims;
        private TaskScheduler scheduler;
        private Duration resyncPeriod = Duration.ofSeconds(30);
        private PoolListener listener = PoolListener.NONE;
        private PoolListener kpis = PoolListener.NONE;

        private Builder(PoolSpec spec, MemberDriver driver, ClaimStore claims) {
            this.spec = Objects.requireNonNull(spec, "spec");
            this.driver = Objects.requireNonNull(driver, "driver");
            this.claims = Objects.requireNonNull(claims, "claims");
        }

        /** Where passes run and what clock they read. Required. */
        public Builder scheduler(TaskScheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            return this;
        }

        /** How often to reconcile when nothing changes (default 30 s): catches what a missed event would hide. */
        public Builder resyncPeriod(Duration resyncPeriod) {
            if (resyncPeriod.isNegative() || resyncPeriod.isZero()) {
                throw new IllegalArgumentException("resyncPeriod: bad value '" + resyncPeriod + "': must be positive");
            }
            this.resyncPeriod = resyncPeriod;
            return this;
        }

        /** Receives every applied plan and assignment (metrics, logs, the simulator). */
        public Builder listener(PoolListener listener) {
            this.listener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /**
         * Receives the pool's KPIs (default: none): claims served with their wait, members per state after
         * each pass, member creates and deletes. A listener that throws is logged and ignored.
         */
        public Builder kpis(PoolListener kpis) {
            this.kpis = Objects.requireNonNull(kpis, "kpis");
            return this;
        }

        public PoolController build() {
            if (scheduler == null) {
                throw new IllegalStateException("scheduler: bad value '<missing>': set one with scheduler(TaskScheduler)");
            }
            return new PoolController(this);
        }
    }
}
