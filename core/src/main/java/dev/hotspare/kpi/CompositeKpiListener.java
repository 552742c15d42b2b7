package dev.hotspare.kpi;

import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.lock.LockId;
import dev.hotspare.fleet.lock.LockOutcome;
import dev.hotspare.pool.ClaimService;
import dev.hotspare.pool.MemberState;
import dev.hotspare.pool.ScaleOperation;
import dev.hotspare.rollout.RolloutProgress;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** {@link KpiListener#all}: forwards to guarded listeners, so one failing does not starve the others. */
final class CompositeKpiListener implements KpiListener {

    private final List<KpiListener> listeners;

    CompositeKpiListener(List<KpiListener> guardedListeners) {
        this.listeners = List.copyOf(guardedListeners);
    }

    @Override
    public void claimServed(String pool, ClaimService service, Duration wait) {
        listeners.forEach(l -> l.claimServed(pool, service, wait));
    }

    @Override
    public void membersPerState(String pool, Map<MemberState, Integer> counts) {
        listeners.forEach(l -> l.membersPerState(pool, counts));
    }

    @Override
    public void roomsPerStatus(String scheduler, RoomStatusCounts counts) {
        listeners.forEach(l -> l.roomsPerStatus(scheduler, counts));
    }

    @Override
    public void scaled(String pool, ScaleOperation operation, int count) {
        listeners.forEach(l -> l.scaled(pool, operation, count));
    }

    @Override
    public void lockWaited(LockId lock, LockOutcome outcome, Duration wait) {
        listeners.forEach(l -> l.lockWaited(lock, outcome, wait));
    }

    @Override
    public void leaseLost(LockId lock) {
        listeners.forEach(l -> l.leaseLost(lock));
    }

    @Override
    public void rolloutProgress(String rollout, RolloutProgress progress) {
        listeners.forEach(l -> l.rolloutProgress(rollout, progress));
    }
}
