package dev.hotspare.pool.runtime.kpis;

import dev.hotspare.fleet.lock.LockId;
import dev.hotspare.kpi.KpiListener;
import dev.hotspare.kpi.RecordingKpis;
import dev.hotspare.kpi.RecordingKpis.Scaled;
import dev.hotspare.kpi.RecordingKpis.Served;
import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.Claim.ClaimService;
import dev.hotspare.pool.Member.MemberState;
import dev.hotspare.pool.PoolPlan.ScaleOperation;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The pool controller's KPIs on virtual time: 40-minute installs, 5-minute resumes. */
class ClaimKpisTest {

    VirtualTimeScheduler time;
    InMemoryMemberDriver driver;
    RecordingKpis kpis;
    PoolController controller;

    @BeforeEach
    void setUp() {
        time = VirtualTimeScheduler.startingAt2026();
        driver = InMemoryMemberDriver.builder(time).installTime(Duration.ofMinutes(40)).resumeTime(Duration.ofMinutes(5))
                .hibernateTime(Duration.ofMinutes(2)).build();
        kpis = new RecordingKpis();
    }

    void start(PoolSpec spec, KpiListener listener) {
        controller = PoolController.builder(spec).memberDriver(driver).claimStore(new InMemoryClaimStore()).scheduler(time)
                .resyncPeriod(Duration.ofMinutes(1)).listener(listener).build().start();
    }

    @Test
    void aClaimOnARunningMemberIsServedHotWithNoWait() {
        start(PoolSpec.builder("ci").size(3).runningCount(1).build(), kpis);
        time.advanceBy(Duration.ofMinutes(50));
        kpis.clear();

        controller.claim("job-1");
        time.runDueTasks();

        assertThat(kpis.calls(Served.class)).containsExactly(new Served("ci", ClaimService.HOT, Duration.ZERO));
    }

    @Test
    void aClaimOnAHibernatedMemberIsServedWarmAfterTheResume() {
        start(PoolSpec.builder("ci").size(2).runningCount(0).build(), kpis);
        time.advanceBy(Duration.ofMinutes(50));
        kpis.clear();

        controller.claim("job-1");
        time.advanceBy(Duration.ofMinutes(10));

        assertThat(kpis.calls(Served.class)).containsExactly(new Served("ci", ClaimService.WARM, Duration.ofMinutes(5)));
    }

    @Test
    void aClaimOnAnEmptyPoolIsServedColdAfterAnInstall() {
        start(PoolSpec.builder("ci").size(0).runningCount(0).build(), kpis);

        controller.claim("job-1");
        time.advanceBy(Duration.ofMinutes(60));

        assertThat(kpis.calls(Served.class)).containsExactly(new Served("ci", ClaimService.COLD, Duration.ofMinutes(40)));
    }

    @Test
    void everyPassReportsMembersPerStateWithEveryStatePresent() {
        start(PoolSpec.builder("ci").size(3).runningCount(1).build(), kpis);
        time.runDueTasks();

        assertThat(kpis.calls(RecordingKpis.Members.class).get(0).counts()).as("the first pass observes an empty pool")
                .containsOnlyKeys(MemberState.values()).allSatisfy((state, count) -> assertThat(count).isZero());
        assertThat(kpis.lastMembers("ci")).as("the pass its creates trigger").containsEntry(MemberState.INSTALLING, 3);

        time.advanceBy(Duration.ofMinutes(49));
        Map<MemberState, Integer> settled = kpis.lastMembers("ci");
        assertThat(settled).containsEntry(MemberState.RUNNING, 1).containsEntry(MemberState.HIBERNATED, 2);
        assertThat(settled.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(3);

        controller.claim("job-1");
        time.advanceBy(Duration.ofMinutes(1));
        assertThat(kpis.lastMembers("ci")).containsEntry(MemberState.CLAIMED, 1);
    }

    @Test
    void createsAndDeletesAreReportedWithTheirCounts() {
        start(PoolSpec.builder("ci").size(3).runningCount(1).build(), kpis);
        time.advanceBy(Duration.ofMinutes(50));
        assertThat(kpis.calls(Scaled.class)).containsExactly(new Scaled("ci", ScaleOperation.CREATE, 3));

        ClaimHandle handle = controller.claim("job-1");
        time.runDueTasks();
        kpis.clear();
        controller.release(handle);
        time.runDueTasks();

        assertThat(kpis.calls(Scaled.class)).containsExactly(new Scaled("ci", ScaleOperation.DELETE, 1));
    }

    @Test
    void aListenerThatThrowsDoesNotBreakTheController() {
        KpiListener broken = new KpiListener() {
            @Override
            public void claimServed(String pool, ClaimService service, Duration wait) {
                throw new IllegalStateException("broken metrics");
            }

            @Override
            public void membersPerState(String pool, Map<MemberState, Integer> counts) {
                throw new IllegalStateException("broken metrics");
            }

            @Override
            public void scaled(String pool, ScaleOperation operation, int count) {
                throw new IllegalStateException("broken metrics");
            }
        };
        start(PoolSpec.builder("ci").size(3).runningCount(1).build(), KpiListener.all(broken, kpis));
        time.advanceBy(Duration.ofMinutes(50));

        ClaimHandle handle = controller.claim("job-1");
        time.runDueTasks();

        assertThat(handle.member()).isCompleted();
        assertThat(driver.list("ci")).hasSize(4);
        assertThat(kpis.calls(Served.class)).as("the other listener still hears everything")
                .containsExactly(new Served("ci", ClaimService.HOT, Duration.ZERO));
    }

    @Test
    void guardingIsIdempotentAndNoneStaysNone() {
        KpiListener guarded = KpiListener.guarded(kpis);
        assertThat(KpiListener.guarded(guarded)).isSameAs(guarded);
        assertThat(KpiListener.guarded(KpiListener.NONE)).isSameAs(KpiListener.NONE);
        assertThat(KpiListener.all()).isSameAs(KpiListener.NONE);
        assertThat(KpiListener.all(KpiListener.NONE, KpiListener.NONE)).isSameAs(KpiListener.NONE);
        KpiListener.all(kpis, kpis).leaseLost(LockId.of("pong", dev.hotspare.fleet.lock.LockId.LockKind.CONFIG));
        assertThat(kpis.calls()).hasSize(2);
    }
}
