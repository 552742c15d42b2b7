package dev.hotspare.pool.runtime.sizing;

import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.pool.runtime.PoolListener;
import dev.hotspare.pool.sizing.HotSpareSizer.SizingDecision;
import dev.hotspare.pool.sizing.SizerSettings;
import dev.hotspare.pool.sizing.SizerSettings.ScheduledOverride;
import dev.hotspare.pool.sizing.SizerSettings.WaitTarget;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The controller applying the sizer on virtual time: 40-minute installs, 5-minute resumes, a decision a minute.
 * The clock starts on Thursday 2026-01-01 00:00 UTC.
 */
class AutoSizingTest {

    static final Duration INSTALL = Duration.ofMinutes(40);
    static final Duration RESUME = Duration.ofMinutes(5);

    VirtualTimeScheduler time;
    InMemoryMemberDriver driver;
    PoolController controller;
    final List<SizingDecision> decisions = new ArrayList<>();
    final List<Boolean> applied = new ArrayList<>();

    @BeforeEach
    void setUp() {
        time = VirtualTimeScheduler.startingAt2026();
        driver = InMemoryMemberDriver.builder(time).installTime(INSTALL).resumeTime(RESUME)
                .hibernateTime(Duration.ofMinutes(2)).build();
    }

    @AfterEach
    void tearDown() {
        if (controller != null) {
            controller.close();
        }
    }

    /** Target p95 <= 1 min, bounds {@code min..max}, planning with 5-minute resumes until one is measured. */
    static SizerSettings sizing(int min, int max) {
        return SizerSettings.of(WaitTarget.parse("targetWait", "p95 <= PT1M"), min, max).withDefaultLeadTimes(RESUME, INSTALL);
    }

    void start(PoolSpec spec) {
        controller = PoolController.builder(spec).memberDriver(driver).claimStore(new InMemoryClaimStore()).scheduler(time)
                .resyncPeriod(Duration.ofMinutes(1)).listener(new PoolListener() {
                    @Override
                    public void sizingDecided(String pool, SizingDecision decision, boolean wasApplied) {
                        decisions.add(decision);
                        applied.add(wasApplied);
                    }
                }).build().start();
    }

    /** Unclaimed members running now: the hot spares. */
    long hotSpares() {
        return driver.list("ci").stream()
                .filter(m -> m.claimName().isEmpty() && m.observedPower() == ObservedPower.RUNNING).count();
    }

    /** One claim every 5 minutes for an hour, each released as soon as it is served: 12 claims an hour. */
    void claimEveryFiveMinutesForAnHour() {
        for (int i = 0; i < 12; i++) {
            ClaimHandle handle = controller.claim("job-" + i);
            handle.member().thenAccept(m -> controller.release(handle));
            time.advanceBy(Duration.ofMinutes(5));
        }
    }

    @Test
    void appliedSizingRaisesTheRunningCountFromTheClaimsItSaw() {
        start(PoolSpec.builder("ci").size(8).runningCount(0).autoSizing(sizing(0, 6)).build());
        time.advanceBy(Duration.ofMinutes(50));
        // No claim yet is planned as one claim per 2-hour window: mean 1/30 over 4 min, P(N >= 1) = 0.033: one spare.
        assertThat(controller.effectiveRunningCount()).isEqualTo(1);
        assertThat(hotSpares()).isEqualTo(1);

        claimEveryFiveMinutesForAnHour();
        time.advanceBy(Duration.ofMinutes(10));

        // 12 claims in the 2-hour window: 6/h (the last 15 minutes hold one claim, no rise), so the forecast is
        // 6/h; a claim waits over 1 min when k claims arrive within resume - wait = 4 min: mean 0.4,
        // P(N >= 2) = 0.062 > 0.05, P(N >= 3) = 0.008 <= 0.05: three hot spares.
        SizingDecision last = controller.sizing().orElseThrow();
        assertThat(last.demand().forecastPerHour()).isEqualTo(6.0);
        assertThat(last.modelled()).isEqualTo(3);
        assertThat(controller.effectiveRunningCount()).isEqualTo(3);
        assertThat(hotSpares()).isEqualTo(3);
        assertThat(applied).containsOnly(true);
    }

    @Test
    void theControllerKeepsHistorySoTheSizerPlansFromAFlatProfileAndItsBudgetAfterADay() {
        start(PoolSpec.builder("ci").size(8).runningCount(0).autoSizing(sizing(0, 6)).build());
        time.advanceBy(Duration.ofMinutes(50));
        // A claim every 15 minutes for 26 hours, each released once served: 4/h, flat.
        for (int i = 0; i < 26 * 4; i++) {
            ClaimHandle handle = controller.claim("job-" + i);
            handle.member().thenAccept(m -> controller.release(handle));
            time.advanceBy(Duration.ofMinutes(15));
        }
        SizingDecision last = controller.sizing().orElseThrow();
        // 104 claims over 26 h 50 min of watching: 3.88/h, mean over 4 min 0.258; only the first two claims (before
        // the first spare was running) waited over the target, 2 of 5.2 allowed, so the budget (104 >= 40 claims)
        // prices a wait low: the quantile asks for 2 (P(N >= 2) = 0.028), but at the mean rate's threshold price for 2
        // x e^(4 x (2 - 0.6 x 5.2) / 5.2) = 0.55 spare-h a second spare does not pay: 1.
        assertThat(last.explanation()).contains("3.88 claims/h from the flat profile")
                .contains("budget: 2 of 104 claims over PT1M in PT168H (5.2 allowed), a wait priced 0.55 spare-h");
        assertThat(last.basis()).isEqualTo(SizingDecision.Basis.BUDGET);
        assertThat(last.runningCount()).isEqualTo(1);
    }

    @Test
    void shadowSizingDecidesTheSameButChangesNothing() {
        start(PoolSpec.builder("ci").size(8).runningCount(0).autoSizing(sizing(0, 6).withApply(false)).build());
        time.advanceBy(Duration.ofMinutes(50));

        claimEveryFiveMinutesForAnHour();
        time.advanceBy(Duration.ofMinutes(10));

        assertThat(controller.sizing().orElseThrow().runningCount()).isEqualTo(3);
        assertThat(controller.effectiveRunningCount()).isZero();
        assertThat(controller.spec().runningCount()).isZero();
        assertThat(hotSpares()).isZero();
        assertThat(applied).containsOnly(false);
    }

    @Test
    void anOverrideRaisesTheFloorWithinItsWindowOnly() {
        SizerSettings settings = sizing(0, 6).withOverrides(
                List.of(ScheduledOverride.parse("overrides[0]", "Mon-Fri 08:50-17:00 runningCount >= 4")), ZoneOffset.UTC);
        start(PoolSpec.builder("ci").size(8).runningCount(0).autoSizing(settings).build());

        time.advanceTo(Instant.parse("2026-01-01T08:49:00Z"));
        // No claims: the one spare a claim-less window is planned with.
        assertThat(controller.effectiveRunningCount()).isEqualTo(1);
        time.advanceTo(Instant.parse("2026-01-01T09:00:00Z"));
        assertThat(controller.effectiveRunningCount()).isEqualTo(4);
        assertThat(hotSpares()).isEqualTo(4);
        assertThat(controller.sizing().orElseThrow().override()).isPresent();
        // The window closes at 17:00; the count falls by the step of 2, then to 1 after the 10-minute cooldown.
        time.advanceTo(Instant.parse("2026-01-01T17:00:00Z"));
        assertThat(controller.effectiveRunningCount()).isEqualTo(2);
        time.advanceTo(Instant.parse("2026-01-01T17:09:00Z"));
        assertThat(controller.effectiveRunningCount()).isEqualTo(2);
        time.advanceTo(Instant.parse("2026-01-01T17:10:00Z"));
        assertThat(controller.effectiveRunningCount()).isEqualTo(1);
        // Saturday: the window does not open.
        time.advanceTo(Instant.parse("2026-01-03T09:00:00Z"));
        assertThat(controller.effectiveRunningCount()).isEqualTo(1);
    }

    @Test
    void theCountStaysWithinMinAndMaxWhateverTheDemand() {
        start(PoolSpec.builder("ci").size(8).runningCount(2).autoSizing(sizing(2, 3)).build());
        time.advanceBy(Duration.ofMinutes(50));
        assertThat(controller.effectiveRunningCount()).as("no claims: min").isEqualTo(2);
        for (int i = 0; i < 40; i++) {
            ClaimHandle handle = controller.claim("burst-" + i);
            handle.member().thenAccept(m -> controller.release(handle));
            time.advanceBy(Duration.ofSeconds(30));
        }
        assertThat(decisions).isNotEmpty().allSatisfy(d -> assertThat(d.runningCount()).isBetween(2, 3));
        assertThat(decisions.get(decisions.size() - 1).modelled()).as("the model asks for more than max").isGreaterThan(3);
        assertThat(controller.effectiveRunningCount()).isEqualTo(3);
    }

    @Test
    void aPoolWithoutAutoSizingReportsNoSizingAndKeepsItsCount() {
        start(PoolSpec.builder("ci").size(3).runningCount(1).build());
        time.advanceBy(Duration.ofMinutes(50));
        claimEveryFiveMinutesForAnHour();
        assertThat(controller.sizing()).isEmpty();
        assertThat(decisions).isEmpty();
        assertThat(controller.effectiveRunningCount()).isEqualTo(1);
    }

    /** Members the pool runs, for a message when a count is off. */
    static List<String> describe(List<Member> members) {
        return members.stream().map(m -> m.id() + ":" + m.observedPower() + m.claimName().map(c -> "@" + c).orElse("")).toList();
    }
}
