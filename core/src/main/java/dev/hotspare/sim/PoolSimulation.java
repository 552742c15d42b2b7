package dev.hotspare.sim;

import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.ClaimService;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.MemberPhase;
import dev.hotspare.pool.ObservedPower;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.pool.runtime.PoolListener;
import dev.hotspare.pool.spi.MemberDriver.MemberEvent;
import dev.hotspare.time.VirtualClock;
import dev.hotspare.time.VirtualTimeScheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * Replays a claim trace against a pool on virtual time, through the real {@link PoolController} and the
 * in-memory driver — the same code that runs in production, only the clock is simulated. A month of claims
 * takes well under a second per configuration.
 */
public final class PoolSimulation {

    private PoolSimulation() {
    }

    /**
     * Runs {@code trace} against {@code settings}. The pool starts empty and gets
     * {@code installTime + resumeTime + 10 min} to warm up before the first claim; measurement starts at the
     * first claim and ends at the last claim's arrival plus its hold, or later if claims are still waiting then
     * (by at most an install, a resume and an hour; claims unserved after that count with their wait so far).
     */
    public static SimulationReport run(SimulationSettings settings, List<ClaimArrival> trace) {
        return run(settings, trace, PoolListener.NONE);
    }

    /**
     * {@link #run(SimulationSettings, List)}, reporting the simulated pool's KPIs to {@code kpis} exactly as a
     * live {@link PoolController} does (it is one: the simulator runs the real controller with {@code kpis}
     * plugged in). The warm-up before the first claim is reported too (its creates and member states); waits
     * are in virtual time.
     */
    public static SimulationReport run(SimulationSettings settings, List<ClaimArrival> trace, PoolListener kpis) {
        return run(settings, trace, kpis, List.of());
    }

    /**
     * {@link #run(SimulationSettings, List)} with the static runningCount changed at the given instants (through
     * {@link PoolController#updateSpec}, as an operator's schedule would); the report's runningCount is the spec's
     * at the start.
     *
     * @param settings the pool (a fixed runningCount)
     * @param trace    the claims, at least one
     * @param schedule the changes, in any order
     * @return what the run measured
     */
    public static SimulationReport runScheduled(SimulationSettings settings, List<ClaimArrival> trace, List<CountChange> schedule) {
        return run(settings, trace, PoolListener.NONE, schedule);
    }

    private static SimulationReport run(SimulationSettings settings, List<ClaimArrival> trace, PoolListener kpis,
                                        List<CountChange> schedule) {
        if (trace.isEmpty()) {
            throw new IllegalArgumentException("trace: bad value '[]': needs at least one claim");
        }
        Instant measureFrom = trace.get(0).at();
        Instant warmStart = measureFrom.minus(settings.installTime()).minus(settings.resumeTime()).minus(Duration.ofMinutes(10));
        VirtualTimeScheduler time = new VirtualTimeScheduler(new VirtualClock(warmStart));
        InMemoryMemberDriver driver = InMemoryMemberDriver.builder(time).installTime(settings.installTime())
                .resumeTime(settings.resumeTime()).hibernateTime(settings.hibernateTime()).build();
        String pool = settings.spec().name();
        PowerMeter meter = new PowerMeter(measureFrom);
        driver.watch(pool, event -> meter.onEvent(event, time.now()));
        List<Duration> waits = new ArrayList<>();
        int[] served = new int[3];
        PoolController controller = PoolController.builder(settings.spec()).memberDriver(driver).claimStore(new InMemoryClaimStore())
                .scheduler(time).resyncPeriod(settings.resyncPeriod()).listener(kpis).build().start();

        for (CountChange change : schedule) {
            Duration after = Duration.between(warmStart, change.at());
            time.schedule(after.isNegative() ? Duration.ZERO : after, () -> controller.updateSpec(
                    controller.spec().toBuilder().runningCount(change.runningCount()).build()));
        }
        List<ClaimHandle> open = new ArrayList<>();
        Instant end = measureFrom;
        for (int i = 0; i < trace.size(); i++) {
            ClaimArrival arrival = trace.get(i);
            Instant releaseBy = arrival.at().plus(arrival.hold());
            if (releaseBy.isAfter(end)) {
                end = releaseBy;
            }
            String name = "claim-" + i;
            time.schedule(Duration.between(warmStart, arrival.at()), () -> {
                ClaimHandle handle = controller.claim(name);
                open.add(handle);
                handle.member().thenAccept(member -> {
                    Instant now = time.now();
                    waits.add(Duration.between(handle.createdAt(), now));
                    served[ClaimService.classify(member, handle.createdAt()).ordinal()]++;
                    open.remove(handle);
                    time.schedule(arrival.hold(), () -> controller.release(handle));
                });
            });
        }
        time.advanceTo(end);
        // Claims still waiting at the end get the time a pool would need to serve them from scratch.
        Instant cap = end.plus(settings.installTime()).plus(settings.resumeTime()).plus(Duration.ofHours(1));
        while (!open.isEmpty() && time.now().isBefore(cap)) {
            time.advanceBy(settings.resyncPeriod());
        }
        end = time.now();
        controller.close();
        for (ClaimHandle handle : open) {
            waits.add(Duration.between(handle.createdAt(), end));
        }
        meter.close(end);
        waits.sort(null);
        int servedCount = served[0] + served[1] + served[2];
        return new SimulationReport(settings.spec().runningCount(), trace.size(), servedCount,
                percentile(waits, 50), percentile(waits, 95), percentile(waits, 99), waits.get(waits.size() - 1),
                served[ClaimService.HOT.ordinal()], served[ClaimService.WARM.ordinal()], served[ClaimService.COLD.ordinal()],
                meter.runningHours(), meter.hibernatedHours());
    }

    /**
     * Runs the trace once per runningCount in {@code from..to}, calling {@code progress} after each.
     */
    public static List<SimulationReport> sweep(SimulationSettings settings, List<ClaimArrival> trace, int from, int to,
                                               IntConsumer progress) {
        if (from < 0 || to < from) {
            throw new IllegalArgumentException("runningCount range: bad value '" + from + ".." + to + "': needs 0 <= from <= to");
        }
        List<SimulationReport> reports = new ArrayList<>();
        for (int running = from; running <= to; running++) {
            reports.add(run(settings.withRunningCount(running), trace));
            progress.accept(running - from + 1);
        }
        return reports;
    }

    /** Nearest-rank percentile of sorted {@code values}. */
    static Duration percentile(List<Duration> sorted, int p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }

    /** Integrates member-hours per power bucket from driver events, counting only time after {@code from}. */
    private static final class PowerMeter {
        private final Instant from;
        private final Map<String, Interval> open = new HashMap<>();
        private double runningSeconds;
        private double hibernatedSeconds;

        private record Interval(boolean running, boolean hibernated, Instant since) {
        }

        PowerMeter(Instant from) {
            this.from = from;
        }

        void onEvent(MemberEvent event, Instant now) {
            if (event instanceof MemberEvent.Added added) {
                closeAndOpen(added.member(), now);
            } else if (event instanceof MemberEvent.Updated updated) {
                closeAndOpen(updated.member(), now);
            } else if (event instanceof MemberEvent.Removed removed) {
                closeInterval(open.remove(removed.memberId()), now);
            }
        }

        private void closeAndOpen(Member member, Instant now) {
            closeInterval(open.remove(member.id()), now);
            boolean provisioning = member.phase() == MemberPhase.PROVISIONING;
            boolean deleting = member.phase() == MemberPhase.DELETING || member.phase() == MemberPhase.FAILED;
            ObservedPower power = member.observedPower();
            boolean running = !deleting && (provisioning || power == ObservedPower.RUNNING || power == ObservedPower.RESUMING
                    || power == ObservedPower.HIBERNATING_IN_PROGRESS);
            boolean hibernated = !deleting && !provisioning && power == ObservedPower.HIBERNATING;
            open.put(member.id(), new Interval(running, hibernated, now));
        }

        private void closeInterval(Interval interval, Instant now) {
            if (interval == null) {
                return;
            }
            Instant start = interval.since().isBefore(from) ? from : interval.since();
            if (!now.isAfter(start)) {
                return;
            }
            double seconds = Duration.between(start, now).toMillis() / 1000.0;
            if (interval.running()) {
                runningSeconds += seconds;
            } else if (interval.hibernated()) {
                hibernatedSeconds += seconds;
            }
        }

        void close(Instant end) {
            for (Interval interval : open.values()) {
                closeInterval(interval, end);
            }
            open.clear();
        }

        double runningHours() {
            return runningSeconds / 3600;
        }

        double hibernatedHours() {
            return hibernatedSeconds / 3600;
        }
    }
}
