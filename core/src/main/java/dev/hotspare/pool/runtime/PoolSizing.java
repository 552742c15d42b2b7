package dev.hotspare.pool.runtime;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.sizing.HotSpareSizer;
import dev.hotspare.pool.sizing.HotSpareSizer.SizingDecision;
import dev.hotspare.pool.sizing.HotSpareSizer.SizingInput;
import dev.hotspare.pool.sizing.SizerSettings;
import dev.hotspare.pool.sizing.SizingHistory;
import dev.hotspare.pool.sizing.SizingHistory.ClaimWait;
import dev.hotspare.pool.spi.ClaimStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The pool controller's auto-sizing: the claim arrivals and served waits it records, and, once per sizing
 * interval, the {@link HotSpareSizer}'s decision of the running count a pass plans with. Split out of
 * {@link PoolController} (issue 24): the controller asks it for the spec of each pass and tells it what it served.
 */
final class PoolSizing {

    private static final Logger LOG = LoggerFactory.getLogger(PoolController.class);

    /** The most arrivals and waits the history keeps, however busy the pool (memory is bounded). */
    static final int HISTORY_CAP = 200_000;

    private final Duration sizingInterval;
    private final PoolListener listener;
    /** Where the sizer's history survives a restart (PostgreSQL keeps it; the in-memory store none). */
    private final ClaimStore claims;
    /** Auto-sizing state, all under the pass lock: claim arrivals seen (oldest first) and the live claims seen last pass. */
    private final Deque<Instant> arrivals = new ArrayDeque<>();
    /** The sizer's history (under the pass lock): arrivals of the last two weeks, and since when they are kept. */
    private final Deque<Instant> historyArrivals = new ArrayDeque<>();
    private Instant historySince;
    /** Served claims' waits for the sizer's error budget; filled where claims are served, so guarded by itself. */
    private final Deque<ClaimWait> servedWaits = new ArrayDeque<>();
    private Map<String, Instant> seenClaims = Map.of();
    /** Claims the fast path served: no pass may ever have seen them pending, so they are counted from here. */
    private final ConcurrentLinkedQueue<Claim> fastArrivals = new ConcurrentLinkedQueue<>();
    /** The sizer's own running count (applied or, in shadow mode, only reported); -1 before its first decision. */
    private volatile int sizerCount = -1;
    private Instant lastSizingAt;
    private Optional<Instant> lastSizingChange = Optional.empty();
    private volatile SizingDecision lastSizing;

    PoolSizing(Duration sizingInterval, PoolListener listener, ClaimStore claims) {
        this.sizingInterval = sizingInterval;
        this.listener = listener;
        this.claims = claims;
    }

    /** A claim was served after waiting since {@code createdAt}: its wait counts toward the sizer's error budget. */
    void served(Instant createdAt, Instant now) {
        Duration waited = Duration.between(createdAt, now);
        synchronized (servedWaits) {
            servedWaits.addLast(new ClaimWait(createdAt, waited.isNegative() ? Duration.ZERO : waited));
            while (servedWaits.size() > HISTORY_CAP) {
                servedWaits.pollFirst();
            }
        }
    }

    /** A claim the fast path served: an arrival the next pass records. */
    void servedAtOnce(Claim claim) {
        fastArrivals.add(claim);
    }

    /** How often the sizer decides. */
    Duration interval() {
        return sizingInterval;
    }

    /** The last decision, if the sizer decided once. */
    Optional<SizingDecision> last() {
        return Optional.ofNullable(lastSizing);
    }

    /**
     * The spec this pass plans with. Without auto-sizing, the spec. With it, the claims seen are recorded as
     * arrivals and, once per sizing interval, the sizer decides from them and from the measured resume and install
     * times; applied, its count replaces the spec's runningCount; in shadow mode the spec is planned as written and
     * the decision is only logged and reported. Called under the pass lock and the monitor of {@code transitions}.
     */
    PoolSpec sized(PoolSpec current, List<Claim> live, Instant now, TransitionTimes transitions) {
        if (current.autoSizing().isEmpty()) {
            // Sizing switched off (or never on): a later switch on starts afresh from the spec's count.
            sizerCount = -1;
            arrivals.clear();
            historyArrivals.clear();
            historySince = null;
            fastArrivals.clear();
            synchronized (servedWaits) {
                servedWaits.clear();
            }
            seenClaims = Map.of();
            return current;
        }
        SizerSettings settings = current.autoSizing().get();
        if (historySince == null) {
            resumeHistory(current.name(), live, now, settings.longWindow());
        }
        recordArrivals(live, now, settings.longWindow());
        if (sizerCount < 0) {
            sizerCount = current.runningCount();
        }
        if (lastSizingAt == null || !now.isBefore(lastSizingAt.plus(sizingInterval))) {
            List<ClaimWait> waits;
            synchronized (servedWaits) {
                Instant horizon = now.minus(SizingHistory.KEPT);
                servedWaits.removeIf(cw -> cw.arrivedAt().isBefore(horizon));
                waits = List.copyOf(servedWaits);
            }
            SizingHistory history = new SizingHistory(Optional.of(historySince), List.copyOf(historyArrivals), waits);
            SizingDecision decision = HotSpareSizer.decide(settings, new SizingInput(List.copyOf(arrivals),
                    transitions.resumeSamples(), transitions.installSamples(), sizerCount, lastSizingChange, now, history));
            lastSizingAt = now;
            lastSizing = decision;
            if (decision.changed()) {
                lastSizingChange = Optional.of(now);
                if (settings.apply()) {
                    LOG.info("pool {}: runningCount {} -> {}: {}", current.name(), sizerCount, decision.runningCount(),
                            decision.explanation());
                } else {
                    LOG.info("pool {}: shadow sizing would set runningCount {} -> {} (the pool keeps {}): {}",
                            current.name(), sizerCount, decision.runningCount(), current.runningCount(),
                            decision.explanation());
                }
            } else {
                LOG.debug("pool {}: sizing keeps runningCount {}: {}", current.name(), decision.runningCount(),
                        decision.explanation());
            }
            sizerCount = decision.runningCount();
            listener.sizingDecided(current.name(), decision, settings.apply());
        }
        return effectiveFor(current);
    }

    /**
     * The first sizing pass: the history the claim store kept is taken over, so a restarted controller sizes as its
     * predecessor did; otherwise watching starts now and the store is told so. The live claims are in the stored
     * arrivals already and are marked seen, so they are not counted twice.
     */
    private void resumeHistory(String pool, List<Claim> live, Instant now, Duration window) {
        Optional<SizingHistory> stored;
        try {
            stored = claims.sizingHistory(pool, now.minus(SizingHistory.KEPT));
        } catch (RuntimeException e) {
            // Sizing goes on without the history; it learns again, as a store that keeps none makes it.
            LOG.warn("pool {}: reading the sizer's history from the claim store failed; learning from now on: {}", pool, e.toString());
            stored = Optional.empty();
        }
        if (stored.isPresent() && stored.get().since().isPresent() && !stored.get().since().get().isAfter(now)) {
            SizingHistory h = stored.get();
            historySince = h.since().get();
            List<Instant> sorted = new ArrayList<>(h.arrivals());
            sorted.sort(null);
            Instant horizon = now.minus(window);
            for (Instant at : sorted) {
                if (!at.isAfter(now)) {
                    historyArrivals.addLast(at);
                    if (!at.isBefore(horizon)) {
                        arrivals.addLast(at);
                    }
                }
            }
            synchronized (servedWaits) {
                h.waits().stream().sorted(Comparator.comparing(ClaimWait::arrivedAt)).forEach(servedWaits::addLast);
                while (servedWaits.size() > HISTORY_CAP) {
                    servedWaits.pollFirst();
                }
            }
            Map<String, Instant> seen = new HashMap<>(Math.max(16, live.size() * 2));
            for (Claim c : live) {
                if (!c.createdAt().isBefore(now.minus(SizingHistory.KEPT))) {
                    seen.put(c.name(), c.createdAt());
                }
            }
            seenClaims = seen;
            LOG.info("pool {}: sizer history taken over from the claim store: watched since {}, {} arrivals, {} waits",
                    pool, historySince, historyArrivals.size(), h.waits().size());
            return;
        }
        historySince = now;
        try {
            claims.recordSizingStart(pool, now);
        } catch (RuntimeException e) {
            LOG.warn("pool {}: recording the sizer's start in the claim store failed; sizing goes on from now: {}", pool, e.toString());
        }
    }

    /** {@code current} with the sizer's count when sizing is applied and has decided; otherwise {@code current}. */
    PoolSpec effectiveFor(PoolSpec current) {
        boolean applied = current.autoSizing().map(SizerSettings::apply).orElse(false);
        int count = sizerCount;
        if (!applied || count < 0 || count == current.runningCount()) {
            return current;
        }
        // The sizer's count may lie outside bounds changed since by updateSpec; the spec's check is for the start.
        SizerSettings settings = current.autoSizing().get();
        int bounded = Math.max(settings.min(), Math.min(settings.max(), count));
        return current.toBuilder().runningCount(bounded).build();
    }

    /**
     * Each live claim not seen by the previous pass is an arrival at its creation time; arrivals older than the
     * sizer's long window are dropped. Claims made and served between two passes are missed: passes run on every
     * claim, so only a claim served by another controller before this one reads it is.
     */
    private void recordArrivals(List<Claim> live, Instant now, Duration window) {
        Map<String, Instant> seen = new HashMap<>(Math.max(16, live.size() * 2));
        for (Claim c : live) {
            seen.put(c.name(), c.createdAt());
            if (!c.createdAt().equals(seenClaims.get(c.name()))) {
                arrivals.addLast(c.createdAt());
                historyArrivals.addLast(c.createdAt());
            }
        }
        // Claims the fast path served: a pass may never have seen them pending; each counts once.
        for (Claim c; (c = fastArrivals.poll()) != null; ) {
            if (!c.createdAt().equals(seenClaims.get(c.name())) && !seen.containsKey(c.name())) {
                arrivals.addLast(c.createdAt());
                historyArrivals.addLast(c.createdAt());
            }
            seen.put(c.name(), c.createdAt());
        }
        seenClaims = seen;
        Instant horizon = now.minus(window);
        arrivals.removeIf(at -> at.isBefore(horizon));
        if (historySince == null) {
            historySince = now;
        }
        // Oldest first (mostly): drop from the head while it is older than the history kept.
        Instant kept = now.minus(SizingHistory.KEPT);
        while (!historyArrivals.isEmpty() && (historyArrivals.peekFirst().isBefore(kept) || historyArrivals.size() > HISTORY_CAP)) {
            historyArrivals.pollFirst();
        }
    }

}
