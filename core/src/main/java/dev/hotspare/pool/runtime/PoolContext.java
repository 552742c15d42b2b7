package dev.hotspare.pool.runtime;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.TaskScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What the parts of one pool controller share: its ports and settings, the spec, and the state every part reads
 * (closed, started, the last plan). Built by {@link PoolController}, which wires the parts to it.
 */
final class PoolContext {

    private static final Logger LOG = LoggerFactory.getLogger(PoolController.class);

    final MemberDriver driver;
    final ClaimStore claims;
    final TaskScheduler scheduler;
    final Duration resyncPeriod;
    final Duration closeTimeout;
    /** The least time between the starts of two passes asked for by events (zero: none). */
    final Duration passSpacing;
    /** The plan listener and the KPI listener in one, guarded. */
    final PoolListener listener;
    volatile PoolSpec spec;
    /** Whether this instance owns the pool now: only the owner plans and changes members and claims. */
    final java.util.function.BooleanSupplier owned;
    /** Held for a whole pass (and by close, to wait for one); releases and the fast path do not take it. */
    final ReentrantLock passLock = new ReentrantLock();
    /** Where a pass lets claim threads run while it works (issue 22). */
    final YieldToClaims yields = new YieldToClaims();
    /**
     * The members as the passes read them, kept between passes (pass lock): no whole-pool map per pass (issue 22).
     * The loop reads into it; record repair and the plan's assignments look members up in it.
     */
    final MemberTable table = new MemberTable(yields::point);
    final TransitionTimes transitions = new TransitionTimes();
    final CompletableFuture<Void> deleted = new CompletableFuture<>();
    volatile PoolPlan lastPlan;
    /** The auto-sizer's state and decisions. */
    final PoolSizing sizing;
    /** The spec as the last pass planned with: the spec, with the sized running count when sizing is applied. */
    volatile PoolSpec effective;
    volatile boolean closed;
    /** Set by {@link PoolController#start()}: only a started controller hands out between passes. */
    volatile boolean started;
    /** Set once by the controller: where {@link #requestReconcile()} goes. */
    ReconcileLoop loop;

    PoolContext(PoolSpec spec, MemberDriver driver, ClaimStore claims, TaskScheduler scheduler, Duration resyncPeriod,
                Duration closeTimeout, PoolListener listener, Duration sizingInterval,
                java.util.function.BooleanSupplier owned, Duration passSpacing) {
        this.spec = spec;
        this.passSpacing = passSpacing;
        this.driver = driver;
        this.claims = claims;
        this.scheduler = scheduler;
        this.resyncPeriod = resyncPeriod;
        this.closeTimeout = closeTimeout;
        this.listener = PoolListener.guarded(listener);
        this.sizing = new PoolSizing(sizingInterval, this.listener, claims);
        this.effective = spec;
        this.owned = owned;
    }

    void requestReconcile() {
        loop.requestReconcile();
    }

    /** One record per id and per name; a backend that lists one twice is reported, not fatal. */
    List<Member> unique(List<Member> listed) {
        Map<String, Member> byId = new LinkedHashMap<>();
        for (Member m : listed) {
            Member before = byId.putIfAbsent(m.id(), m);
            if (before != null && !before.equals(m)) {
                LOG.warn("pool {}: member {} listed twice with different records; using the first", spec.name(), m.id());
            }
        }
        return new ArrayList<>(byId.values());
    }

    List<Claim> uniqueClaims(List<Claim> listed) {
        Map<String, Claim> byName = new LinkedHashMap<>();
        for (Claim c : listed) {
            Claim before = byName.putIfAbsent(c.name(), c);
            if (before != null && !before.equals(c)) {
                LOG.warn("pool {}: claim {} listed twice with different records; using the first", spec.name(), c.name());
            }
        }
        return new ArrayList<>(byName.values());
    }

    static boolean attempt(String pool, String what, Runnable action) {
        return attempt(pool, () -> what, action);
    }

    /** As above, the description built only on failure: on the hand-out path it was a string per claim. */
    static boolean attempt(String pool, java.util.function.Supplier<String> what, Runnable action) {
        try {
            action.run();
            return true;
        } catch (RuntimeException e) {
            LOG.warn("pool {}: {} failed; the next pass retries: {}", pool, what.get(), e.toString());
            return false;
        }
    }
}
