package dev.hotspare.kpi;

import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.lock.LockId;
import dev.hotspare.fleet.lock.LockListener.LockOutcome;
import dev.hotspare.pool.Claim.ClaimOutcome;
import dev.hotspare.pool.Claim.ClaimService;
import dev.hotspare.pool.Claim.ClaimStages;
import dev.hotspare.pool.Member.MemberState;
import dev.hotspare.pool.PoolPlan.ScaleOperation;
import dev.hotspare.rollout.RolloutState.RolloutProgress;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Records every KPI call as a value, in order, for exact assertions. */
public final class RecordingKpis implements KpiListener {

    /** One recorded call. */
    public sealed interface Call {
    }

    public record Served(String pool, ClaimService service, Duration waited) implements Call {
    }

    public record Stages(String pool, ClaimService service, ClaimStages stages) implements Call {
    }

    public record Ended(String pool, String claim, ClaimOutcome outcome) implements Call {
    }

    public record Members(String pool, Map<MemberState, Integer> counts) implements Call {
    }

    public record Rooms(String scheduler, RoomStatusCounts counts) implements Call {
    }

    public record Scaled(String pool, ScaleOperation operation, int count) implements Call {
    }

    public record LockWait(LockId lock, LockOutcome outcome, Duration waited) implements Call {
    }

    public record LeaseLost(LockId lock) implements Call {
    }

    public record Progress(String rollout, RolloutProgress progress) implements Call {
    }

    private final List<Call> calls = new ArrayList<>();

    public synchronized List<Call> calls() {
        return List.copyOf(calls);
    }

    public synchronized <T extends Call> List<T> calls(Class<T> type) {
        return calls.stream().filter(type::isInstance).map(type::cast).toList();
    }

    public synchronized void clear() {
        calls.clear();
    }

    /** The last members-per-state snapshot of {@code pool}. */
    public synchronized Map<MemberState, Integer> lastMembers(String pool) {
        List<Members> all = calls(Members.class).stream().filter(m -> m.pool().equals(pool)).toList();
        return all.get(all.size() - 1).counts();
    }

    /** Served claims per service. */
    public synchronized Map<ClaimService, Long> servedCounts() {
        Map<ClaimService, Long> counts = new java.util.EnumMap<>(ClaimService.class);
        for (ClaimService s : ClaimService.values()) {
            counts.put(s, 0L);
        }
        calls(Served.class).forEach(s -> counts.merge(s.service(), 1L, Long::sum));
        return counts;
    }

    @Override
    public synchronized void claimServed(String pool, ClaimService service, Duration wait) {
        calls.add(new Served(pool, service, wait));
    }

    @Override
    public synchronized void claimStages(String pool, ClaimService service, ClaimStages stages) {
        calls.add(new Stages(pool, service, stages));
    }

    @Override
    public synchronized void claimEnded(String pool, String claim, ClaimOutcome outcome) {
        calls.add(new Ended(pool, claim, outcome));
    }

    @Override
    public synchronized void membersPerState(String pool, Map<MemberState, Integer> counts) {
        calls.add(new Members(pool, counts));
    }

    @Override
    public synchronized void roomsPerStatus(String scheduler, RoomStatusCounts counts) {
        calls.add(new Rooms(scheduler, counts));
    }

    @Override
    public synchronized void scaled(String pool, ScaleOperation operation, int count) {
        calls.add(new Scaled(pool, operation, count));
    }

    @Override
    public synchronized void lockWaited(LockId lock, LockOutcome outcome, Duration wait) {
        calls.add(new LockWait(lock, outcome, wait));
    }

    @Override
    public synchronized void leaseLost(LockId lock) {
        calls.add(new LeaseLost(lock));
    }

    @Override
    public synchronized void rolloutProgress(String rollout, RolloutProgress progress) {
        calls.add(new Progress(rollout, progress));
    }
}
