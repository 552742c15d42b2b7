package dev.hotspare.testkit.pool;

import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.Claim;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolPlanner;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.testkit.property.Gen;
import dev.hotspare.testkit.property.Property;
import dev.hotspare.time.VirtualTimeScheduler;
import dev.hotspare.time.VirtualTimeScheduler.VirtualClock;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import static dev.hotspare.testkit.property.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reconcile never wedges: whatever inconsistent member and claim records a crash, a race or a stray write left
 * behind, the planner returns a plan, and every controller pass returns one — pass after pass.
 */
class InconsistentRecordsProperties {

    Gen<PoolScenario> inconsistent() {
        return PoolGenerators.inconsistentScenarios();
    }

    @Property(tries = 500)
    void thePlannerReturnsAPlanForAnyRecords() {
        forAll(inconsistent()).check(s -> {
            PoolPlan plan = PoolPlanner.plan(s.spec(), s.members(), s.claims(), s.now());
            assertThat(plan).isNotNull();
            assertThat(plan.reasons()).extracting(PoolPlan.PendingClaim::claimName).doesNotHaveDuplicates();
        });
    }

    @Property(tries = 300)
    void everyPassReturnsAPlan() {
        forAll(inconsistent(), Gen.longs()).check((s, seed) -> {
            VirtualTimeScheduler time = new VirtualTimeScheduler(new VirtualClock(s.now()));
            InMemoryMemberDriver driver = InMemoryMemberDriver.builder(time).installTime(Duration.ofMinutes(5))
                    .resumeTime(Duration.ofMinutes(2)).deleteTime(Duration.ofMinutes(1)).build();
            String pool = s.spec().name();
            s.members().forEach(m -> driver.restore(pool, m));
            ClaimStore claims = new RecordedClaims(s.claims(), new Random(seed));
            PoolController controller = PoolController.builder(s.spec()).memberDriver(driver).claimStore(claims).scheduler(time)
                    .resyncPeriod(Duration.ofHours(24)).build();
            for (int pass = 0; pass < 8; pass++) {
                assertThat(controller.reconcile()).isNotNull();
                time.advanceBy(Duration.ofMinutes(3));
            }
            controller.close();
        });
    }

    /**
     * A claim store that starts from records no real store would hold together (one member on two claims, a
     * claim naming a member that does not exist) and answers assignments with any outcome, as a store shared with
     * other writers might.
     */
    private static final class RecordedClaims implements ClaimStore {
        private final List<Claim> claims;
        private final Random random;

        RecordedClaims(List<Claim> claims, Random random) {
            this.claims = new ArrayList<>(claims);
            this.random = random;
        }

        @Override
        public synchronized Claim submit(String pool, String claimName, Optional<Duration> lifetime, Instant now) {
            Claim claim = Claim.pending(claimName, now, lifetime);
            claims.add(claim);
            return claim;
        }

        @Override
        public synchronized Optional<Claim> find(String pool, String claimName) {
            return claims.stream().filter(c -> c.name().equals(claimName)).findFirst();
        }

        @Override
        public synchronized List<Claim> live(String pool) {
            return List.copyOf(claims);
        }

        @Override
        public synchronized AssignOutcome assign(String pool, String claimName, String memberId, Instant at) {
            AssignOutcome outcome = AssignOutcome.values()[random.nextInt(AssignOutcome.values().length)];
            if (outcome == AssignOutcome.ASSIGNED) {
                for (int i = 0; i < claims.size(); i++) {
                    if (claims.get(i).name().equals(claimName) && !claims.get(i).isAssigned()) {
                        claims.set(i, claims.get(i).assigned(memberId, at));
                    }
                }
            }
            return outcome;
        }

        @Override
        public synchronized boolean markReady(String pool, String claimName, Instant readyAt) {
            for (int i = 0; i < claims.size(); i++) {
                Claim c = claims.get(i);
                if (c.name().equals(claimName) && c.isAssigned() && !c.isReady() && !readyAt.isBefore(c.assignedAt().get())) {
                    claims.set(i, c.ready(readyAt));
                    return true;
                }
            }
            return false;
        }

        @Override
        public synchronized boolean release(String pool, String claimName) {
            return claims.removeIf(c -> c.name().equals(claimName));
        }

        @Override
        public AutoCloseable watch(String pool, Runnable onChange) {
            return () -> { };
        }
    }
}
