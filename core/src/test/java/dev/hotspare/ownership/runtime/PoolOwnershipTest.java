package dev.hotspare.ownership.runtime;

import dev.hotspare.fleet.lock.ToggleableLockStore;
import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryLockStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.ownership.runtime.OwnershipMember.OwnershipListener;
import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 100 pools on 4 instances that share the member driver, the claim store and the lock store: each pool is planned by
 * its owner only, claims made through any instance are served, and when one instance dies mid-load no claim is served
 * twice and none is lost. Virtual time.
 */
class PoolOwnershipTest {

    private static final int POOLS = 100;
    private static final Duration TTL = Duration.ofSeconds(15);
    private static final Duration HEARTBEAT = Duration.ofSeconds(5);
    private static final List<String> NAMES = IntStream.range(0, POOLS).mapToObj(i -> "ci-" + i).toList();

    private final VirtualTimeScheduler time = VirtualTimeScheduler.startingAt2026();
    private final InMemoryMemberDriver driver = InMemoryMemberDriver.builder(time)
            .installTime(Duration.ofMinutes(1)).resumeTime(Duration.ofSeconds(10)).build();
    private final InMemoryClaimStore claims = new InMemoryClaimStore();
    private final InMemoryLockStore locks = new InMemoryLockStore(time.clock());

    private static final class Instance {
        final OwnershipMember member;
        final OwnershipMember.OwnedKeys pools;
        final Map<String, PoolController> controllers = new LinkedHashMap<>();
        final ToggleableLockStore link;
        boolean dead;

        Instance(OwnershipMember member, OwnershipMember.OwnedKeys pools, ToggleableLockStore link) {
            this.member = member;
            this.pools = pools;
            this.link = link;
        }
    }

    private Instance instance(String id) {
        ToggleableLockStore link = new ToggleableLockStore(locks);
        Map<String, PoolController> controllers = new LinkedHashMap<>();
        OwnershipMember member = OwnershipMember.builder(id).lockStore(link).scheduler(time).leaseTtl(TTL).heartbeat(HEARTBEAT)
                .listener(new OwnershipListener() {
                    @Override
                    public void acquired(String kind, String key, long fencingToken, Duration waited) {
                        // A pool that changed owner gets a pass at once rather than at the next resync.
                        PoolController controller = controllers.get(key);
                        if (controller != null) {
                            controller.requestReconcile();
                        }
                    }
                }).build();
        OwnershipMember.OwnedKeys pools = member.track("pool", () -> NAMES);
        Instance instance = new Instance(member, pools, link);
        for (String name : NAMES) {
            PoolSpec spec = PoolSpec.builder(name).size(3).runningCount(2).build();
            controllers.put(name, PoolController.builder(spec).memberDriver(driver).claimStore(claims).scheduler(time)
                    .owned(() -> !instance.dead && pools.fence(name).isPresent()).build());
        }
        instance.controllers.putAll(controllers);
        return instance;
    }

    private record Made(String pool, String name, ClaimHandle handle, Instance via) {
    }

    private static void checkNoMemberServesTwoClaims(InMemoryClaimStore claims) {
        for (String pool : NAMES) {
            Map<String, String> claimByMember = new HashMap<>();
            for (Claim claim : claims.live(pool)) {
                claim.assignedMember().ifPresent(member -> assertThat(claimByMember.put(member, claim.name()))
                        .as("member %s of %s serves one claim", member, pool).isNull());
            }
        }
    }

    @Test
    void throughTheDeathOfOneOfFourInstancesNoClaimIsServedTwiceAndNoneIsLost() {
        List<Instance> instances = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            instances.add(instance("pools-" + i));
        }
        instances.forEach(instance -> instance.member.start());
        instances.forEach(instance -> instance.controllers.values().forEach(PoolController::start));
        time.advanceBy(Duration.ofMinutes(3));                  // members installed, hot sets running

        Random random = new Random(21);
        List<Made> made = new ArrayList<>();
        Map<String, String> firstMember = new HashMap<>();
        Instance victim = instances.get(3);
        for (int second = 0; second < 600; second++) {
            if (second == 120) {
                victim.dead = true;                              // stops: no pass, no renewal, no clean hand-over
                victim.link.down(true);
                victim.controllers.values().forEach(PoolController::close);
            }
            if (second % 2 == 0) {
                List<Instance> alive = instances.stream().filter(i -> !i.dead).toList();
                Instance via = alive.get(random.nextInt(alive.size()));
                String pool = NAMES.get(random.nextInt(POOLS));
                String name = "job-" + second;
                made.add(new Made(pool, name, via.controllers.get(pool).claim(name), via));
            }
            time.advanceBy(Duration.ofSeconds(1));
            checkNoMemberServesTwoClaims(claims);
            for (Made m : made) {
                if (m.handle().member().isDone() && !m.handle().member().isCompletedExceptionally()) {
                    String member = m.handle().member().join().id();
                    assertThat(firstMember.putIfAbsent(m.name(), member) == null || firstMember.get(m.name()).equals(member))
                            .as("claim %s keeps its member", m.name()).isTrue();
                }
            }
            // Claims are held two minutes, then released through the instance that made them (if it lives).
            for (Made m : made) {
                if (!m.via().dead && m.handle().member().isDone() && time.now().isAfter(m.handle().createdAt().plusSeconds(120))) {
                    m.via().controllers.get(m.pool()).release(m.handle());
                }
            }
        }
        time.advanceBy(Duration.ofMinutes(3));

        List<Made> throughLiving = made.stream().filter(m -> !m.via().dead).toList();
        assertThat(throughLiving).hasSizeGreaterThan(200);
        for (Made m : throughLiving) {
            assertThat(m.handle().member()).as("claim %s on %s is served", m.name(), m.pool()).isDone();
            Member member = m.handle().member().join();
            assertThat(member.id()).isEqualTo(firstMember.get(m.name()));
        }
        // The claims made through the dead instance are in the store and were served all the same.
        for (Made m : made.stream().filter(m -> m.via().dead).toList()) {
            assertThat(claims.find(m.pool(), m.name())).as("claim %s", m.name())
                    .hasValueSatisfying(claim -> assertThat(claim.assignedMember()).isPresent());
        }
        for (String pool : NAMES) {
            long owners = instances.stream().filter(i -> !i.dead && i.pools.fence(pool).isPresent()).count();
            assertThat(owners).as("owners of %s", pool).isEqualTo(1);
        }
    }
}
