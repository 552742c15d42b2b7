package dev.hotspare.kubernetes;

import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfig.Autoscaling;
import dev.hotspare.kubernetes.internal.Kube;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.spi.MemberDriver.MemberEvent;
import dev.hotspare.testkit.servers.MockKubernetes;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The informer-fed cache under the two things that re-deliver objects: periodic resyncs and a watch the server
 * dropped (after which the mock, like an API server replaying from a resourceVersion, sends every object again).
 * The driver catches up on changes made meanwhile and reports each change exactly once.
 */
class InformerCatchUpTest {

    /** Started with the class; checks every request against the RBAC file and stops after the last test. */
    @RegisterExtension
    static final MockKubernetes kube = MockKubernetes.checkingRbac(RbacFile.SHIPPED);
    private PodMemberDriver driver;

    @AfterEach
    void closeDriver() {
        driver.close();
    }

    private PodMemberDriver driver(Duration resync) {
        driver = PodMemberDriver.builder(kube.client,
                        (s, v) -> Optional.of(SchedulerConfig.of(s, "game", "rooms:1", Autoscaling.NONE)))
                .resyncPeriod(resync).build();
        return driver;
    }

    @Test
    void resyncsCauseNoEvents() {
        PodMemberDriver rooms = driver(Duration.ofSeconds(1));
        List<MemberEvent> events = new CopyOnWriteArrayList<>();
        rooms.watch("resynced", events::add);
        Member a = rooms.create("resynced", "v1", DesiredPower.RUNNING);
        Member b = rooms.create("resynced", "v1", DesiredPower.RUNNING);
        await().atMost(Duration.ofSeconds(60)).until(() -> rooms.list("resynced").size() == 2);

        // Over two resync periods (fabric8's shortest is one second) the informer re-delivers both pods, and none
        // of it is a change.
        await().during(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(events).hasSize(2));
        assertThat(events).containsExactlyInAnyOrder(new MemberEvent.Added("resynced", a), new MemberEvent.Added("resynced", b));
    }

    @Test
    void aDroppedWatchCatchesUpWithoutDuplicates() {
        PodMemberDriver rooms = driver(Duration.ZERO);
        String pool = "dropped";
        List<MemberEvent> events = new CopyOnWriteArrayList<>();
        rooms.watch(pool, events::add);
        Member a = rooms.create(pool, "v1", DesiredPower.RUNNING);
        Member b = rooms.create(pool, "v1", DesiredPower.RUNNING);
        await().atMost(Duration.ofSeconds(60)).until(() -> rooms.list(pool).size() == 2);

        assertThat(kube.dropWatches()).isPositive();
        // Someone else (another worker, kubectl) claims room a while the watch is down or reconnecting.
        Pod pod = kube.fixture.pods().inNamespace(pool).withName(a.id()).get();
        kube.fixture.pods().inNamespace(pool).resource(new PodBuilder(pod).editMetadata()
                .addToAnnotations(Kube.CLAIM, "match-7").addToAnnotations(Kube.CLAIMED_AT, "2026-03-01T10:00:00Z")
                .endMetadata().build()).update();

        await().atMost(Duration.ofSeconds(60)).until(() -> rooms.find(pool, a.id()).orElseThrow().claimName().isPresent());
        // Let the reconnected watch re-deliver everything it is going to.
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(60)).until(() -> events.size() == 3);

        assertThat(events).filteredOn(e -> e instanceof MemberEvent.Added).hasSize(2);
        assertThat(events).filteredOn(e -> e instanceof MemberEvent.Updated)
                .singleElement().satisfies(e -> {
                    Member m = ((MemberEvent.Updated) e).member();
                    assertThat(m.id()).isEqualTo(a.id());
                    assertThat(m.claimName()).contains("match-7");
                });
        assertThat(rooms.list(pool)).extracting(Member::id).containsExactlyInAnyOrder(a.id(), b.id());
    }
}
