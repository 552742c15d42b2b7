package dev.hotspare.spring;

import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.lock.LockId;
import dev.hotspare.fleet.lock.LockListener.LockOutcome;
import dev.hotspare.kpi.KpiListener;
import dev.hotspare.micrometer.MicrometerKpis;
import dev.hotspare.pool.Claim.ClaimOutcome;
import dev.hotspare.pool.Claim.ClaimService;
import dev.hotspare.pool.Claim.ClaimStages;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberState;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolPlan.ScaleOperation;
import dev.hotspare.pool.sizing.HotSpareSizer.SizingDecision;
import dev.hotspare.rollout.RolloutState.RolloutProgress;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * hotspare's KPIs as a Micrometer {@link MeterBinder}: Spring Boot binds it to the application's meter registry
 * (each registry, if there are several), and from then on every KPI the pools and the fleet report is recorded as
 * {@link MicrometerKpis} records it ({@code hotspare.claim.wait}, {@code hotspare.members}, ...). It is also a
 * {@link KpiListener}, which is how the starter plugs it into every pool and the fleet. Events before the
 * first binding are not recorded; the starter starts pools and the fleet after Spring Boot has bound its binders.
 */
public final class HotspareMeterBinder implements MeterBinder, KpiListener {

    private final List<MeterRegistry> registries = new ArrayList<>();
    private volatile KpiListener delegate = KpiListener.NONE;

    /** A binder bound to no registry yet. */
    public HotspareMeterBinder() {
    }

    /**
     * Records hotspare's KPIs in {@code registry} too; binding the same registry twice records once.
     */
    @Override
    public synchronized void bindTo(MeterRegistry registry) {
        if (registries.stream().anyMatch(bound -> bound == registry)) {
            return;
        }
        registries.add(registry);
        List<KpiListener> all = new ArrayList<>();
        for (MeterRegistry bound : registries) {
            all.add(new MicrometerKpis(bound));
        }
        delegate = KpiListener.all(all);
    }

    /**
     * How many registries this binder records in.
     *
     * @return the number of distinct registries bound
     */
    public synchronized int boundRegistries() {
        return registries.size();
    }

    @Override
    public void onPlanApplied(String pool, PoolPlan plan, Instant now) {
        delegate.onPlanApplied(pool, plan, now);
    }

    @Override
    public void onClaimAssigned(String pool, PoolPlan.Assignment assignment, Member memberBefore) {
        delegate.onClaimAssigned(pool, assignment, memberBefore);
    }

    @Override
    public void claimServed(String pool, ClaimService service, Duration wait) {
        delegate.claimServed(pool, service, wait);
    }

    @Override
    public void claimStages(String pool, ClaimService service, ClaimStages stages) {
        delegate.claimStages(pool, service, stages);
    }

    @Override
    public void claimEnded(String pool, String claim, ClaimOutcome outcome) {
        delegate.claimEnded(pool, claim, outcome);
    }

    @Override
    public void membersPerState(String pool, Map<MemberState, Integer> counts) {
        delegate.membersPerState(pool, counts);
    }

    @Override
    public void sizingDecided(String pool, SizingDecision decision, boolean applied) {
        delegate.sizingDecided(pool, decision, applied);
    }

    @Override
    public void scaled(String pool, ScaleOperation operation, int count) {
        delegate.scaled(pool, operation, count);
    }

    @Override
    public void roomsScaled(String scheduler, ScaleOperation operation, int count) {
        delegate.roomsScaled(scheduler, operation, count);
    }

    @Override
    public void roomsPerStatus(String scheduler, RoomStatusCounts counts) {
        delegate.roomsPerStatus(scheduler, counts);
    }

    @Override
    public void schedulerRemoved(String scheduler) {
        delegate.schedulerRemoved(scheduler);
    }

    @Override
    public void lockWaited(LockId lock, LockOutcome outcome, Duration wait) {
        delegate.lockWaited(lock, outcome, wait);
    }

    @Override
    public void leaseLost(LockId lock) {
        delegate.leaseLost(lock);
    }

    @Override
    public void acquired(String kind, String key, long fencingToken, Duration waited) {
        delegate.acquired(kind, key, fencingToken, waited);
    }

    @Override
    public void handedOver(String kind, String key) {
        delegate.handedOver(kind, key);
    }

    @Override
    public void lost(String kind, String key) {
        delegate.lost(kind, key);
    }

    @Override
    public void rolloutProgress(String rollout, RolloutProgress progress) {
        delegate.rolloutProgress(rollout, progress);
    }
}
