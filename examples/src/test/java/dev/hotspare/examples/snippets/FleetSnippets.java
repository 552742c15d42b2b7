package dev.hotspare.examples.snippets;

import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfigs;
import dev.hotspare.fleet.SchedulerState;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.autoscale.Autoscaler.AutoscalerSettings;
import dev.hotspare.fleet.autoscale.Autoscaler.FleetSnapshot;
import dev.hotspare.fleet.autoscale.Autoscaler.ScaleDecision;
import dev.hotspare.fleet.autoscale.Autoscaler.UsageWindows;
import dev.hotspare.fleet.autoscale.RoomRemovalRanking;
import dev.hotspare.fleet.autoscale.ScalingPolicies;
import dev.hotspare.fleet.spi.RoomStatusStore;
import dev.hotspare.fleet.spi.RoomStatusStore.RoomUpdate;
import dev.hotspare.memory.InMemoryRoomStatusStore;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/** The snippets of docs/fleet.md; compiled, the names they use are parameters. */
final class FleetSnippets {

    private FleetSnippets() {
    }

    static void read(Path path, Set<String> types) {
        // snippet: docs/fleet.md#0
        SchedulerConfig config = SchedulerConfigs.read(Path.of("pong.yaml"));              // built-in trigger types
        SchedulerConfig withPlugins = SchedulerConfigs.read(path, ScalingPolicies.loaded().typeNames()); // + plug-ins
        SchedulerConfigs.Check check = SchedulerConfigs.check(path, types);                // no exception: config + problems
        // end snippet
    }

    static void ping(long ts) {
        // snippet: docs/fleet.md#1
        RoomStatusStore store = new InMemoryRoomStatusStore();      // or the Redis one
        RoomUpdate u = store.ping("pong", "room-1", "occupied", Instant.ofEpochSecond(ts), 3);   // 3 matches running
        u.counts();   // counts per status and match totals after this report, from the same atomic step
        // end snippet
    }

    static void autoscaler(SchedulerConfig config, FleetSnapshot snapshot, UsageWindows windows, SchedulerState state,
                           Optional<Instant> lastScaleAt, Instant now) {
        // snippet: docs/fleet.md#2
        Autoscaler autoscaler = Autoscaler.builder()
                .policies(ScalingPolicies.loaded())                 // built-ins + ServiceLoader plug-ins
                .ranking(RoomRemovalRanking.DEFAULT)
                .settings(new AutoscalerSettings(Duration.ofSeconds(10), 300))   // period, maxScaleUpAmount
                .build();
        ScaleDecision d = autoscaler.decide(config, snapshot, windows, state, lastScaleAt, now);   // pure
        // end snippet
    }
}
