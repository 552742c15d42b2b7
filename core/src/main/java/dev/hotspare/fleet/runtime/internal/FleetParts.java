package dev.hotspare.fleet.runtime.internal;

import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.events.EventDispatcher;
import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.fleet.runtime.FleetSettings;
import dev.hotspare.fleet.runtime.RoomService;
import dev.hotspare.fleet.runtime.SchedulerOperations;
import dev.hotspare.fleet.spi.RoomStatusStore;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.TaskScheduler;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The fleet's parts one at a time — a {@link SchedulerOperations} or a {@link RoomService} on their own, without the
 * worker and ownership a {@code Fleet} adds — for hotspare's own tests of those parts. Users build a fleet through
 * {@code Fleet.builder()} and get the parts from it ({@code fleet.operations()}, {@code fleet.rooms()}); the parts'
 * own builder and constructors are package-private in {@code dev.hotspare.fleet.runtime}, and this class reaches
 * them through the {@link Access} that package grants it when {@link SchedulerOperations} is loaded.
 */
public final class FleetParts {

    private static volatile Access access;

    private FleetParts() {
    }

    /**
     * The package-private ways of {@code dev.hotspare.fleet.runtime} to build its parts. Only that package
     * implements it; it is public because Java has no narrower way to hand it across packages.
     */
    public interface Access {

        /** {@code SchedulerOperations.builder(..)} with the options an {@link OperationsBuilder} recorded. */
        SchedulerOperations operations(OperationsBuilder options);

        /** The room service a {@code RoomService} constructor builds, reporting no KPIs and waking no watcher. */
        RoomService rooms(RoomStatusStore rooms, SchedulerStore schedulers, MemberDriver driver, LockManager locks,
                          Autoscaler autoscaler, EventDispatcher events, TaskScheduler tasks,
                          Function<ConfigDocument, SchedulerConfig> parser);
    }

    /**
     * Called once, by {@code dev.hotspare.fleet.runtime} when it loads; a second call is refused so that nothing
     * replaces the runtime's way of building its parts.
     */
    public static synchronized void grant(Access value) {
        if (access != null) {
            throw new IllegalStateException("access: already granted");
        }
        access = Objects.requireNonNull(value, "access");
    }

    private static Access access() {
        if (access == null) {
            try {
                // Loading SchedulerOperations runs its static initialiser, which grants the access.
                Class.forName(SchedulerOperations.class.getName(), true, SchedulerOperations.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("SchedulerOperations not loadable", e);
            }
        }
        return Objects.requireNonNull(access, "access: not granted by dev.hotspare.fleet.runtime");
    }

    /**
     * Scheduler operations on their own, over the stores, locks, driver and scheduler every operation needs; with
     * no worker they only record manual scaling requests.
     */
    public static OperationsBuilder operations(SchedulerStore store, LockManager locks, MemberDriver driver, TaskScheduler tasks) {
        return new OperationsBuilder(store, locks, driver, tasks);
    }

    /**
     * A room service on its own. It records panic inputs only: it wakes no watcher, so a panic scale-up waits for
     * the owning worker's next tick.
     */
    public static RoomService rooms(RoomStatusStore rooms, SchedulerStore schedulers, MemberDriver driver, LockManager locks,
                                    Autoscaler autoscaler, EventDispatcher events, TaskScheduler tasks,
                                    Function<ConfigDocument, SchedulerConfig> parser) {
        return access().rooms(rooms, schedulers, driver, locks, autoscaler, events, tasks, parser);
    }

    /**
     * The options of {@code SchedulerOperations}' package-private builder that its tests set; the others keep
     * their defaults (no events, the standard autoscaler and its validation, no listener).
     */
    public static final class OperationsBuilder {
        private final SchedulerStore store;
        private final LockManager locks;
        private final MemberDriver driver;
        private final TaskScheduler tasks;
        private Optional<RoomStatusStore> roomStatuses = Optional.empty();
        private FleetSettings settings = FleetSettings.DEFAULTS;

        private OperationsBuilder(SchedulerStore store, LockManager locks, MemberDriver driver, TaskScheduler tasks) {
            this.store = Objects.requireNonNull(store, "store");
            this.locks = Objects.requireNonNull(locks, "locks");
            this.driver = Objects.requireNonNull(driver, "driver");
            this.tasks = Objects.requireNonNull(tasks, "tasks");
        }

        /**
         * With it, status reports count rooms per room status, scale-ups register their rooms as creating,
         * scale-downs remove only READY rooms, and removed rooms and deleted schedulers leave no statuses behind.
         */
        public OperationsBuilder roomStatuses(RoomStatusStore value) {
            this.roomStatuses = Optional.of(Objects.requireNonNull(value, "roomStatuses"));
            return this;
        }

        /** Replace timeout, lock wait, poll interval and limits (default {@link FleetSettings#DEFAULTS}). */
        public OperationsBuilder settings(FleetSettings value) {
            this.settings = Objects.requireNonNull(value, "settings");
            return this;
        }

        public SchedulerStore store() {
            return store;
        }

        public LockManager locks() {
            return locks;
        }

        public MemberDriver driver() {
            return driver;
        }

        public TaskScheduler tasks() {
            return tasks;
        }

        public Optional<RoomStatusStore> roomStatuses() {
            return roomStatuses;
        }

        public FleetSettings settings() {
            return settings;
        }

        public SchedulerOperations build() {
            return access().operations(this);
        }
    }
}
