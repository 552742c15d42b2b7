package dev.hotspare.pool.runtime.kpis;

import dev.hotspare.kpi.RecordingKpis.Served;
import dev.hotspare.kpi.RecordingKpis;
import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.pool.runtime.PoolListener;
import dev.hotspare.testkit.property.Gen;
import dev.hotspare.testkit.property.Property;
import dev.hotspare.time.VirtualTimeScheduler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.hotspare.testkit.property.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/** Invariants of the pool controller's claim KPIs over random pools and claim sequences. */
class ClaimKpiProperties {

    /**
     * Every assignment is reported served exactly once (hot + warm + cold == claims assigned), with the wait
     * from the claim's creation to the moment its handle completed.
     */
    @Property(tries = 200)
    void everyAssignedClaimIsServedOnceWithItsWait() {
        record Args(int size, int running, List<Integer> arrivalMinutes, int holdMinutes) {
        }
        forAll(s -> new Args(
                Gen.integers(0, 4).generate(s),
                Gen.integers(0, 4).generate(s),
                Gen.integers(0, 180).list(1, 8).generate(s),
                Gen.integers(1, 120).generate(s))).check(args -> {
            int size = args.size();
            int running = args.running();
            List<Integer> arrivalMinutes = args.arrivalMinutes();
            int holdMinutes = args.holdMinutes();
            VirtualTimeScheduler time = VirtualTimeScheduler.startingAt2026();
            InMemoryMemberDriver driver = InMemoryMemberDriver.builder(time).installTime(Duration.ofMinutes(40))
                    .resumeTime(Duration.ofMinutes(5)).hibernateTime(Duration.ofMinutes(2)).build();
            AtomicInteger assigned = new AtomicInteger();
            RecordingKpis kpis = new RecordingKpis();
            PoolController controller = PoolController.builder(PoolSpec.builder("ci").size(size).runningCount(Math.min(running, size)).build())
                    .memberDriver(driver).claimStore(new InMemoryClaimStore()).scheduler(time).resyncPeriod(Duration.ofMinutes(1))
                    .listener(PoolListener.all(new PoolListener() {
                        @Override
                        public void onClaimAssigned(String pool, PoolPlan.Assignment assignment, Member memberBefore) {
                            assigned.incrementAndGet();
                        }
                    }, kpis)).build().start();
            List<Duration> handleWaits = new ArrayList<>();
            for (int i = 0; i < arrivalMinutes.size(); i++) {
                String name = "job-" + i;
                time.schedule(Duration.ofMinutes(arrivalMinutes.get(i)), () -> {
                    ClaimHandle handle = controller.claim(name);
                    handle.member().thenRun(() -> {
                        handleWaits.add(Duration.between(handle.createdAt(), time.now()));
                        time.schedule(Duration.ofMinutes(holdMinutes), () -> controller.release(handle));
                    });
                });
            }
            time.advanceBy(Duration.ofHours(8));
            controller.close();

            List<Served> served = kpis.calls(Served.class);
            assertThat(assigned.get()).as("every claim is served within 8 hours").isEqualTo(arrivalMinutes.size());
            assertThat(served).hasSize(assigned.get());
            assertThat(kpis.servedCounts().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(assigned.get());
            assertThat(served).extracting(Served::waited).containsExactlyInAnyOrderElementsOf(handleWaits);
            assertThat(served).allSatisfy(s -> assertThat(s.waited().isNegative()).isFalse());
        });
    }
}
