package dev.hotspare.fleet.runtime;

import dev.hotspare.fleet.runtime.internal.RollingReplace;
import dev.hotspare.fleet.runtime.internal.RoomActions;
import dev.hotspare.fleet.spi.Release.OperationStatus;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.testkit.property.Gen;
import dev.hotspare.testkit.property.Property;
import dev.hotspare.time.VirtualTimeScheduler;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static dev.hotspare.testkit.property.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

class RollingReplaceProperties {

    /**
     * For any fleet size, maxSurge and install time: the room count never changes, at most one chunk of rooms
     * is unavailable at any moment, every outdated room is replaced exactly once, and the replace ends DEPLOYED
     * with every room on the target version.
     */
    @Property(tries = 150)
    void replacesEveryOutdatedRoomOnceKeepingAllButOneChunkAvailable() {
        record Args(int rooms, int maxSurge, int installSeconds, int alreadyCurrent) {
        }
        forAll(s -> new Args(
                Gen.integers(1, 40).generate(s),
                Gen.integers(1, 100).generate(s),
                Gen.integers(1, 120).generate(s),
                Gen.integers(0, 5).generate(s))).check(args -> {
            int rooms = args.rooms();
            int maxSurge = args.maxSurge();
            int installSeconds = args.installSeconds();
            int alreadyCurrent = args.alreadyCurrent();
            VirtualTimeScheduler tasks = VirtualTimeScheduler.startingAt2026();
            InMemoryMemberDriver driver = InMemoryMemberDriver.builder(tasks)
                    .installTime(Duration.ofSeconds(installSeconds)).deleteTime(Duration.ofSeconds(3)).build();
            int current = Math.min(alreadyCurrent, rooms);
            for (int i = 0; i < rooms; i++) {
                driver.create("pong", i < current ? "v2.0" : "v1.0", DesiredPower.RUNNING);
            }
            tasks.advanceBy(Duration.ofSeconds(installSeconds));
            int chunk = Math.max(1, (int) Math.ceil(rooms * maxSurge / 100.0));

            CompletableFuture<OperationStatus> done = new RollingReplace("pong", new SchedulerVersion(2, 0), dev.hotspare.fleet.SchedulerConfig.MaxSurge.percent(maxSurge),
                    Duration.ofHours(10), Duration.ofSeconds(1), new RoomActions(driver, java.util.Optional.empty(),
                    dev.hotspare.fleet.events.EventDispatcher.builder().build(), FleetListener.NONE, tasks, Duration.ofSeconds(1)),
                    () -> false, () -> false).start();
            while (!done.isDone()) {
                List<Member> live = driver.list("pong").stream().filter(m -> m.phase() != MemberPhase.DELETING).toList();
                long available = live.stream().filter(m -> m.phase() == MemberPhase.READY && m.observedPower() == ObservedPower.RUNNING).count();
                assertThat(live).hasSize(rooms);
                assertThat(available).isGreaterThanOrEqualTo(rooms - chunk);
                tasks.advanceBy(Duration.ofSeconds(1));
            }

            assertThat(done.join()).isEqualTo(OperationStatus.DEPLOYED);
            tasks.advanceBy(Duration.ofSeconds(5));
            assertThat(driver.list("pong")).hasSize(rooms).allMatch(m -> m.templateVersion().equals("v2.0"));
            assertThat(driver.writeCount()).as("creates + deletes").isEqualTo(rooms + 2L * (rooms - current));
        });
    }
}
