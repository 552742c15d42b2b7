package dev.hotspare.postgres;

import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Claim.ClaimClass;
import dev.hotspare.pool.Claim.ClaimOutcome;
import dev.hotspare.pool.ClaimRequest;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.ClaimHandle.ClaimExpiredException;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pool controller on PostgreSQL with claim classes and deadlines, on virtual time: the served outcome and the
 * class are stored with the claim, and a claim pending at its deadline is expired out of the table.
 */
class PostgresClaimClassesControllerTest {

    private static final String SCHEMA = "hs_test_claims";
    private static final ClaimClass URGENT = new ClaimClass("urgent", 10);

    private final PostgresClaimStore store = new PostgresClaimStore(TestSchemas.migrated(SCHEMA), SCHEMA);
    private final String pool = "cc" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);

    @Test
    void theOutcomeAndClassAreStoredAndAClaimPendingAtItsDeadlineExpires() {
        VirtualTimeScheduler time = VirtualTimeScheduler.startingAt2026();
        InMemoryMemberDriver driver = InMemoryMemberDriver.builder(time).installTime(Duration.ofMinutes(10))
                .resumeTime(Duration.ofMinutes(1)).hibernateTime(Duration.ofMinutes(1)).build();
        try (PoolController controller = PoolController.builder(PoolSpec.builder(pool).size(1).runningCount(1).build())
                .memberDriver(driver).claimStore(store).scheduler(time).resyncPeriod(Duration.ofMinutes(1)).build()) {
            for (int minute = 0; minute < 12; minute++) {
                controller.reconcile();
                time.advanceBy(Duration.ofMinutes(1));
            }
            ClaimHandle hot = controller.claim(ClaimRequest.of("hot").withClass(URGENT));
            controller.reconcile();
            assertThat(hot.member()).isCompleted();
            assertThat(hot.outcome()).isCompletedWithValue(ClaimOutcome.SERVED_HOT);
            Claim stored = store.find(pool, "hot").orElseThrow();
            assertThat(stored.outcome()).contains(ClaimOutcome.SERVED_HOT);
            assertThat(stored.claimClass()).isEqualTo(URGENT);

            // The replacement member takes 10 minutes to install; this claim gives up after 2.
            Instant deadline = time.now().plus(Duration.ofMinutes(2));
            ClaimHandle late = controller.claim(ClaimRequest.of("late").withDeadline(deadline));
            controller.reconcile();
            assertThat(store.find(pool, "late").orElseThrow().deadline()).contains(deadline);
            time.advanceTo(deadline);

            assertThat(late.member()).isCompletedExceptionally();
            assertThat(late.member().handle((m, e) -> e)).isCompletedWithValueMatching(
                    e -> e instanceof ClaimExpiredException expired && expired.deadline().equals(deadline));
            assertThat(late.outcome()).isCompletedWithValue(ClaimOutcome.EXPIRED);
            assertThat(store.find(pool, "late")).isEmpty();
            assertThat(store.find(pool, "hot")).isPresent();
        }
    }
}
