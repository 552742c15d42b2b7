package dev.hotspare.pool.runtime.spacing;

import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.pool.runtime.PoolListener;
import dev.hotspare.time.VirtualTimeScheduler;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code passSpacing}: passes asked for by events start at least that far apart, many requests in between collapse
 * into one pass, claims on a hot pool are still served at once, and the periodic resync is not spaced.
 */
class PassSpacingTest {

    private final VirtualTimeScheduler time = VirtualTimeScheduler.startingAt2026();
    private final InMemoryMemberDriver driver = InMemoryMemberDriver.builder(time).installTime(Duration.ofSeconds(1))
            .resumeTime(Duration.ofSeconds(1)).hibernateTime(Duration.ofSeconds(1)).build();
    private final List<Instant> passes = new ArrayList<>();
    private PoolController controller;

    @AfterEach
    void close() {
        if (controller != null) {
            controller.close();
        }
    }

    private PoolController start(Duration spacing) {
        controller = PoolController.builder(PoolSpec.builder("ci").size(4).runningCount(4).build()).memberDriver(driver)
                .claimStore(new InMemoryClaimStore()).scheduler(time).resyncPeriod(Duration.ofMinutes(10))
                .passSpacing(spacing).listener(new PoolListener() {
                    @Override
                    public void onPlanApplied(String pool, PoolPlan plan, Instant now) {
                        passes.add(now);
                    }
                }).build().start();
        // Fill the pool: every member installed and running.
        time.advanceBy(Duration.ofSeconds(30));
        return controller;
    }

    @Test
    void passesAskedForByEventsStartAtLeastTheSpacingApartAndRequestsInBetweenCollapse() {
        start(Duration.ofMillis(500));
        time.advanceBy(Duration.ofSeconds(5));
        passes.clear();
        Instant from = time.now();

        ClaimHandle first = controller.claim("a");
        assertThat(first.member()).as("a hot pool serves the claim inside claim(), whatever the spacing").isCompleted();
        for (int i = 0; i < 5; i++) {
            controller.requestReconcile();
        }
        controller.release("a");
        time.advanceBy(Duration.ofSeconds(3));

        assertThat(passes).as("at least one pass ran for the release").isNotEmpty();
        for (int i = 1; i < passes.size(); i++) {
            assertThat(Duration.between(passes.get(i - 1), passes.get(i)))
                    .as("passes %s started too close together", passes).isGreaterThanOrEqualTo(Duration.ofMillis(500));
        }
        assertThat(passes).as("six requests within one spacing ran as one pass (plus those the member events asked for)")
                .allSatisfy(at -> assertThat(at).isAfterOrEqualTo(from));
        assertThat(passes.size()).isLessThanOrEqualTo(7);
    }

    @Test
    void withoutSpacingARequestedPassStartsAtOnce() {
        start(Duration.ZERO);
        time.advanceBy(Duration.ofSeconds(5));
        passes.clear();
        controller.requestReconcile();
        time.runDueTasks();
        assertThat(passes).containsExactly(time.now());
        controller.requestReconcile();
        time.runDueTasks();
        assertThat(passes).hasSize(2);
    }

    @Test
    void aRequestRightAfterAPassWaitsOutTheRestOfTheSpacing() {
        start(Duration.ofSeconds(2));
        time.advanceBy(Duration.ofSeconds(5));
        controller.reconcile();
        Instant last = time.now();
        passes.clear();

        time.advanceBy(Duration.ofMillis(500));
        controller.requestReconcile();
        time.runDueTasks();
        assertThat(passes).as("1.5 s of the spacing are left").isEmpty();
        time.advanceBy(Duration.ofMillis(1_499));
        assertThat(passes).isEmpty();
        time.advanceBy(Duration.ofMillis(1));
        assertThat(passes).containsExactly(last.plus(Duration.ofSeconds(2)));
    }

    @Test
    void aPassInBetweenDoesNotLetASecondRequestedPassQueueBesideTheWaitingOne() {
        start(Duration.ofSeconds(2));
        time.advanceBy(Duration.ofSeconds(5));
        controller.reconcile();
        Instant start = time.now();
        time.advanceBy(Duration.ofMillis(100));
        controller.requestReconcile();
        time.advanceBy(Duration.ofMillis(900));
        // A pass not asked for by an event (the periodic resync runs the same way) while the requested one waits.
        controller.reconcile();
        passes.clear();
        time.advanceBy(Duration.ofMillis(100));
        controller.requestReconcile();

        time.advanceBy(Duration.ofSeconds(10));

        assertThat(passes).as("the second request joins the pass already waiting (it used to queue one more)")
                .containsExactly(start.plus(Duration.ofSeconds(2)));
    }

    @Test
    void theSettingIsReadBackAndANegativeSpacingIsRefusedNamingTheField() {
        assertThat(start(Duration.ofMillis(50)).settings().passSpacing()).isEqualTo(Duration.ofMillis(50));
        assertThatThrownBy(() -> PoolController.builder(PoolSpec.builder("ci").size(1).build()).scheduler(time)
                .passSpacing(Duration.ofMillis(-1)).build())
                .isInstanceOf(ValidationException.class).hasMessageContaining("passSpacing").hasMessageContaining("-0.001");
    }
}
