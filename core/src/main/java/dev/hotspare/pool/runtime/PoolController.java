package dev.hotspare.pool.runtime;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Claim.ClaimClass;
import dev.hotspare.pool.Claim.ClaimOutcome;
import dev.hotspare.pool.Claim.ClaimReason;
import dev.hotspare.pool.Claim.ClaimStages;
import dev.hotspare.pool.Claim.Reservation;
import dev.hotspare.pool.ClaimRequest;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolPlanner;
import dev.hotspare.pool.PoolPlanner.TypicalDurations;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle.ClaimExpiredException;
import dev.hotspare.pool.sizing.HotSpareSizer.SizingDecision;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import java.time.Instant;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

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

    private final PoolContext ctx;
    private final ClaimsApi claimsApi;
    private final FastPath fastPath;
    private final ReconcileLoop loop;

    private PoolController(Builder b) {
        this.ctx = new PoolContext(b.spec, b.driver, b.claims, b.scheduler, b.resyncPeriod, b.closeTimeout, b.listener,
                b.sizingInterval, b.owned, b.passSpacing);
        ClaimTracking tracking = new ClaimTracking(ctx);
        PlanApplier applier = new PlanApplier(ctx, tracking);
        this.fastPath = new FastPath(ctx, applier);
        this.claimsApi = new ClaimsApi(ctx, tracking, fastPath);
        this.loop = new ReconcileLoop(ctx, tracking, fastPath, applier, claimsApi);
        ctx.loop = loop;
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
        loop.start();
        return this;
    }

    /**
     * The pool's spec as currently applied.
     */
    public PoolSpec spec() {
        return ctx.spec;
    }

    /**
     * Replaces the spec (e.g. a new runningCount); takes effect on the next pass, which is requested now. A spec
     * with {@code deleted: true} deletes the pool like {@link #delete()}; a deleted pool cannot be revived.
     *
     * @param newSpec the spec, for the same pool
     * @throws ValidationException if it names another pool, or revives a deleted one
     */
    public void updateSpec(PoolSpec newSpec) {
        PoolSpec current = ctx.spec;
        if (!newSpec.name().equals(current.name())) {
            throw new ValidationException(Problem.of("name", newSpec.name(), "a controller runs one pool, '" + current.name() + "'"));
        }
        if (current.deleted() && !newSpec.deleted()) {
            throw new ValidationException(Problem.of("deleted", false, "pool '" + current.name() + "' is being deleted and cannot be revived"));
        }
        ctx.spec = newSpec;
        loop.requestReconcile();
    }

    /**
     * Claims a member with the pool's default lifetime.
     *
     * @param claimName a DNS-1123 label, unique among the pool's live claims
     * @return the handle; its future completes when a member is assigned
     * @throws dev.hotspare.pool.spi.ClaimStore.ClaimExistsException if a live claim of that name exists
     * @throws PoolDeletedException                        if the pool is being deleted
     */
    public ClaimHandle claim(String claimName) {
        return claimsApi.claim(claimName);
    }

    /**
     * Submits a claim and returns at once; the handle's future completes when a running member is assigned,
     * oldest claim first.
     *
     * @param claimName a DNS-1123 label, unique among the pool's live claims
     * @param lifetime  how long it wants its member (capped by the pool's maximum); empty for the pool's default
     * @throws dev.hotspare.pool.spi.ClaimStore.ClaimExistsException if a live claim of that name exists
     * @throws PoolDeletedException                        if the pool is being deleted
     */
    public ClaimHandle claim(String claimName, Optional<Duration> lifetime) {
        return claimsApi.claim(claimName, lifetime);
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
     * @throws dev.hotspare.pool.spi.ClaimStore.ClaimExistsException if a live claim of that name exists
     * @throws PoolDeletedException                        if the pool is being deleted
     * @throws UnsupportedOperationException               if the claim store keeps no class or deadline and one was asked for
     */
    public ClaimHandle claim(ClaimRequest request) {
        return claimsApi.claim(request);
    }

    /** Claims whose threads wait for another claim thread to submit them; for tests. */
    int claimsWaitingToSubmit() {
        return claimsApi.waitingToSubmit();
    }

    /** What the fast path would hand out now (claim->member), without handing it out; for tests. */
    List<String> wouldHandOut() {
        return fastPath.wouldHandOut();
    }

    /** Whether the hand-out index equals one rebuilt from the stores now; for tests (call with no pass running). */
    boolean handOutMatchesRebuild() {
        return fastPath.handOutMatchesRebuild();
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
        return claimsApi.reserve(key, ttl);
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
        return claimsApi.confirm(key);
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
        return claimsApi.release(handle);
    }

    /**
     * Ends claim {@code claimName}; see {@link #release(ClaimHandle)}.
     *
     * @param claimName the claim
     * @return whether the claim was live
     */
    public boolean release(String claimName) {
        return claimsApi.release(claimName);
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
        return claimsApi.explain(claimName);
    }

    /**
     * Deletes the pool: from now on new claims are refused ({@link PoolDeletedException}), pending claims are not
     * served, unclaimed members are deleted within {@code maxConcurrent}, and claimed members stay until their
     * claims are released. The plan's status lists the members deletion still waits for. Idempotent.
     *
     * @return completes once a pass observes the pool without members
     */
    public CompletableFuture<Void> delete() {
        PoolSpec current = ctx.spec;
        if (!current.deleted()) {
            ctx.spec = current.toBuilder().deleted(true).build();
        }
        loop.requestReconcile();
        return ctx.deleted;
    }

    /**
     * How long installs and resumes have taken in this pool, as this controller observed them (the median of the
     * latest few of each); what the expected ready times of waiting claims are computed from.
     *
     * @return the typical durations; empty parts until one transition of that kind was seen
     */
    public TypicalDurations typicalDurations() {
        synchronized (ctx.transitions) {
            return ctx.transitions.typical();
        }
    }

    /**
     * The last plan applied, if any pass ran.
     */
    public Optional<PoolPlan> lastPlan() {
        return Optional.ofNullable(ctx.lastPlan);
    }

    /** Asks for a pass soon; many requests before it runs collapse into one. Does nothing once closed. */
    public void requestReconcile() {
        loop.requestReconcile();
    }

    /**
     * Runs one observe → plan → apply pass now and returns the plan it applied.
     *
     * @throws IllegalStateException           if the controller is closed
     * @throws dev.hotspare.spi.StoreUnavailableException if the members or claims cannot be read
     */
    public PoolPlan reconcile() {
        return loop.reconcile();
    }

    /**
     * The sizer's last decision, when the spec asks for auto-sizing and it has decided once: applied, the running
     * count in force; in shadow mode ({@code apply: false}), what it would have set.
     *
     * @return the last decision, or empty
     */
    public Optional<SizingDecision> sizing() {
        return ctx.spec.autoSizing().isPresent() ? ctx.sizing.last() : Optional.empty();
    }

    /**
     * The running count the pool keeps now: the spec's, or the sizer's when sizing is applied.
     *
     * @return the running count the last pass planned with
     */
    public int effectiveRunningCount() {
        return ctx.effective.runningCount();
    }

    /**
     * Stops the resync and the subscriptions, then waits for a pass already running to finish (at most the
     * builder's {@code closeTimeout}), so nothing the pass does reaches a scheduler or driver the caller shuts down
     * next. No pass starts afterwards. Outstanding claim handles stay as they are.
     */
    @Override
    public void close() {
        loop.close();
    }

    /**
     * The settings this controller was built with (its ports are not settings).
     */
    public Settings settings() {
        return new Settings(ctx.spec.name(), ctx.resyncPeriod, ctx.closeTimeout, ctx.sizing.interval(), ctx.passSpacing);
    }

    /**
     * A pool controller's settings, read back.
     *
     * @param pool           the pool's name
     * @param resyncPeriod   how often it reconciles when nothing changes
     * @param closeTimeout   how long {@link #close()} waits for a pass already running
     * @param sizingInterval how often the auto-sizer decides
     * @param passSpacing    the least time between the starts of two passes asked for by events
     */
    public record Settings(String pool, Duration resyncPeriod, Duration closeTimeout, Duration sizingInterval,
                           Duration passSpacing) {
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
        private Duration passSpacing = Duration.ZERO;
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
         * The least time between the starts of two passes asked for by events (default zero: a pass starts as soon
         * as one is asked for and none runs). Claims never wait for a pass while a member is ready; passes replenish,
         * hibernate, delete and serve claims that found no member. Under thousands of claims and releases a second,
         * every release asks for a pass and passes would run back to back; spaced, each pass settles everything that
         * changed since the one before, and the claimers keep the CPU. The periodic resync and
         * {@link PoolController#reconcile()} are not spaced.
         *
         * @param value zero or more, e.g. 50 ms for a pool serving thousands of claims a second
         * @return this builder
         */
        public Builder passSpacing(Duration value) {
            this.passSpacing = value;
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
            if (passSpacing == null || passSpacing.isNegative()) {
                problems.add(Problem.of("passSpacing", passSpacing == null ? Problem.MISSING : passSpacing, "must not be negative"));
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

    /**
     * What {@link PoolController#explain} says about one live claim: the claim as stored (with its created, assigned
     * and ready times, its class, deadline and served outcome), its one current reason, and how its wait so far splits
     * into queue, resume and install.
     *
     * @param claim  the claim as the claim store has it
     * @param reason why it is where it is: what it waits for, or the member it holds
     * @param waited its wait by stage: so far while it waits, the whole wait once served (zero parts when this
     *               controller did not see it wait)
     */
    public record ClaimExplanation(String pool, Claim claim, ClaimReason reason, ClaimStages waited) {

        /**
         * Checks the fields.
         *
         * @param claim the claim as the claim store has it
         * @param reason why it is where it is: what it waits for, or the member it holds
         * @param waited its wait by stage: so far while it waits, the whole wait once served (zero parts when this
         * @throws NullPointerException if a field is null
         */
        public ClaimExplanation {
            Objects.requireNonNull(pool, "pool");
            Objects.requireNonNull(claim, "claim");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(waited, "waited");
        }

        /**
         * The claim's priority class.
         */
        public ClaimClass claimClass() {
            return claim.claimClass();
        }

        /**
         * The claim's deadline.
         *
         * @return when it must be served by, if it has one
         */
        public Optional<Instant> deadline() {
            return claim.deadline();
        }

        /**
         * How the claim was served, once it was (ended claims are not live, so explain has nothing to say about them).
         *
         * @return a served kind, or empty while pending or when the store kept none
         */
        public Optional<ClaimOutcome> outcome() {
            return claim.outcome();
        }
    }

    /** A claim was made on a pool that is being deleted; nothing was written. */
    public static final class PoolDeletedException extends IllegalStateException {

        /** The pool being deleted. */
        private final String pool;
        /** The claim refused. */
        private final String claimName;

        /**
         * A refusal of claim {@code claimName} by pool {@code pool}.
         *
         * @param pool      the pool being deleted
         * @param claimName the claim refused
         */
        public PoolDeletedException(String pool, String claimName) {
            super("claimName: bad value '" + claimName + "': pool '" + pool + "' is being deleted and takes no new claims");
            this.pool = pool;
            this.claimName = claimName;
        }

        /**
         * The pool being deleted.
         *
         * @return its name
         */
        public String pool() {
            return pool;
        }

        /**
         * The claim that was refused.
         *
         * @return its name
         */
        public String claimName() {
            return claimName;
        }
    }
}
