package dev.hotspare.fleet.lock;

import dev.hotspare.fleet.lock.LockId.LockKind;
import dev.hotspare.fleet.lock.LockManager.HeldLock;
import dev.hotspare.fleet.lock.LockManager.LockOrderException;
import dev.hotspare.fleet.lock.LockManager.LockScope;
import dev.hotspare.fleet.lock.LockManager.WaitPolicy;
import dev.hotspare.fleet.lock.spi.Lease;
import dev.hotspare.memory.InMemoryLockStore;
import dev.hotspare.testkit.property.Gen;
import dev.hotspare.testkit.property.Property;
import dev.hotspare.time.VirtualTimeScheduler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.hotspare.testkit.property.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LockManagerProperties {

    private static final Duration TTL = Duration.ofSeconds(30);
    private static final List<String> SCHEDULERS = List.of("pong", "chess");

    /** One step of a random interleaving of several operations on shared locks. */
    sealed interface Step {
        record Acquire(int scope, LockId id) implements Step { }
        record Release(int scope, int which) implements Step { }
        record CloseScope(int scope) implements Step { }
        record Advance(Duration by) implements Step { }
        record ForceRelease(LockId id) implements Step { }
    }

    Gen<LockId> lockIds() {
        return Gen.combine(Gen.of(SCHEDULERS), Gen.enums(LockKind.class), LockId::new);
    }

    Gen<Step> steps() {
        Gen<Integer> scope = Gen.integers(0, 3);
        return Gen.frequency(
                Gen.weighted(6, Gen.combine(scope, lockIds(), Step.Acquire::new)),
                Gen.weighted(3, Gen.combine(scope, Gen.integers(0, 4), Step.Release::new)),
                Gen.weighted(1, scope.map(Step.CloseScope::new)),
                Gen.weighted(2, Gen.longs(1, 120).map(s -> new Step.Advance(Duration.ofSeconds(s)))),
                Gen.weighted(1, lockIds().map(Step.ForceRelease::new)));
    }

    /**
     * Model check of the order rule: a request throws {@link LockOrderException} exactly when it does not come
     * after every lock the scope holds, and then nothing changes.
     */
    @Property
    void aScopeAcceptsARequestExactlyWhenItComesAfterEverythingItHolds() {
        forAll(lockIds().list(0, 12)).check(requests -> {
            VirtualTimeScheduler scheduler = VirtualTimeScheduler.startingAt2026();
            LockManager locks = LockManager.builder().lockStore(new InMemoryLockStore(scheduler.clock())).scheduler(scheduler).build();
            LockScope scope = locks.newScope();
            List<LockId> model = new ArrayList<>();
            for (LockId request : requests) {
                boolean allowed = model.stream().allMatch(h -> h.compareTo(request) < 0);
                if (allowed) {
                    assertThat(scope.tryAcquire(request)).isPresent();
                    model.add(request);
                } else {
                    assertThatThrownBy(() -> scope.tryAcquire(request)).isInstanceOf(LockOrderException.class);
                }
                assertThat(scope.held()).extracting(HeldLock::id).containsExactlyElementsOf(model);
            }
        });
    }

    /**
     * Random interleavings of four operations taking, releasing and abandoning the locks of two schedulers on
     * virtual time, with operator force-releases: the store never shows two holders, every holder the store
     * shows is a live (not lost) lock of some scope, fencing tokens per lock only grow, and once every scope is
     * closed nothing is left held (no leak).
     */
    @Property(tries = 300)
    void interleavedOperationsNeverShareALockNeverReuseATokenAndLeakNothing() {
        forAll(steps().list(1, 60)).check(steps -> {
            VirtualTimeScheduler scheduler = VirtualTimeScheduler.startingAt2026();
            InMemoryLockStore store = new InMemoryLockStore(scheduler.clock());
            LockManager locks = LockManager.builder().lockStore(store).scheduler(scheduler).ttl(TTL).build();
            LockScope[] scopes = new LockScope[4];
            for (int i = 0; i < scopes.length; i++) {
                scopes[i] = locks.newScope();
            }
            Map<LockId, Long> lastToken = new HashMap<>();
            List<HeldLock> everGranted = new ArrayList<>();

            for (Step step : steps) {
                if (step instanceof Step.Acquire a) {
                    try {
                        Optional<HeldLock> got = scopes[a.scope()].tryAcquire(a.id());
                        got.ifPresent(lock -> {
                            Long previous = lastToken.put(lock.id(), lock.fencingToken());
                            assertThat(previous == null || lock.fencingToken() > previous)
                                    .as("token of %s went from %s to %s", lock.id(), previous, lock.fencingToken()).isTrue();
                            everGranted.add(lock);
                        });
                    } catch (LockOrderException expected) {
                        // the order rule is checked by its own property
                    }
                } else if (step instanceof Step.Release r) {
                    List<HeldLock> held = scopes[r.scope()].held();
                    if (!held.isEmpty()) {
                        held.get(r.which() % held.size()).release();
                    }
                } else if (step instanceof Step.CloseScope c) {
                    scopes[c.scope()].close();
                } else if (step instanceof Step.Advance a) {
                    scheduler.advanceBy(a.by());
                } else if (step instanceof Step.ForceRelease f) {
                    locks.forceRelease(f.id());
                }
                for (Lease lease : store.list("")) {
                    List<HeldLock> holders = everGranted.stream()
                            .filter(l -> l.lease().ownerToken().equals(lease.ownerToken())).toList();
                    assertThat(holders).as("store lease %s belongs to exactly one granted lock", lease).hasSize(1);
                    assertThat(holders.get(0).isReleased()).as("store still holds released %s", holders.get(0)).isFalse();
                }
                // A renewed (not force-released) lock is never reported lost on virtual time.
                for (HeldLock lock : everGranted) {
                    if (!lock.isReleased() && store.inspect(lock.id().key()).map(Lease::ownerToken)
                            .filter(lock.lease().ownerToken()::equals).isPresent()) {
                        assertThat(lock.isLost()).as("%s is held in the store", lock).isFalse();
                    }
                }
            }
            for (LockScope scope : scopes) {
                scope.close();
            }
            assertThat(store.list("")).isEmpty();
        });
    }

    @Property
    void backoffStartsAtTheInitialPauseGrowsAndNeverExceedsTheCap() {
        forAll(Gen.integers(1, 1000), Gen.integers(0, 5000), Gen.integers(1, 60)).check((initialMs, extraMs, attempts) -> {
            Duration initial = Duration.ofMillis(initialMs);
            Duration cap = initial.plusMillis(extraMs);
            WaitPolicy.RetryUntil policy = new WaitPolicy.RetryUntil(Duration.ofMinutes(1), initial, cap);

            assertThat(policy.backoff(1)).isEqualTo(initial);
            Duration previous = Duration.ZERO;
            for (int attempt = 1; attempt <= attempts; attempt++) {
                Duration pause = policy.backoff(attempt);
                assertThat(pause).isBetween(initial, cap).isGreaterThanOrEqualTo(previous);
                previous = pause;
            }
        });
    }
}
