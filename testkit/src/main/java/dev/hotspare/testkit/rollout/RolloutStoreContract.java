package dev.hotspare.testkit.rollout;

import dev.hotspare.rollout.Inventory;
import dev.hotspare.rollout.RolloutMachine;
import dev.hotspare.rollout.RolloutMachine.RolloutEvent;
import dev.hotspare.rollout.RolloutSpec;
import dev.hotspare.rollout.RolloutSpec.MaintenanceWindow;
import dev.hotspare.rollout.RolloutState;
import dev.hotspare.rollout.RolloutState.OpStatus;
import dev.hotspare.rollout.RolloutState.Phase;
import dev.hotspare.rollout.Target;
import dev.hotspare.rollout.TargetRef;
import dev.hotspare.rollout.spi.RolloutStore;
import dev.hotspare.rollout.spi.RolloutStore.RolloutConflictException;
import dev.hotspare.rollout.spi.RolloutStore.RolloutInProgressException;
import dev.hotspare.rollout.spi.RolloutStore.StaleRolloutVersionException;
import dev.hotspare.rollout.spi.RolloutStore.VersionedRollout;
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

    /**
     * A fresh store with no rollouts in it.
     *
     * @return the store under test
     */
    protected abstract RolloutStore newStore();

    private RolloutStore store;

    @BeforeEach
    void createStore() {
        store = newStore();
    }

    /**
     * A not-started rollout named {@code name} over devices of its own ({@code <name>-dev-1}, {@code <name>-dev-2};
     * its node is skipped: the control plane is off), so rollouts of different names never share a target.
     *
     * @param name the rollout's name
     * @return the state
     */
    protected static RolloutState initialState(String name) {
        return initialState(name, List.of());
    }

    /**
     * Like {@link #initialState(String)}, also covering the devices named {@code shared}.
     *
     * @param name   the rollout's name
     * @param shared more devices it covers
     */
    protected static RolloutState initialState(String name, List<String> shared) {
        RolloutSpec spec = RolloutSpec.builder(name, "2.0").upgradeControlPlane(false).deviceGroup("tier", "canary").build();
        List<Target> targets = new ArrayList<>(List.of(Target.node(name + "-node-1", "1.0"),
                Target.device(name + "-dev-1", "1.0", Map.of("tier", "canary")), Target.device(name + "-dev-2", "1.0", Map.of())));
        shared.forEach(device -> targets.add(Target.device(device, "1.0", Map.of())));
        return RolloutMachine.initial(spec, new Inventory(targets));
    }

    /**
     * {@code state} after {@code event} at T0.
     *
     * @return the next state
     */
    protected static RolloutState after(RolloutState state, RolloutEvent event) {
        return RolloutMachine.decide(state, event, T0).state();
    }

    /**
     * A rollout mid-way: ops in flight, a failure, a retry pending, a window, dropped reports.
     *
     * @param name the rollout's name
     * @return the state
     */
    protected static RolloutState busyState(String name) {
        RolloutSpec spec = RolloutSpec.builder(name, "2.0").upgradeControlPlane(false).maxParallel(2).maxFailures(3)
                .retry(2, Duration.ofMinutes(1)).window(MaintenanceWindow.between(T0, T0.plus(Duration.ofHours(4)))).build();
        RolloutState s = RolloutMachine.initial(spec, new Inventory(List.of(Target.device(name + "-dev-1", "1.0", Map.of()),
                Target.device(name + "-dev-2", "1.0", Map.of()), Target.device(name + "-dev-3", "1.0", Map.of()))));
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
    void deleteRemovesOnlyThatFinishedRollout() {
        store.save(initialState("r1"), 0);
        store.save(after(initialState("r1"), new RolloutEvent.Abort()), 1);
        store.save(initialState("r2"), 0);
        assertThat(store.delete("r1")).isTrue();
        assertThat(store.delete("r1")).isFalse();
        assertThat(store.load("r1")).isEmpty();
        assertThat(store.names()).containsExactly("r2");
        assertThat(store.save(initialState("r1"), 0)).isEqualTo(1);
    }

    @Test
    void aRolloutInProgressCannotBeDeleted() {
        store.save(initialState("r1"), 0);
        assertThatThrownBy(() -> store.delete("r1"))
                .isInstanceOfSatisfying(RolloutInProgressException.class, e -> {
                    assertThat(e.rollout()).isEqualTo("r1");
                    assertThat(e.phase()).isEqualTo(Phase.PENDING);
                    assertThat(e.getMessage()).contains("'r1'", "PENDING", "abort");
                });
        RolloutState started = after(initialState("r1"), new RolloutEvent.Start());
        store.save(started, 1);
        assertThatThrownBy(() -> store.delete("r1"))
                .isInstanceOfSatisfying(RolloutInProgressException.class, e -> assertThat(e.phase()).isEqualTo(Phase.DEVICES));
        assertThat(store.load("r1")).contains(new VersionedRollout(started, 2));
        store.save(after(started, new RolloutEvent.Abort()), 2);
        assertThat(store.delete("r1")).isTrue();
    }

    @Test
    void creatingARolloutThatCoversATargetOfOneInProgressIsRefusedNamingItAndTheTargets() {
        store.save(initialState("r1", List.of("shared-1", "shared-2")), 0);
        assertThatThrownBy(() -> store.save(initialState("r2", List.of("shared-2", "shared-1")), 0))
                .isInstanceOfSatisfying(RolloutConflictException.class, e -> {
                    assertThat(e.rollout()).isEqualTo("r2");
                    assertThat(e.heldBy()).containsExactly(Map.entry("r1",
                            List.of(TargetRef.device("shared-1"), TargetRef.device("shared-2"))));
                    assertThat(e.getMessage()).contains("rollout 'r2'", "rollout 'r1'", "device/shared-1", "device/shared-2");
                });
        assertThat(store.load("r2")).isEmpty();
        assertThat(store.names()).containsExactly("r1");
        // Nothing of the refused save stayed behind: r2's own devices are free.
        store.save(initialState("r3", List.of("r2-dev-1", "r2-dev-2")), 0);
    }

    @Test
    void theServicesOpIsATargetOfEveryRolloutThatUpgradesTheControlPlane() {
        RolloutSpec withControlPlane = RolloutSpec.builder("r1", "2.0").build();
        store.save(RolloutMachine.initial(withControlPlane, Inventory.of(Target.node("r1-node", "1.0"))), 0);
        RolloutSpec other = RolloutSpec.builder("r2", "2.0").build();
        assertThatThrownBy(() -> store.save(RolloutMachine.initial(other, Inventory.of(Target.node("r2-node", "1.0"))), 0))
                .isInstanceOfSatisfying(RolloutConflictException.class,
                        e -> assertThat(e.heldBy()).containsExactly(Map.entry("r1", List.of(TargetRef.services()))));
    }

    @Test
    void aFinishedRolloutFreesItsTargets() {
        RolloutState first = initialState("r1", List.of("shared-1"));
        store.save(first, 0);
        store.save(after(first, new RolloutEvent.Abort()), 1);
        assertThat(store.save(initialState("r2", List.of("shared-1")), 0)).isEqualTo(1);
    }

    @Test
    void targetsARolloutLeavesAloneOrLosesAreNotHeld() {
        RolloutSpec spec = RolloutSpec.builder("r1", "2.0").upgradeControlPlane(false).build();
        Inventory both = Inventory.of(Target.device("current", "2.0", Map.of()), Target.device("leaving", "1.0", Map.of()),
                Target.device("r1-dev", "1.0", Map.of()));
        RolloutState r1 = RolloutMachine.initial(spec, both);
        store.save(r1, 0);
        // "current" is already on 2.0: skipped, so free.
        store.save(initialState("r2", List.of("current")), 0);
        assertThatThrownBy(() -> store.save(initialState("r3", List.of("leaving")), 0)).isInstanceOf(RolloutConflictException.class);
        RolloutState removed = after(r1, new RolloutEvent.InventoryChanged(Inventory.of(Target.device("current", "2.0", Map.of()),
                Target.device("r1-dev", "1.0", Map.of()))));
        store.save(removed, 1);
        assertThat(store.save(initialState("r3", List.of("leaving")), 0)).isEqualTo(1);
    }

    @Test
    void anUpdateThatBringsInATargetHeldByAnotherRolloutIsRefusedAndChangesNothing() {
        store.save(initialState("r1", List.of("shared-1")), 0);
        RolloutState r2 = initialState("r2");
        store.save(r2, 0);
        List<Target> grown = new ArrayList<>(r2.inventory().targets());
        grown.add(Target.device("shared-1", "1.0", Map.of()));
        RolloutState wantsShared = after(r2, new RolloutEvent.InventoryChanged(new Inventory(grown)));
        assertThatThrownBy(() -> store.save(wantsShared, 1))
                .isInstanceOfSatisfying(RolloutConflictException.class,
                        e -> assertThat(e.heldBy()).containsExactly(Map.entry("r1", List.of(TargetRef.device("shared-1")))));
        assertThat(store.load("r2")).contains(new VersionedRollout(r2, 1));
    }

    @Test
    void ofConcurrentCreatorsOfOverlappingRolloutsExactlyOneWins() throws Exception {
        // Every creator covers two of three shared devices (any two such pairs overlap) plus devices of its own,
        // listed in a different order, so claims meet in every order.
        List<String> shared = List.of("shared-0", "shared-1", "shared-2");
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Optional<RolloutConflictException>>> results = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                RolloutState state = initialState("c" + i, List.of(shared.get((i + 1) % 3), shared.get(i % 3)));
                results.add(pool.submit(() -> {
                    go.await();
                    try {
                        store.save(state, 0);
                        return Optional.empty();
                    } catch (RolloutConflictException e) {
                        return Optional.of(e);
                    }
                }));
            }
            go.countDown();
            List<String> winners = new ArrayList<>();
            List<RolloutConflictException> refusals = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                Optional<RolloutConflictException> refused = results.get(i).get(60, TimeUnit.SECONDS);
                if (refused.isEmpty()) {
                    winners.add("c" + i);
                } else {
                    refusals.add(refused.get());
                }
            }
            assertThat(winners).hasSize(1);
            assertThat(store.names()).containsExactlyElementsOf(winners);
            assertThat(refusals).hasSize(threads - 1).allSatisfy(e -> assertThat(e.heldBy()).containsOnlyKeys(winners.get(0)));
            // The losers' own devices were not kept: one rollout can take all of them now.
            List<String> losersDevices = new ArrayList<>();
            refusals.forEach(e -> losersDevices.addAll(List.of(e.rollout() + "-dev-1", e.rollout() + "-dev-2")));
            assertThat(store.save(initialState("after", losersDevices), 0)).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
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
