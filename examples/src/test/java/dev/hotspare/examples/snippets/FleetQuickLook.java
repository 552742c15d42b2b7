package dev.hotspare.examples.snippets;

import dev.hotspare.fleet.runtime.Fleet;
import dev.hotspare.pool.Member;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.time.VirtualTimeScheduler;

import java.time.Duration;
import java.time.Instant;

/** The fleet snippet of README.md: a fleet in memory on virtual time, a scheduler, its rooms reported ready. */
public final class FleetQuickLook {

    private FleetQuickLook() {
    }

    public static void main(String[] args) {
        // snippet: README.md#1
        VirtualTimeScheduler time = TaskScheduler.virtual(Instant.parse("2026-01-01T00:00:00Z")); // or TaskScheduler.system(...)
        Fleet fleet = Fleet.builder().scheduler(time).build().start();            // stores, locks, worker: in memory
        fleet.operations().create("""
                name: pong
                game: pong
                image: pong:1
                autoscaling: {min: 2}
                """);
        time.advanceBy(Duration.ofSeconds(30));                        // the watcher brings up min rooms
        for (Member room : fleet.memberDriver().list("pong")) {
            fleet.rooms().report("pong", room.id(), "ready", time.now()); // rooms ping as Maestro rooms do
        }
        System.out.println(fleet.operations().status("pong").rooms());   // RoomStatusCounts[creating=0, ready=2, ...]
        // end snippet
        fleet.close();
    }
}
