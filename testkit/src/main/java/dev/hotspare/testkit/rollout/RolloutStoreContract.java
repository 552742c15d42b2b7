package dev.hotspare.testkit.rollout;

import dev.hotspare.rollout.Inventory;
import dev.hotspare.rollout.MaintenanceWindow;
import dev.hotspare.rollout.OpStatus;
import dev.hotspare.rollout.RolloutEvent;
import dev.hotspare.rollout.RolloutMachine;
import dev.hotspare.rollout.RolloutSpec;
import dev.hotspare.rollout.RolloutState;
import dev.hotspare.rollout.Target;
import dev.hotspare.rollout.spi.RolloutStore;
import dev.hotspare.rollout.spi.StaleRolloutVersionException;
import dev.hotspare.rollout.spi.VersionedRollout;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@link RolloutStore} contract. A backend runs it by subclassing and returning a fresh, empty store:
 * <pre>{@code class PostgresRolloutStoreTest extends RolloutStoreContract {
 *     protected RolloutStore newStore() { return new PostgresRolloutStore(dataSource); }
 * }}</pre>
 */
public abstract class RolloutStoreContract {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    /** A fresh store with no rollouts in it. */
    protected abstract RolloutStore newStore();

    private RolloutStore store;

    @BeforeEach
    void createStore() {
        store = newStore();
    }

    /** A not-started rollout named {@code name}. */
    protected static RolloutState initialState(String name) {
        RolloutSpec spec = RolloutSpec.builder(name, "2.0").deviceGroup("tier", "canary").build();
        return RolloutMachine.initial(spec, new Inventory(List.of(Target.node("node-1", "1.0"),
                Target.device("dev-1", "1.0", Map.of("tier", "canary")), Target.device("dev-2", "1.0", Map.of()))));
    }

    /** A rollout mid-way: ops in flight, a failure, a retry pending, a window, dropped reports. */
    protected static RolloutState busyState(String name) {
        RolloutSpec spec = RolloutSpec.builder(name, "2.0").upgradeControlPlane(false).maxParallel(2).maxFailures(3)
                .retry(2, Duration.ofMinutes(1)).window(MaintenanceWindow.between(T0, T0.plus(Duration.ofHours(4)))).build();
        RolloutState s = RolloutMachine.initial(spec, new Inventory(List.of(Target.device("dev-1", "1.0", Map.of()),
                Target.device("dev-2", "1.0", Map.of()), Target.device("dev-3", "1.0", Map.of()))));
        s = RolloutMachine.decide(s, new RolloutEvent.LeaderChanged(Optional.of("node-1")), T0).state();
        s = RolloutMachine.decide(s, new RolloutEvent.Start(), T0).state();
        var op = s.inFlight().get(0);
        s = RolloutMachine.decide(s, new RolloutEvent.AgentReported(op.address(), op.opId(), 1, OpStatus.FAILED, "disk full"), T0).state();
        s = RolloutMachine.decide(s, new RolloutEvent.AgentReported(op.address(), "bogus", 1, OpStatus.FAILED, ""), T0).state();
        return s;
    }

    @Test
    void anUnknownRolloutLoadsAsEmpty() {
        assertThat(store.load("nope")).isEmpty();
        assertThat(store.names()).isEmpty();
    }

    @Test
    void savingWithVersionZeroCreatesVersionOne() {
        RolloutState s = initialState("r1");
        assertThat(store.save(s, 0)).isEqualTo(1);
        assertThat(store.load("r1")).contains(new VersionedRollout(s, 1));
    }

    @Test
    void aBusyStateReadsBackEqual() {
        RolloutState s = busyState("r1");
        store.save(s, 0);
        assertThat(store.load("r1").orElseThrow().state()).isEqualTo(s);
    }

    @Test
    void eachSaveWithTheCurrentVersionIncrementsIt() {
        store.save(initialState("r1"), 0);
        RolloutState busy = busyState("r1");
        assertThat(store.save(busy, 1)).isEqualTo(2);
        assertThat(store.save(busy, 2)).isEqualTo(3);
        assertThat(store.load("r1")).contains(new VersionedRollout(busy, 3));
    }

    @Test
    void aStaleSaveFailsTypedAndChangesNothing() {
        RolloutState first = initialState("r1");
        store.save(first, 0);
        store.save(first, 1);
        assertThatThrownBy(() -> store.save(busyState("r1"), 1))
                .isInstanceOfSatisfying(StaleRolloutVersionException.class, e -> {
                    assertThat(e.rollout()).isEqualTo("r1");
                    assertThat(e.expectedVersion()).isEqualTo(1);
                    assertThat(e.actualVersion()).isEqualTo(2);
                });
        assertThat(store.load("r1")).contains(new VersionedRollout(first, 2));
    }

    @Test
    void creatingAnExistingRolloutFails() {
        store.save(initialState("r1"), 0);
        assertThatThrownBy(() -> store.save(initialState("r1"), 0))
                .isInstanceOfSatisfying(StaleRolloutVersionException.class, e -> assertThat(e.actualVersion()).isEqualTo(1));
    }

    @Test
    void savingAMissingRolloutWithAVersionFails() {
        assertThatThrownBy(() -> store.save(initialState("r1"), 3))
                .isInstanceOfSatisfying(StaleRolloutVersionException.class, e -> assertThat(e.actualVersion()).isZero());
        assertThat(store.load("r1")).isEmpty();
    }

    @Test
    void rolloutsAreIndependentAndListedByName() {
        store.save(initialState("r2"), 0);
        store.save(initialState("r1"), 0);
        store.save(busyState("r2"), 1);
        assertThat(store.names()).containsExactly("r1", "r2");
        assertThat(store.load("r1").orElseThrow().version()).isEqualTo(1);
        assertThat(store.load("r2").orElseThrow().version()).isEqualTo(2);
    }

    @Test
    void deleteRemovesOnlyThatRollout() {
        store.save(initialState("r1"), 0);
        store.save(initialState("r2"), 0);
        assertThat(store.delete("r1")).isTrue();
        assertThat(store.delete("r1")).isFalse();
        assertThat(store.load("r1")).isEmpty();
        assertThat(store.names()).containsExactly("r2");
        assertThat(store.save(initialState("r1"), 0)).isEqualTo(1);
    }

    @Test
    void ofConcurrentSavesWithTheSameVersionExactlyOneWins() throws Exception {
        store.save(initialState("r1"), 0);
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                results.add(pool.submit(() -> {
                    go.await();
                    try {
                        store.save(busyState("r1"), 1);
                        return true;
                    } catch (StaleRolloutVersionException e) {
                        return false;
                    }
                }));
            }
            go.countDown();
            int wins = 0;
            for (Future<Boolean> f : results) {
                wins += f.get(30, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(wins).isEqualTo(1);
            assertThat(store.load("r1").orElseThrow().version()).isEqualTo(2);
        } finally {
            pool.shutdownNow();
        }
    }
}
