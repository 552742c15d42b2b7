package dev.hotspare.kubernetes;

import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfig.Autoscaling;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.spi.MemberDriver.MemberEvent;
import dev.hotspare.testkit.servers.MockKubernetes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

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

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A member's events reach the listeners in the order its cached record changed, although both the writing threads
 * (which put their own writes into the cache) and the informer's thread change it: the last event a listener saw of
 * every member is the member as the driver holds it. The pool controller's hand-out index keeps the last record it
 * was told of, so an older record delivered after a newer one stayed there until the next full read.
 */
class EventOrderTest {

    @RegisterExtension
    static final MockKubernetes kube = MockKubernetes.checkingRbac(RbacFile.SHIPPED);

    @Test
    void theLastEventOfEveryMemberIsItsCachedRecordWhenWritersAndTheInformerRace() throws Exception {
        String pool = "ordered";
        try (PodMemberDriver driver = PodMemberDriver.builder(kube.client,
                        (s, v) -> Optional.of(SchedulerConfig.of(s, "game", "rooms:1", Autoscaling.NONE)))
                .resyncPeriod(Duration.ZERO).build()) {
            Map<String, Member> lastSeen = new ConcurrentHashMap<>();
            driver.watch(pool, event -> {
                if (event instanceof MemberEvent.Added added) {
                    lastSeen.put(added.member().id(), added.member());
                } else if (event instanceof MemberEvent.Updated updated) {
                    lastSeen.put(updated.member().id(), updated.member());
                }
            });
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                String id = driver.create(pool, "v1", DesiredPower.RUNNING).id();
                // Only a claimed member carries an orphan mark.
                driver.assign(pool, id, "claim-" + i, Instant.parse("2026-01-01T00:00:00Z"));
                ids.add(id);
            }
            // Two writers mark the same members over and over, each write a new record.
            ExecutorService writers = Executors.newFixedThreadPool(2);
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                int writer = w;
                done.add(writers.submit(() -> {
                    for (int round = 0; round < 15; round++) {
                        for (String id : ids) {
                            Instant since = Instant.parse("2026-01-01T00:00:00Z").plusSeconds(round * 10L + writer);
                            driver.markOrphaned(pool, id, Optional.of(since));
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            writers.shutdown();

            // The informer delivers the last writes too; then every member's last event is its cached record.
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                for (String id : ids) {
                    Member cached = driver.find(pool, id).orElseThrow();
                    assertThat(cached.orphanedSince()).as("cached %s", id).isPresent();
                    assertThat(lastSeen.get(id)).as("last event seen of %s", id).isEqualTo(cached);
                }
            });
        }
    }
}
