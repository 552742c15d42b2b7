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
import dev.hotspare.pool.runtime.PoolController.ClaimExplanation;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Claim classes, deadlines and outcomes through a real controller on virtual time. */
class ClaimClassesRuntimeTest {

    static final ClaimClass BATCH = new ClaimClass("batch", 0);
    static final ClaimClass URGENT = new ClaimClass("urgent", 10);

    VirtualTimeScheduler time;
    InMemoryMemberDriver driver;
    InMemoryClaimStore store;
    RecordingKpis kpis;
    PoolController controller;

    @BeforeEach
    void setUp() {
        time = VirtualTimeScheduler.startingAt2026();
        driver = InMemoryMemberDriver.builder(time).installTime(Duration.ofMinutes(40)).resumeTime(Duration.ofMinutes(5))
                .hibernateTime(Duration.ofMinutes(2)).build();
        store = new InMemoryClaimStore();
        kpis = new RecordingKpis();
    }

    void start(PoolSpec spec) {
        controller = PoolController.builder(spec).memberDriver(driver).claimStore(store).scheduler(time).resyncPeriod(Duration.ofMinutes(1))
                .listener(kpis).build().start();
    }

    /** One member at a time (maxSize 1), each claim holds it 10 minutes: the service order is plain to see. */
    List<String> serviceOrder(Duration agingLimit) {
        start(PoolSpec.builder("ci").size(0).runningCount(0).maxSize(1).agingLimit(agingLimit)
                .claimLifetime(new ClaimLifetime(Optional.of(Duration.ofMinutes(10)), Optional.empty())).build());
        List<String> served = new ArrayList<>();
        String[][] arrivals = {{"low-a", "batch"}, {"low-b", "batch"}, {"high-a", "urgent"}, {"high-b", "urgent"}};
        for (int i = 0; i < arrivals.length; i++) {
            String name = arrivals[i][0];
            ClaimClass claimClass = arrivals[i][1].equals("urgent") ? URGENT : BATCH;
            time.schedule(Duration.ofMinutes(i), () -> controller.claim(ClaimRequest.of(name).withClass(claimClass))
                    .member().thenRun(() -> served.add(name)));
        }
        time.advanceBy(Duration.ofHours(6));
        return served;
    }

    @Test
    void withoutAgingHigherClassesGoFirstAndFifoHoldsWithinAClass() {
        assertThat(serviceOrder(Duration.ofHours(10))).containsExactly("high-a", "high-b", "low-a", "low-b");
    }

    @Test
    void withAgingAClaimThatWaitedTheLimitGoesBeforeYoungerClaimsOfHigherClasses() {
        // high-a is served at minute 40 (the first install); by the next free member every claim has waited an hour,
        // so the rest go oldest first.
        assertThat(serviceOrder(Duration.ofHours(1))).containsExactly("high-a", "low-a", "low-b", "high-b");
    }

    @Test
    void aClaimStillPendingAtItsDeadlineExpires() {
        start(PoolSpec.builder("ci").size(0).runningCount(0).build());
        Instant deadline = time.now().plus(Duration.ofMinutes(7));
        ClaimHandle handle = controller.claim(ClaimRequest.of("job-1").withClass(URGENT).withDeadline(deadline));
        time.advanceBy(Duration.ofMinutes(7).minusSeconds(1));
        assertThat(handle.member()).isNotDone();
        assertThat(controller.explain("job-1")).map(ClaimExplanation::deadline).contains(Optional.of(deadline));

        time.advanceBy(Duration.ofSeconds(1));

        assertThat(handle.member()).isCompletedExceptionally();
        assertThatThrownBy(() -> handle.member().get()).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(ClaimExpiredException.class)
                .hasMessage("claim 'job-1' of pool 'ci' expired: its deadline 2026-01-01T00:07:00Z passed before a member was free");
        assertThat(handle.outcome()).isCompletedWithValue(ClaimOutcome.EXPIRED);
        assertThat(store.find("ci", "job-1")).isEmpty();
        assertThat(controller.explain("job-1")).isEmpty();
        assertThat(kpis.calls(Ended.class)).containsExactly(new Ended("ci", "job-1", ClaimOutcome.EXPIRED));
    }

    @Test
    void aClaimServedBeforeItsDeadlineIsServedAndNeverExpires() {
        start(PoolSpec.builder("ci").size(1).runningCount(1).build());
        time.advanceBy(Duration.ofMinutes(50));
        ClaimHandle handle = controller.claim(ClaimRequest.of("job-1").withDeadline(time.now().plusSeconds(1)));
        time.advanceBy(Duration.ofMinutes(5));
        assertThat(handle.member()).isCompleted();
        assertThat(handle.outcome()).isCompletedWithValue(ClaimOutcome.SERVED_HOT);
        assertThat(store.find("ci", "job-1")).isPresent();
    }

    @Test
    void everyOutcomeIsReportedOnceToTheKpisTheHandleAndExplain() {
        start(PoolSpec.builder("ci").size(2).runningCount(1).build());
        time.advanceBy(Duration.ofMinutes(50));
        kpis.clear();

        ClaimHandle hot = controller.claim(ClaimRequest.of("hot").withClass(URGENT));
        time.runDueTasks();
        ClaimHandle warm = controller.claim("warm");
        time.advanceBy(Duration.ofMinutes(10));
        ClaimHandle cold = controller.claim("cold");
        ClaimHandle withdrawn = controller.claim(ClaimRequest.of("gone").withClass(BATCH));
        time.runDueTasks();
        withdrawn.cancel();
        time.advanceBy(Duration.ofMinutes(60));

        assertThat(kpis.calls(Ended.class)).containsExactly(new Ended("ci", "hot", ClaimOutcome.SERVED_HOT),
                new Ended("ci", "warm", ClaimOutcome.SERVED_WARM), new Ended("ci", "gone", ClaimOutcome.WITHDRAWN),
                new Ended("ci", "cold", ClaimOutcome.SERVED_COLD));
        assertThat(List.of(hot, warm, cold, withdrawn)).extracting(h -> h.outcome().getNow(null))
                .containsExactly(ClaimOutcome.SERVED_HOT, ClaimOutcome.SERVED_WARM, ClaimOutcome.SERVED_COLD, ClaimOutcome.WITHDRAWN);
        ClaimExplanation explained = controller.explain("hot").orElseThrow();
        assertThat(explained.claimClass()).isEqualTo(URGENT);
        assertThat(explained.outcome()).contains(ClaimOutcome.SERVED_HOT);
        assertThat(explained.deadline()).isEmpty();
        assertThat(store.find("ci", "cold").orElseThrow().outcome()).contains(ClaimOutcome.SERVED_COLD);

        controller.release(hot);
        assertThat(kpis.calls(Ended.class)).as("releasing a served claim does not end it twice").hasSize(4);
    }

    @Test
    void releasingAPendingClaimWithdrawsIt() {
        start(PoolSpec.builder("ci").size(0).runningCount(0).build());
        ClaimHandle handle = controller.claim("job-1");
        time.runDueTasks();
        assertThat(controller.release("job-1")).isTrue();
        assertThat(handle.outcome()).isCompletedWithValue(ClaimOutcome.WITHDRAWN);
        assertThat(handle.member()).isCancelled();
        assertThat(kpis.calls(Ended.class)).containsExactly(new Ended("ci", "job-1", ClaimOutcome.WITHDRAWN));
    }
}
