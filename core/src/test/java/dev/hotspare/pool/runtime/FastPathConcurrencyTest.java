package dev.hotspare.pool.runtime;

import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.TaskScheduler;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The fast path and passes on real threads at once: claimers on four threads, each claim released as soon as it is
 * served (so passes run all the time, replenishing), and still every claim is written onto exactly one member and
 * every member onto at most one claim. Waits are for completion only, with generous bounds; nothing is timed.
 */
class FastPathConcurrencyTest {

    @Test
    void claimsRacingPassesAreEachWrittenOntoExactlyOneMember() throws Exception {
        ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
        ExecutorService claimers = Executors.newFixedThreadPool(4);
        TaskScheduler time = TaskScheduler.system(executor, Clock.systemUTC());
        InMemoryMemberDriver memory = InMemoryMemberDriver.builder(time).installTime(Duration.ZERO)
                .resumeTime(Duration.ZERO).hibernateTime(Duration.ZERO).build();
        List<String> assigned = new java.util.concurrent.CopyOnWriteArrayList<>();
        MemberDriver driver = new MemberDriver() {
            @Override
            public Member create(String pool, String templateVersion, DesiredPower power) {
                return memory.create(pool, templateVersion, power);
            }

            @Override
            public void delete(String pool, String memberId) {
                memory.delete(pool, memberId);
            }

            @Override
            public void setDesiredPower(String pool, String memberId, DesiredPower power) {
                memory.setDesiredPower(pool, memberId, power);
            }

            @Override
            public void assign(String pool, String memberId, String claimName, Instant claimedAt) {
                memory.assign(pool, memberId, claimName, claimedAt);
                assigned.add("assign " + memberId + " " + claimName); // written: logged only once it succeeded
            }

            @Override
            public void markReleased(String pool, String memberId, Instant releasedAt) {
                memory.markReleased(pool, memberId, releasedAt);
            }

            @Override
            public void markOrphaned(String pool, String memberId, Optional<Instant> since) {
                memory.markOrphaned(pool, memberId, since);
            }

            @Override
            public List<Member> list(String pool) {
                return memory.list(pool);
            }

            @Override
            public Optional<Member> find(String pool, String memberId) {
                return memory.find(pool, memberId);
            }

            @Override
            public AutoCloseable watch(String pool, MemberListener listener) {
                return memory.watch(pool, listener);
            }
        };
        InMemoryClaimStore claims = new InMemoryClaimStore();
        PoolSpec spec = PoolSpec.builder("race").size(20).runningCount(20).build();
        try (PoolController controller = PoolController.builder(spec).memberDriver(driver).claimStore(claims).scheduler(time)
                .resyncPeriod(Duration.ofSeconds(1)).build().start()) {
            await().atMost(Duration.ofSeconds(60)).until(() -> memory.list("race").stream()
                    .filter(m -> m.claimName().isEmpty() && m.observedPower() == ObservedPower.RUNNING).count() == 20);
            Map<String, String> servedWith = new ConcurrentHashMap<>();
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                done.add(claimers.submit(() -> {
                    for (int i = 0; i < 150; i++) {
                        String name = "t" + thread + "-" + i;
                        Member member = controller.claim(name).member().orTimeout(60, TimeUnit.SECONDS).join();
                        assertThat(servedWith.put(name, member.id())).isNull();
                        controller.release(name);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(120, TimeUnit.SECONDS);
            }
            assertThat(servedWith).hasSize(600);
            assertThat(servedWith.values()).as("no member served twice").doesNotHaveDuplicates();
            Map<String, String> writtenOnto = new ConcurrentHashMap<>();
            for (String call : assigned) {
                if (call.startsWith("assign ")) {
                    String[] parts = call.split(" ");
                    String before = writtenOnto.put(parts[2], parts[1]);
                    assertThat(before == null || before.equals(parts[1]))
                            .as("claim %s written onto %s and %s", parts[2], before, parts[1]).isTrue();
                }
            }
            assertThat(writtenOnto).hasSize(600);
        } finally {
            claimers.shutdownNow();
            executor.shutdownNow();
        }
    }
}
