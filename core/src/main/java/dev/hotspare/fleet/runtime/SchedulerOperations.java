package dev.hotspare.fleet.runtime;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.PolicyTypes;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfig.MaxSurge;
import dev.hotspare.fleet.SchedulerConfigs;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.events.EventDispatcher;
import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.fleet.plan.FleetPlanner;
import dev.hotspare.fleet.runtime.internal.FleetParts;
import dev.hotspare.fleet.runtime.internal.OperationContext;
import dev.hotspare.fleet.runtime.internal.RoomActions;
import dev.hotspare.fleet.runtime.internal.SchedulerQueries;
import dev.hotspare.fleet.runtime.internal.SchedulerScaling;
import dev.hotspare.fleet.runtime.internal.SchedulerUpdates;
import dev.hotspare.fleet.spi.Release;
import dev.hotspare.fleet.spi.Release.OperationStatus;
import dev.hotspare.fleet.spi.RoomStatusStore;
import dev.hotspare.fleet.spi.SchedulerRecord;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.fleet.versions.ConfigDiff;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.json.Documents;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.validation.Problem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * Maestro's scheduler management operations in one object: {@link #updates()} (create, update, image, min,
 * rollback, delete), {@link #scaling()} (scale up / down / to replicas) and {@link #queries()} (status, releases,
 * config, diff), each under exactly the locks the lock protocol names (docs/locks.md). Rooms are members of the
 * pool named after the scheduler in the {@link MemberDriver}; their template version is the scheduler version they
 * were created from ({@code v2.0}); a room is replaced only when its major differs from the scheduler's. The
 * methods here delegate to the three parts. Build one through {@link Fleet#builder} (with the worker that shares
 * its stores) and get it from {@link Fleet#operations()}; its own builder is package-private.
 */
public final class SchedulerOperations {

    static {
        // Hotspare's tests of the parts on their own build them through FleetParts, which can reach this package's
        // builder and RoomService's constructors only through what is granted here.
        FleetParts.grant(new FleetParts.Access() {
            @Override
            public SchedulerOperations operations(FleetParts.OperationsBuilder o) {
                Builder builder = builder(o.store(), o.locks(), o.driver(), o.tasks()).settings(o.settings());
                o.roomStatuses().ifPresent(builder::roomStatuses);
                return builder.build();
            }

            @Override
            public RoomService rooms(RoomStatusStore rooms, SchedulerStore schedulers, MemberDriver driver, LockManager locks,
                                     Autoscaler autoscaler, EventDispatcher events, TaskScheduler tasks,
                                     Function<ConfigDocument, SchedulerConfig> parser) {
                return new RoomService(rooms, schedulers, driver, locks, autoscaler, events, tasks, parser);
            }
        });
    }

    /** Default share of current rooms replaced at once. */
    public static final int DEFAULT_MAX_SURGE_PERCENT = 25;

    private final SchedulerUpdates updates;
    private final SchedulerScaling scaling;
    private final SchedulerQueries queries;

    private SchedulerOperations(Builder b) {
        FleetListener listener = FleetListener.guarded(b.kpis);
        FleetSettings s = b.settings;
        RoomActions actions = new RoomActions(b.driver, b.roomStatuses, b.events, listener, b.tasks, s.pollInterval(),
                s.limits().maxScaleStep());
        PolicyTypes types = b.autoscaler.policies().types();
        Function<ConfigDocument, List<Problem>> validator = b.validator != null ? b.validator
                : config -> SchedulerConfigs.check(config.submitted(), Documents.Format.YAML, types, s.limits()).problems();
        Function<ConfigDocument, SchedulerConfig> parser = b.parser != null ? b.parser
                : config -> SchedulerConfigs.parse(config.submitted(), Documents.Format.YAML, types);
        OperationContext context = new OperationContext(b.store, b.locks, actions, new FleetPlanner(b.autoscaler), b.tasks,
                b.events, validator, parser, s.replaceTimeout(), s.lockWait(), s.pollInterval(), s.limits(), b.wake);
        this.updates = new SchedulerUpdates(context);
        this.scaling = new SchedulerScaling(context);
        this.queries = new SchedulerQueries(context);
    }

    /**
     * A builder over the stores, locks, driver and scheduler every operation needs.
     */
    static Builder builder(SchedulerStore store, LockManager locks, MemberDriver driver, TaskScheduler tasks) {
        return new Builder(store, locks, driver, tasks);
    }

    /**
     * Create, update, image, min, rollback, delete.
     */
    public SchedulerUpdates updates() {
        return updates;
    }

    /**
     * Scale up, scale down, scale to a number of replicas.
     */
    public SchedulerScaling scaling() {
        return scaling;
    }

    /**
     * Status, releases, config, diff.
     */
    public SchedulerQueries queries() {
        return queries;
    }

    /**
     * {@link SchedulerUpdates#create}.
     *
     * @param submitted the new config
     */
    public SchedulerRecord create(String submitted) {
        return updates.create(submitted);
    }

    /**
     * {@link SchedulerUpdates#update(String, String, int)}.
     *
     * @param name the scheduler
     * @param submitted the new config
     */
    public UpdateHandle update(String name, String submitted, int maxSurgePercent) {
        return updates.update(name, submitted, maxSurgePercent);
    }

    /**
     * {@link SchedulerUpdates#update(String, String, MaxSurge)}.
     *
     * @param name      the scheduler
     * @param submitted the new config
     * @param maxSurge  rooms replaced at once
     * @return the saved version and its outcome to come
     */
    public UpdateHandle update(String name, String submitted, MaxSurge maxSurge) {
        return updates.update(name, submitted, maxSurge);
    }

    /**
     * {@link SchedulerUpdates#update(String, String)}.
     *
     * @param name the scheduler
     * @param submitted the new config
     */
    public UpdateHandle update(String name, String submitted) {
        return updates.update(name, submitted);
    }

    /**
     * {@link SchedulerUpdates#updateImage}.
     *
     * @param name the scheduler
     */
    public UpdateHandle updateImage(String name, Optional<String> image) {
        return updates.updateImage(name, image);
    }

    /**
     * {@link SchedulerUpdates#updateMin}.
     *
     * @param name the scheduler
     */
    public UpdateHandle updateMin(String name, Optional<Integer> min) {
        return updates.updateMin(name, min);
    }

    /**
     * {@link SchedulerUpdates#rollback}.
     *
     * @param name the scheduler
     */
    public UpdateHandle rollback(String name, SchedulerVersion version) {
        return updates.rollback(name, version);
    }

    /**
     * {@link SchedulerUpdates#delete}.
     *
     * @param name the scheduler
     */
    public CompletableFuture<Boolean> delete(String name) {
        return updates.delete(name);
    }

    /**
     * {@link SchedulerScaling#scaleUp}.
     *
     * @param name the scheduler
     * @param amount how many
     */
    public CompletableFuture<Integer> scaleUp(String name, int amount) {
        return scaling.scaleUp(name, amount);
    }

    /**
     * {@link SchedulerScaling#scaleDown}.
     *
     * @param name the scheduler
     * @param amount how many
     */
    public CompletableFuture<Integer> scaleDown(String name, int amount) {
        return scaling.scaleDown(name, amount);
    }

    /**
     * {@link SchedulerScaling#scaleTo}.
     *
     * @param name the scheduler
     */
    public CompletableFuture<Integer> scaleTo(String name, int replicas) {
        return scaling.scaleTo(name, replicas);
    }

    /**
     * {@link SchedulerQueries#releases}.
     *
     * @param name the scheduler
     */
    public List<Release> releases(String name) {
        return queries.releases(name);
    }

    /**
     * {@link SchedulerQueries#diff}.
     *
     * @param name the scheduler
     */
    public VersionDiff diff(String name, Optional<SchedulerVersion> v1, Optional<SchedulerVersion> v2) {
        return queries.diff(name, v1, v2);
    }

    /**
     * {@link SchedulerQueries#status}.
     *
     * @param name the scheduler
     */
    public SchedulerStatus status(String name) {
        return queries.status(name);
    }

    /**
     * {@link SchedulerQueries#config}.
     *
     * @param name the scheduler
     */
    public String config(String name, Optional<SchedulerVersion> version) {
        return queries.config(name, version);
    }

    /** Builds {@link SchedulerOperations} for {@link Fleet} and {@link FleetParts}. */
    static final class Builder {
        private final SchedulerStore store;
        private final LockManager locks;
        private final MemberDriver driver;
        private final TaskScheduler tasks;
        private EventDispatcher events = EventDispatcher.builder().build();
        private Function<ConfigDocument, List<Problem>> validator;
        private Function<ConfigDocument, SchedulerConfig> parser;
        private FleetSettings settings = FleetSettings.DEFAULTS;
        private Optional<dev.hotspare.fleet.spi.RoomStatusStore> roomStatuses = Optional.empty();
        private FleetListener kpis = FleetListener.NONE;
        private Autoscaler autoscaler = Autoscaler.standard();
        private java.util.function.Consumer<String> wake = name -> { };

        private Builder(SchedulerStore store, LockManager locks, MemberDriver driver, TaskScheduler tasks) {
            this.store = Objects.requireNonNull(store, "store");
            this.locks = Objects.requireNonNull(locks, "locks");
            this.driver = Objects.requireNonNull(driver, "driver");
            this.tasks = Objects.requireNonNull(tasks, "tasks");
        }

        /**
         * Where scheduler events go (default: none registered).
         *
         * @param events the event dispatcher
         */
        public Builder events(EventDispatcher events) {
            this.events = Objects.requireNonNull(events, "events");
            return this;
        }

        /**
         * Config validation; every problem it returns rejects the config with {@link ErrorCode#INVALID_CONFIG}.
         * Default: the full {@link dev.hotspare.fleet.SchedulerConfigs} rules with the autoscaler's policies (their
         * type names and parameters).
         *
         * @return config validation; every problem it returns rejects the config with {@link
         *         ErrorCode#INVALID_CONFIG}
         */
        public Builder validator(Function<ConfigDocument, List<Problem>> validator) {
            this.validator = Objects.requireNonNull(validator, "validator");
            return this;
        }

        /**
         * How a stored config becomes a {@link SchedulerConfig}, for the rules manual scaling shares with the
         * autoscaler (min, max). Default: {@link SchedulerConfigs#parse} with the autoscaler's policies.
         *
         * @return this builder
         */
        public Builder parser(Function<ConfigDocument, SchedulerConfig> parser) {
            this.parser = Objects.requireNonNull(parser, "parser");
            return this;
        }



        /**
         * The room status store: with it, status reports counts per room status, scale-ups register their
         * rooms as creating, scale-downs remove only READY rooms, and removed rooms and deleted schedulers
         * leave no statuses behind.
         *
         * @param value the limits
         * @return the room status store: with it, status reports counts per room status, scale-ups register their
         *         rooms as creating, scale-downs remove only READY rooms, and removed rooms and deleted schedulers
         *         leave no statuses behind
         */
        public Builder roomStatuses(dev.hotspare.fleet.spi.RoomStatusStore value) {
            this.roomStatuses = Optional.of(Objects.requireNonNull(value, "roomStatuses"));
            return this;
        }


        /**
         * The autoscaler whose removal ranking every manual scale-down follows (default: {@link Autoscaler#standard()});
         * pass the workers' autoscaler so that manual and automatic scale-downs remove rooms in the same order.
         *
         * @param value the limits
         * @return the autoscaler whose removal ranking every manual scale-down follows (default: {@link
         *         Autoscaler#standard()}); pass the workers' autoscaler so that manual and automatic scale-downs
         *         remove rooms in the same order
         */
        public Builder autoscaler(Autoscaler value) {
            this.autoscaler = Objects.requireNonNull(value, "autoscaler");
            return this;
        }

        /**
         * Receives the scale-up and scale-down operations' KPIs (default: none). A listener that throws is
         * logged and ignored. Lock KPIs come from the {@link LockManager}'s own {@code listener} option.
         */
        public Builder listener(FleetListener kpis) {
            this.kpis = Objects.requireNonNull(kpis, "listener");
            return this;
        }


        /**
         * The fleet's settings the operations read: replace timeout, lock wait, poll interval and limits (a scale-up
         * or scale-down above the scale step, or a result above the rooms per scheduler, is refused with
         * {@link ErrorCode#INVALID_CONFIG} naming the field, the value and the limit). Default
         * {@link FleetSettings#DEFAULTS}.
         *
         * @param value checked when it was built
         * @return this builder
         */
        public Builder settings(FleetSettings value) {
            this.settings = Objects.requireNonNull(value, "settings");
            return this;
        }

        /** Wakes a scheduler's watcher running in this process after a scale request is recorded (a fleet wires its worker). */
        Builder wake(java.util.function.Consumer<String> value) {
            this.wake = Objects.requireNonNull(value, "wake");
            return this;
        }

        public SchedulerOperations build() {
            return new SchedulerOperations(this);
        }
    }

    /**
     * A scheduler's status (Maestro's status route).
     *
     * @param name               scheduler name
     * @param game               the config's {@code game}, if set
     * @param version            current version
     * @param state              scheduler state
     * @param stateLastChangedAt when the state last changed
     * @param lastScaleAt        last successful scale
     * @param rooms              rooms per room status (Maestro's roomsAtCreating / Ready / Occupied / Terminating,
     *                           and allocated) with the running matches and allocated slots; zero when the operations
     *                           have no room status store
     * @param roomsByPhase       rooms per observed member phase (every phase present, zero when none)
     * @param rolledBackTo       when the current version was recorded by a rollback, the version it restored
     */
    public record SchedulerStatus(String name, Optional<String> game, SchedulerVersion version, String state,
                                  Instant stateLastChangedAt, Optional<Instant> lastScaleAt, RoomStatusCounts rooms,
                                  Map<MemberPhase, Integer> roomsByPhase, Optional<SchedulerVersion> rolledBackTo) {

        /**
         * Copies the phases.
         *
         * @param name scheduler name
         * @param game the config's {@code game}, if set
         * @param version current version
         * @param state scheduler state
         * @param stateLastChangedAt when the state last changed
         * @param lastScaleAt last successful scale
         * @param rooms rooms per room status (Maestro's roomsAtCreating / Ready / Occupied / Terminating, and allocated)
         *         with the running matches and allocated slots; zero when the operations have no room status store
         * @param roomsByPhase rooms per observed member phase (every phase present, zero when none)
         * @param rolledBackTo when the current version was recorded by a rollback, the version it restored
         */
        public SchedulerStatus {
            roomsByPhase = Map.copyOf(roomsByPhase);
            rolledBackTo = rolledBackTo == null ? Optional.empty() : rolledBackTo;
        }
    }

    /**
     * What an update returns as soon as the new version is saved — before a rolling replace finishes.
     *
     * @param version the version now current (unchanged when the diff is empty)
     * @param diff    what changed
     * @param outcome completes with the final status of {@code version}: DEPLOYED, or CANCELED / ERROR /
     *                TIMEDOUT after which the previous config was restored as a newer major version; it completes
     *                after the update released its locks, so an operation started on completion is not refused
     *                {@link ErrorCode#LOCKED} by this one
     * @param control cancels a running rolling replace (which then rolls back)
     */
    public record UpdateHandle(SchedulerVersion version, ConfigDiff diff, CompletableFuture<OperationStatus> outcome,
                               Runnable control) {

        /** Asks a running rolling replace to stop and roll back; no effect once it finished. */
        public void cancel() {
            control.run();
        }
    }

    /**
     * The diff route's answer.
     *
     * @param version1 the newer version compared
     * @param version2 the older version compared
     * @param diff     from {@code version2} to {@code version1}
     */
    public record VersionDiff(SchedulerVersion version1, SchedulerVersion version2, ConfigDiff diff) {
    }

    /** A scheduler operation was refused; {@link #code()} says why, {@link #problems()} lists every input problem. */
    public static final class SchedulerOperationException extends RuntimeException {

        private final ErrorCode code;
        private final List<Problem> problems;

        public SchedulerOperationException(ErrorCode code, List<Problem> problems) {
            super(code + ": " + String.join("; ", problems.stream().map(Problem::describe).toList()));
            this.code = Objects.requireNonNull(code, "code");
            if (problems.isEmpty()) {
                throw new IllegalArgumentException("problems: a SchedulerOperationException needs at least one problem");
            }
            this.problems = List.copyOf(problems);
        }

        public SchedulerOperationException(ErrorCode code, Problem problem) {
            this(code, List.of(problem));
        }

        /**
         * The error code.
         */
        public ErrorCode code() {
            return code;
        }

        /**
         * What was wrong, each naming a field and the bad value.
         */
        public List<Problem> problems() {
            return problems;
        }
    }

    /**
     * Error codes of scheduler operations, with the HTTP status Maestro's API answered for each, so a service
     * exposing the operations over HTTP can map them one to one.
     */
    public enum ErrorCode {
        /** No scheduler of that name (404). */
        SCHEDULER_NOT_FOUND(404),
        /** The scheduler has no release of the requested version, or it has no previous version to compare with (404). */
        VERSION_NOT_FOUND(404),
        /** The name in the path differs from the name in the config body (400). */
        NAME_MISMATCH(400),
        /** A required field was not sent, e.g. the image of an image update (422). */
        MISSING_FIELD(422),
        /** The config or a parameter is invalid; the exception lists every problem (422). */
        INVALID_CONFIG(422),
        /** A scheduler of that name already exists (409). */
        ALREADY_EXISTS(409),
        /** Another operation holds a lock this one needs and the wait policy gave up (409). */
        LOCKED(409),
        /** The store or driver could not answer; retry later (503). */
        UNAVAILABLE(503);

        private final int httpStatus;

        ErrorCode(int httpStatus) {
            this.httpStatus = httpStatus;
        }

        /**
         * The HTTP status Maestro answered with for this error.
         */
        public int httpStatus() {
            return httpStatus;
        }
    }
}
