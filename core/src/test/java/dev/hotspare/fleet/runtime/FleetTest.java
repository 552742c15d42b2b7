package dev.hotspare.fleet.runtime;

import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.autoscale.Autoscaler.ReadyRoom;
import dev.hotspare.fleet.autoscale.RoomRemovalRanking;
import dev.hotspare.fleet.plan.FleetPlanner;
import dev.hotspare.kpi.RecordingKpis;
import dev.hotspare.kpi.RecordingKpis.Scaled;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.PoolPlan.ScaleOperation;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** A whole fleet from one builder, on the in-memory default and virtual time. */
class FleetTest {

    private final VirtualTimeScheduler time = TaskScheduler.virtual(Instant.parse("2026-01-01T00:00:00Z"));

    private List<String> rooms(Fleet fleet) {
        return FleetPlanner.liveRooms(fleet.memberDriver().list("pong")).stream().map(Member::id).toList();
    }

    private void allReady(Fleet fleet) {
        rooms(fleet).forEach(room -> fleet.rooms().report("pong", room, "ready", time.now()));
    }

    @Test
    void aFleetOnTheInMemoryDefaultBringsUpItsMinRooms() {
        Fleet fleet = Fleet.builder().scheduler(time).build().start();
        fleet.operations().create("name: pong\ngame: pong\nimage: pong:1\nautoscaling: {min: 2}\n");
        time.advanceBy(Duration.ofSeconds(30));
        allReady(fleet);

        assertThat(fleet.operations().status("pong").rooms()).isEqualTo(new RoomStatusCounts(0, 2, 0, 0));
        assertThat(fleet.operations().status("pong").state()).isEqualTo("in-sync");
        fleet.close();
    }

    @Test
    void aManualScaleDownFollowsTheConfiguredRemovalRanking() {
        RoomRemovalRanking byName = ready -> ready.stream().sorted(Comparator.comparing(ReadyRoom::name)).toList();
        // The rooms report once: a long ping timeout keeps the watcher from removing them as dead meanwhile.
        Fleet fleet = Fleet.builder().scheduler(time).pingTimeout(Duration.ofHours(1))
                .autoscaler(Autoscaler.builder().ranking(byName).build()).build().start();
        fleet.operations().create("name: pong\ngame: pong\nimage: pong:1\n");
        fleet.operations().scaleUp("pong", 4);
        time.advanceBy(Duration.ofSeconds(5));
        allReady(fleet);
        List<String> byNameFirst = rooms(fleet).stream().sorted().limit(2).toList();

        CompletableFuture<Integer> removed = fleet.operations().scaleDown("pong", 2);
        time.advanceBy(Duration.ofMinutes(1));

        assertThat(removed).isCompletedWithValue(2);
        assertThat(rooms(fleet)).hasSize(2).doesNotContainAnyElementsOf(byNameFirst);
    }

    @Test
    void aPanicScaleUpIsReportedLikeEveryOtherScale() {
        RecordingKpis kpis = new RecordingKpis();
        Fleet fleet = Fleet.builder().scheduler(time).listener(kpis).build().start();
        fleet.operations().create("""
                name: pong
                game: pong
                image: pong:1
                autoscaling:
                  min: 0
                  enablePanicScale: true
                  up:
                    metricsTrigger:
                      - type: room
                        usage: 50
                        threshold: 50
                        time: 60
                        limit: 60
                """);
        fleet.operations().scaleUp("pong", 2);
        time.advanceBy(Duration.ofSeconds(5));
        allReady(fleet);
        kpis.clear();

        fleet.rooms().report("pong", rooms(fleet).get(0), "occupied", time.now());
        fleet.rooms().report("pong", rooms(fleet).get(1), "occupied", time.now());
        assertThat(kpis.calls(Scaled.class)).as("the report records the panic input; the watcher scales").isEmpty();
        time.runDueTasks();

        assertThat(kpis.calls(Scaled.class)).as("the panic scale-up reaches the KPIs")
                .isNotEmpty().allMatch(s -> s.operation() == ScaleOperation.SCALE_UP);
        assertThat(fleet.roomStatusStore().counts("pong").count(RoomStatus.CREATING)).isPositive();
    }
}
