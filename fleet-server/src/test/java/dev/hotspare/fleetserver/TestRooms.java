package dev.hotspare.fleetserver;

import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.autoscale.Autoscaler.AutoscalerSettings;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberPhase;

import java.time.Duration;
import java.util.List;

import static org.awaitility.Awaitility.await;

/** The rooms (members not being deleted) the service's driver holds, read straight from the driver. */
final class TestRooms {

    private TestRooms() {
    }

    /**
     * An autoscaler ticking every 100 ms: a new scheduler's first rooms come at its first tick, which Maestro's 10 s
     * default would make every test that waits for them wait for.
     */
    static Autoscaler fastAutoscaler() {
        return Autoscaler.builder().settings(new AutoscalerSettings(Duration.ofMillis(100), 300)).build();
    }

    static List<String> ids(FleetService service, String scheduler) {
        return members(service, scheduler).stream().map(Member::id).sorted().toList();
    }

    static List<String> versions(FleetService service, String scheduler) {
        return members(service, scheduler).stream().map(Member::templateVersion).distinct().toList();
    }

    static List<String> awaitRooms(FleetService service, String scheduler, int count) {
        await().atMost(Duration.ofSeconds(20)).until(() -> ids(service, scheduler).size() >= count);
        return ids(service, scheduler);
    }

    private static List<Member> members(FleetService service, String scheduler) {
        return service.memberDriver().list(scheduler).stream().filter(m -> m.phase() != MemberPhase.DELETING).toList();
    }
}
