package dev.hotspare.kpi;

import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.lock.LockId;
import dev.hotspare.fleet.lock.LockOutcome;
import dev.hotspare.pool.ClaimService;
import dev.hotspare.pool.MemberState;
import dev.hotspare.pool.ScaleOperation;
import dev.hotspare.rollout.RolloutProgress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@link KpiListener#guarded}: a metrics bug must never stop a reconcile pass or a lock renewal, and must not
 * flood the log either — the first failure is logged with its stack trace at WARN, later ones at DEBUG.
 */
final class GuardedKpiListener implements KpiListener {

    private static final Logger LOG = LoggerFactory.getLogger(KpiListener.class);

    private final KpiListener delegate;
    private final AtomicBoolean warned = new AtomicBoolean();

    GuardedKpiListener(KpiListener delegate) {
        this.delegate = delegate;
    }

    private void failed(String call, RuntimeException e) {
        if (warned.compareAndSet(false, true)) {
            LOG.warn("KPI listener {} failed in {}; ignored (further failures are logged at DEBUG)", delegate, call, e);
        } else {
            LOG.debug("KPI listener {} failed in {}; ignored", delegate, call, e);
        }
    }

    @Override
    public void claimServed(String pool, ClaimService service, Duration wait) {
        try {
            delegate.claimServed(pool, service, wait);
        } catch (RuntimeException e) {
            failed("claimServed", e);
        }
    }

    @Override
    public void membersPerState(String pool, Map<MemberState, Integer> counts) {
        try {
            delegate.membersPerState(pool, counts);
        } catch (RuntimeException e) {
            failed("membersPerState", e);
        }
    }

    @Override
    public void roomsPerStatus(String scheduler, RoomStatusCounts counts) {
        try {
            delegate.roomsPerStatus(scheduler, counts);
        } catch (RuntimeException e) {
            failed("roomsPerStatus", e);
        }
    }

    @Override
    public void scaled(String pool, ScaleOperation operation, int count) {
        try {
            delegate.scaled(pool, operation, count);
        } catch (RuntimeException e) {
            failed("scaled", e);
        }
    }

    @Override
    public void lockWaited(LockId lock, LockOutcome outcome, Duration wait) {
        try {
            delegate.lockWaited(lock, outcome, wait);
        } catch (RuntimeException e) {
            failed("lockWaited", e);
        }
    }

    @Override
    public void leaseLost(LockId lock) {
        try {
            delegate.leaseLost(lock);
        } catch (RuntimeException e) {
            failed("leaseLost", e);
        }
    }

    @Override
    public void rolloutProgress(String rollout, RolloutProgress progress) {
        try {
            delegate.rolloutProgress(rollout, progress);
        } catch (RuntimeException e) {
            failed("rolloutProgress", e);
        }
    }

    @Override
    public String toString() {
        return delegate.toString();
    }
}
