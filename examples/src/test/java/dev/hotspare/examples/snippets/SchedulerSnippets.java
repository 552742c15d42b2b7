package dev.hotspare.examples.snippets;

import dev.hotspare.fleet.runtime.Fleet;
import dev.hotspare.fleet.runtime.RoomService;
import dev.hotspare.fleet.runtime.SchedulerOperations;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.TaskScheduler;

/** The snippet of docs/schedulers.md; compiled, the names it uses are parameters. */
final class SchedulerSnippets {

    private SchedulerSnippets() {
    }

    static RoomService operations(TaskScheduler tasks, SchedulerStore schedulers, MemberDriver driver, String yaml) {
        // snippet: docs/schedulers.md
        Fleet fleet = Fleet.builder().scheduler(tasks).schedulerStore(schedulers).memberDriver(driver).build().start();
        SchedulerOperations operations = fleet.operations();
        operations.create(yaml);
        RoomService rooms = fleet.rooms();                     // the room side, below
        // end snippet
        return rooms;
    }
}
