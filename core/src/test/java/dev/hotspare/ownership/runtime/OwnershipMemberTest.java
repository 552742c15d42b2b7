package dev.hotspare.ownership.runtime;

import dev.hotspare.fleet.lock.ToggleableLockStore;
import dev.hotspare.memory.InMemoryLockStore;
import dev.hotspare.time.VirtualTimeScheduler;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Instances sharing one lock store divide keys, never act on one key together, and re-own a dead instance's keys. */
class OwnershipMemberTest {

    private static final Duration TTL = Duration.ofSeconds(15);
    private static final Duration HEARTBEAT = Duration.ofSeconds(5);
    private static final List<String> KEYS = IntStream.range(0, 200).mapToObj(i -> "sched-" + i).toList();

    private final VirtualTimeScheduler time = VirtualTimeScheduler.startingAt2026();
    private final InMemoryLockStore shared = new InMemoryLockStore(time.clock());

    private record Instance(OwnershipMember member, OwnershipMember.OwnedKeys keys, ToggleableLockStore link) {
    }

    private Instance instance(String id) {
        ToggleableLockStore link = new ToggleableLockStore(shared);
        OwnershipMember member = OwnershipMember.builder(id).lockStore(link).scheduler(time).leaseTtl(TTL).heartbeat(HEARTBEAT).build();
        OwnershipMember.OwnedKeys keys = member.track("scheduler", () -> KEYS);
        member.start();
        return new Instance(member, keys, link);
    }

    /** Every key has at most one instance that may act on it now; returns how many have exactly one. */
    private static int checkAtMostOneActing(List<Instance> instances) {
        int owned = 0;
        for (String key : KEYS) {
            long acting = instances.stream().filter(i -> i.keys().fence(key).isPresent()).count();
            assertThat(acting).as("instances acting on %s", key).isLessThanOrEqualTo(1);
            owned += (int) acting;
        }
        return owned;
    }

    /** Advances second by second, checking exclusion at each instant; returns the first instant every key is owned. */
    private Optional<Instant> advanceChecking(List<Instance> instances, Duration span) {
        Optional<Instant> allOwned = Optional.empty();
        for (long s = 0; s < span.toSeconds(); s++) {
            time.advanceBy(Duration.ofSeconds(1));
            if (checkAtMostOneActing(instances) == KEYS.size() && allOwned.isEmpty()) {
                allOwned = Optional.of(time.now());
            }
        }
        return allOwned;
    }

    @Test
    void fourInstancesDivideTheKeysAndEachKeyHasOneOwner() {
        List<Instance> instances = new ArrayList<>();
        for (String id : List.of("fleet-a", "fleet-b", "fleet-c", "fleet-d")) {
            instances.add(instance(id));
        }
        assertThat(advanceChecking(instances, Duration.ofMinutes(2))).isPresent();
        Map<String, Integer> counts = new HashMap<>();
        for (Instance i : instances) {
            counts.put(i.member().settings().instanceId(), i.keys().owned().size());
            assertThat(i.keys().owned().size()).isBetween(1, (int) (1.25 * KEYS.size() / 4));
        }
        assertThat(counts.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(KEYS.size());
        assertThat(instances.get(0).member().liveMembers()).containsExactly("fleet-a", "fleet-b", "fleet-c", "fleet-d");
        // Every instance computes the same division.
        assertThat(instances).allSatisfy(i -> assertThat(i.keys().assignment()).isEqualTo(instances.get(0).keys().assignment()));
    }

    @Test
    void aDeadInstancesKeysAreReOwnedWithinTwiceTheLeaseTtlAndNeverByTwoAtOnce() {
        List<Instance> instances = new ArrayList<>();
        for (String id : List.of("fleet-a", "fleet-b", "fleet-c", "fleet-d")) {
            instances.add(instance(id));
        }
        advanceChecking(instances, Duration.ofMinutes(1));
        Instance dead = instances.get(2);
        List<String> itsKeys = dead.keys().owned();
        assertThat(itsKeys).isNotEmpty();
        dead.link().down(true);                  // stops renewing: no clean shutdown
        Instant killedAt = time.now();

        Optional<Instant> reOwned = advanceChecking(instances, TTL.multipliedBy(3));

        assertThat(reOwned).isPresent();
        assertThat(Duration.between(killedAt, reOwned.get())).isLessThanOrEqualTo(TTL.multipliedBy(2));
        assertThat(dead.keys().owned()).as("the dead instance acts on nothing once its leases lapsed").isEmpty();
        assertThat(instances.get(0).member().liveMembers()).containsExactly("fleet-a", "fleet-b", "fleet-d");
    }

    @Test
    void aClosedInstanceHandsItsKeysOverAtOnce() {
        List<Instance> instances = new ArrayList<>();
        for (String id : List.of("fleet-a", "fleet-b")) {
            instances.add(instance(id));
        }
        advanceChecking(instances, Duration.ofMinutes(1));
        assertThat(instances.get(1).keys().owned()).isNotEmpty();
        instances.get(1).member().close();
        Instant closedAt = time.now();
        assertThat(instances.get(1).keys().owned()).isEmpty();
        Optional<Instant> reOwned = advanceChecking(instances, TTL);
        assertThat(reOwned).isPresent();
        assertThat(Duration.between(closedAt, reOwned.get())).isLessThanOrEqualTo(HEARTBEAT);
        assertThat(instances.get(0).keys().owned()).hasSize(KEYS.size());
    }

    @Test
    void aJoiningInstanceTakesItsShareOnlyAfterTheOldOwnerLetsGo() {
        List<Instance> instances = new ArrayList<>();
        instances.add(instance("fleet-a"));
        assertThat(instances.get(0).keys().owned()).hasSize(KEYS.size());
        instances.add(instance("fleet-b"));
        Optional<Instant> settled = advanceChecking(instances, Duration.ofSeconds(30));
        assertThat(settled).isPresent();
        assertThat(instances.get(1).keys().owned()).hasSizeBetween(KEYS.size() / 2 - 25, KEYS.size() / 2 + 25);
    }

    @Test
    void aFencingTokenGrowsWhenAKeyChangesOwner() {
        Instance a = instance("fleet-a");
        long before = a.keys().fence("sched-0").orElseThrow().fencingToken();
        a.member().close();
        Instance b = instance("fleet-b");
        assertThat(b.keys().fence("sched-0").orElseThrow().fencingToken()).isGreaterThan(before);
    }

    @Test
    void twoLiveInstancesCannotShareAnId() {
        instance("fleet-a");
        OwnershipMember twin = OwnershipMember.builder("fleet-a").lockStore(shared).scheduler(time).build();
        assertThatThrownBy(twin::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("instanceId: bad value 'fleet-a'");
    }

    @Test
    void everyBadSettingIsNamedWithItsValue() {
        assertThatThrownBy(() -> OwnershipMember.builder("Fleet_A").group("").leaseTtl(Duration.ofSeconds(10))
                .heartbeat(Duration.ofSeconds(5)).build())
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("instanceId").hasMessageContaining("Fleet_A")
                .hasMessageContaining("group")
                .hasMessageContaining("scheduler")
                .hasMessageContaining("heartbeat").hasMessageContaining("PT5S");
        assertThatThrownBy(() -> OwnershipMember.builder("a").scheduler(time).leaseTtl(Duration.ZERO).build())
                .isInstanceOf(ValidationException.class).hasMessageContaining("leaseTtl").hasMessageContaining("PT0S");
        OwnershipMember member = OwnershipMember.builder("a").scheduler(time).build();
        assertThatThrownBy(() -> member.track("pool.s", List::of)).isInstanceOf(ValidationException.class).hasMessageContaining("pool.s");
    }

    @Test
    void onItsOwnWithTheDefaultInMemoryStoreAnInstanceOwnsEveryKey() {
        OwnershipMember alone = OwnershipMember.builder("solo").scheduler(time).build();
        OwnershipMember.OwnedKeys keys = alone.track("pool", () -> List.of("ci", "gpu"));
        alone.start();
        assertThat(keys.owned()).containsExactly("ci", "gpu");
        alone.close();
    }
}
