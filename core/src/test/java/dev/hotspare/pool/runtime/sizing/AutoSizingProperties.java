package dev.hotspare.pool.runtime.sizing;

import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.pool.runtime.PoolListener;
import dev.hotspare.pool.sizing.HotSpareSizer.SizingDecision;
import dev.hotspare.pool.sizing.SizerSettings;
import dev.hotspare.pool.sizing.SizerSettings.WaitTarget;
import dev.hotspare.testkit.property.Gen;
import dev.hotspare.testkit.property.Property;
import dev.hotspare.time.VirtualTimeScheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static dev.hotspare.testkit.property.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/** Invariants of the controller applying the sizer, over random bounds, modes and claim sequences on virtual time. */
class AutoSizingProperties {

    /**
     * Applied, every pass plans with a running count within [min, max] and every decision lies there; in shadow
     * mode every pass plans with the spec's own count, whatever the decisions. Two runs of the same input decide
     * the same sequence.
     */
    @Property(tries = 60)
    void theCountInForceStaysWithinBoundsAndShadowModeNeverChangesIt() {
        record Args(int min, int extra, boolean apply, List<Integer> arrivalMinutes) {
        }
        forAll(s -> new Args(
                Gen.integers(0, 3).generate(s),
                Gen.integers(0, 4).generate(s),
                Gen.booleans().generate(s),
                Gen.integers(0, 240).list(0, 40).generate(s))).check(args -> {
            int min = args.min();
            int extra = args.extra();
            boolean apply = args.apply();
            List<Integer> arrivalMinutes = args.arrivalMinutes();
            int max = min + extra;
            List<String> first = run(min, max, apply, arrivalMinutes);
            assertThat(run(min, max, apply, arrivalMinutes)).as("deterministic").isEqualTo(first);
        });
    }

    private static List<String> run(int min, int max, boolean apply, List<Integer> arrivalMinutes) {
        VirtualTimeScheduler time = VirtualTimeScheduler.startingAt2026();
        InMemoryMemberDriver driver = InMemoryMemberDriver.builder(time).installTime(Duration.ofMinutes(40))
                .resumeTime(Duration.ofMinutes(5)).hibernateTime(Duration.ofMinutes(2)).build();
        SizerSettings sizing = SizerSettings.of(WaitTarget.parse("targetWait", "p95 <= PT1M"), min, max)
                .withDefaultLeadTimes(Duration.ofMinutes(5), Duration.ofMinutes(40)).withApply(apply);
        PoolSpec spec = PoolSpec.builder("ci").size(6).runningCount(min).autoSizing(sizing).build();
        List<String> decisions = new ArrayList<>();
        List<Integer> planned = new ArrayList<>();
        PoolController[] controller = new PoolController[1];
        controller[0] = PoolController.builder(spec).memberDriver(driver).claimStore(new InMemoryClaimStore()).scheduler(time)
                .resyncPeriod(Duration.ofMinutes(1)).listener(new PoolListener() {
                    @Override
                    public void sizingDecided(String pool, SizingDecision decision, boolean applied) {
                        assertThat(applied).isEqualTo(apply);
                        assertThat(decision.runningCount()).isBetween(min, max);
                        decisions.add(decision.runningCount() + "@" + decision.explanation());
                    }

                    @Override
                    public void onPlanApplied(String pool, PoolPlan plan, Instant now) {
                        planned.add(controller[0].effectiveRunningCount());
                    }
                }).build();
        controller[0].start();
        for (int i = 0; i < arrivalMinutes.size(); i++) {
            String name = "job-" + i;
            time.schedule(Duration.ofMinutes(arrivalMinutes.get(i)), () -> {
                ClaimHandle handle = controller[0].claim(name);
                handle.member().thenRun(() -> time.schedule(Duration.ofMinutes(30), () -> controller[0].release(handle)));
            });
        }
        time.advanceBy(Duration.ofHours(6));
        controller[0].close();
        assertThat(decisions).isNotEmpty();
        if (apply) {
            assertThat(planned).allSatisfy(count -> assertThat(count).isBetween(min, max));
        } else {
            assertThat(planned).containsOnly(min);
        }
        return decisions;
    }
}
