package dev.hotspare.pool.runtime.classes;

import dev.hotspare.kpi.RecordingKpis;
import dev.hotspare.kpi.RecordingKpis.Ended;
import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.Claim.ClaimClass;
import dev.hotspare.pool.Claim.ClaimOutcome;
import dev.hotspare.pool.ClaimRequest;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.PoolSpec.ClaimLifetime;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.ClaimHandle.ClaimExpiredException;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.testkit.property.Gen;
import dev.hotspare.testkit.property.Property;
import dev.hotspare.time.VirtualTimeScheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.hotspare.testkit.property.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Over random pools and claim streams with classes, deadlines and withdrawals, run by a real controller on virtual
 * time: every claim ends its wait exactly once, with one outcome reported to the KPIs and the handle alike; no claim
 * is served at or after its deadline; a claim expires only at or after its deadline, and fails its handle with
 * {@link ClaimExpiredException}.
 */
class ClaimOutcomeProperties {

    /** A claim: arrival minute, priority, deadline (minutes after arrival) and withdrawal (minutes after arrival). */
    record Arrival(int minute, int priority, Optional<Integer> deadlineAfter, Optional<Integer> withdrawAfter) {
    }

    Gen<List<Arrival>> arrivals() {
        return Gen.combine(Gen.integers(0, 120), Gen.integers(0, 2),
                        Gen.integers(0, 60).optional(0.5), Gen.integers(1, 60).optional(0.2), Arrival::new).list(1, 10);
    }

    @Property(tries = 150)
    void everyClaimEndsOnceAndNeverServedAfterItsDeadline() {
        record Args(List<Arrival> arrivals, int size, int running, int maxSize, int agingMinutes) {
        }
        forAll(s -> new Args(
                arrivals().generate(s),
                Gen.integers(0, 3).generate(s),
                Gen.integers(0, 3).generate(s),
                Gen.integers(1, 4).generate(s),
                Gen.integers(0, 30).generate(s))).check(args -> {
            List<Arrival> arrivals = args.arrivals();
            int size = args.size();
            int running = args.running();
            int maxSize = args.maxSize();
            int agingMinutes = args.agingMinutes();
            VirtualTimeScheduler time = VirtualTimeScheduler.startingAt2026();
            InMemoryMemberDriver driver = InMemoryMemberDriver.builder(time).installTime(Duration.ofMinutes(20))
                    .resumeTime(Duration.ofMinutes(3)).hibernateTime(Duration.ofMinutes(1)).build();
            RecordingKpis kpis = new RecordingKpis();
            PoolController controller = PoolController.builder(PoolSpec.builder("ci").size(Math.min(size, maxSize))
                                    .runningCount(running).maxSize(maxSize).agingLimit(Duration.ofMinutes(agingMinutes))
                                    .claimLifetime(new ClaimLifetime(Optional.of(Duration.ofMinutes(15)), Optional.empty())).build())
                                    .memberDriver(driver).claimStore(new InMemoryClaimStore())
                    .scheduler(time).resyncPeriod(Duration.ofMinutes(1)).listener(kpis).build().start();
            Map<String, ClaimHandle> handles = new HashMap<>();
            Map<String, Optional<Instant>> deadlines = new HashMap<>();
            Map<String, Instant> servedAt = new HashMap<>();
            Map<String, Instant> failedAt = new HashMap<>();
            for (int i = 0; i < arrivals.size(); i++) {
                Arrival a = arrivals.get(i);
                String name = "c-" + i;
                time.schedule(Duration.ofMinutes(a.minute()), () -> {
                    ClaimRequest request = ClaimRequest.of(name).withClass(new ClaimClass("p" + a.priority(), a.priority()));
                    if (a.deadlineAfter().isPresent()) {
                        request = request.withDeadline(time.now().plus(Duration.ofMinutes(a.deadlineAfter().get())));
                    }
                    deadlines.put(name, request.deadline());
                    ClaimHandle handle = controller.claim(request);
                    handles.put(name, handle);
                    handle.member().whenComplete((m, e) -> {
                        if (e == null) {
                            servedAt.put(name, time.now());
                        } else if (e instanceof ClaimExpiredException) {
                            failedAt.put(name, time.now());
                        }
                    });
                    a.withdrawAfter().ifPresent(after -> time.schedule(Duration.ofMinutes(after), handle::cancel));
                });
            }
            time.advanceBy(Duration.ofHours(12));
            controller.close();

            Map<String, ClaimOutcome> ended = new HashMap<>();
            for (Ended e : kpis.calls(Ended.class)) {
                assertThat(ended.put(e.claim(), e.outcome())).as("%s ended twice", e.claim()).isNull();
            }
            assertThat(ended).as("every claim ends within 12 hours").hasSize(arrivals.size());
            ended.forEach((name, outcome) -> {
                assertThat(handles.get(name).outcome()).as("the handle of %s", name).isCompletedWithValue(outcome);
                Optional<Instant> deadline = deadlines.get(name);
                if (outcome.isServed()) {
                    assertThat(servedAt).containsKey(name);
                    deadline.ifPresent(d -> assertThat(servedAt.get(name)).as("%s served before its deadline", name).isBefore(d));
                } else if (outcome == ClaimOutcome.EXPIRED) {
                    assertThat(deadline).isPresent();
                    assertThat(failedAt.get(name)).as("%s expired at its deadline", name).isEqualTo(deadline.get());
                } else {
                    assertThat(servedAt).doesNotContainKey(name);
                }
            });
        });
    }
}
