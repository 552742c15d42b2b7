package dev.hotspare.fleet.runtime.manualscaling;

import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.plan.FleetPlanner;
import dev.hotspare.fleet.plan.ScaleInputs;
import dev.hotspare.fleet.runtime.Fleet;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.memory.InMemoryLockStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.memory.InMemoryRoomStatusStore;
import dev.hotspare.memory.InMemorySchedulerStore;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.time.VirtualTimeScheduler;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One scheduler's stores on virtual time, shared by the fleets (workers) a test starts and "crashes" on them: a
 * crashing fleet sees the same stores through wrappers that fail at a chosen point, as a process dying there would
 * leave them (everything before the point done, nothing after it).
 */
final class ScaleWorld {

    /** Where a crashing worker dies while it applies a manual request. */
    enum CrashPoint {
        /** Right after saving the request as being applied, before any room changes. */
        AFTER_DECISION_SAVED,
        /** After {@code n} room creations or deletions of the decision. */
        MID_APPLY,
        /** After applying the decision, before its outcome is saved. */
        BEFORE_OUTCOME_SAVED
    }

    final VirtualTimeScheduler time = TaskScheduler.virtual(Instant.parse("2026-01-01T00:00:00Z"));
    final InMemorySchedulerStore schedulers = new InMemorySchedulerStore();
    final InMemoryRoomStatusStore statuses = new InMemoryRoomStatusStore();
    final InMemoryLockStore locks = new InMemoryLockStore(time.clock());
    final InMemoryMemberDriver driver = InMemoryMemberDriver.builder(time).installTime(Duration.ofSeconds(5))
            .deleteTime(Duration.ofSeconds(5)).build();

    /** A scheduler {@code pong} in sync with {@code rooms} READY rooms on v1.0, bounded by min and max (0: unbounded). */
    ScaleWorld(int min, int max, int rooms) {
        schedulers.create("pong", ConfigDocument.of("name: pong\ngame: pong\nimage: i\nautoscaling: {min: " + min
                + ", max: " + max + "}\n"), "in-sync", time.now());
        for (int i = 0; i < rooms; i++) {
            String room = driver.create("pong", "v1.0", DesiredPower.RUNNING).id();
            statuses.update("pong", room, RoomStatus.READY, time.now());
        }
    }

    /** A fleet on these stores; rooms never ping again here, so the ping timeout is long. */
    Fleet fleet(SchedulerStore store, MemberDriver rooms) {
        return Fleet.builder().scheduler(time).schedulerStore(store).roomStatusStore(statuses).lockStore(locks)
                .memberDriver(rooms).pingTimeout(Duration.ofHours(1)).build().start();
    }

    /** A fleet on these stores that works until nothing fails. */
    Fleet fleet() {
        return fleet(schedulers, driver);
    }

    /** A fleet on these stores that dies at {@code point} ({@code n}: room changes done first, for MID_APPLY). */
    Fleet crashingFleet(CrashPoint point, int n) {
        AtomicInteger changes = new AtomicInteger();
        SchedulerStore store = proxy(SchedulerStore.class, schedulers, (name, args, result) -> {
            if (name.equals("saveScaleInputs") && Boolean.TRUE.equals(result)) {
                ScaleInputs saved = (ScaleInputs) args[1];
                if (point == CrashPoint.AFTER_DECISION_SAVED && saved.applying().isPresent()) {
                    throw new IllegalStateException("crash after the decision was saved");
                }
            }
        }, (name, args) -> {
            if (name.equals("saveScaleInputs") && point == CrashPoint.BEFORE_OUTCOME_SAVED
                    && ((ScaleInputs) args[1]).applying().isEmpty() && !((ScaleInputs) args[1]).outcomes().isEmpty()) {
                throw new IllegalStateException("crash before the outcome was saved");
            }
        });
        MemberDriver rooms = proxy(MemberDriver.class, driver, (name, args, result) -> { }, (name, args) -> {
            if (point == CrashPoint.MID_APPLY && (name.equals("create") || name.equals("delete"))
                    && changes.getAndIncrement() >= n) {
                throw new IllegalStateException("crash after " + n + " room changes");
            }
        });
        return fleet(store, rooms);
    }

    /** The live rooms. */
    List<String> rooms() {
        return FleetPlanner.liveRooms(driver.list("pong")).stream().map(Member::id).toList();
    }

    interface After {
        void call(String method, Object[] args, Object result);
    }

    interface Before {
        void call(String method, Object[] args);
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Class<T> type, T target, After after, Before before) {
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[]{type}, (p, method, args) -> {
            before.call(method.getName(), args);
            Object result;
            try {
                result = method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            after.call(method.getName(), args, result);
            return result;
        });
    }
}
