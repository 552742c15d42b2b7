package dev.hotspare.fleet.runtime.internal;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.events.EventDispatcher;
import dev.hotspare.fleet.lock.LockId.LockKind;
import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.fleet.plan.FleetPlanner;
import dev.hotspare.fleet.runtime.SchedulerOperations.ErrorCode;
import dev.hotspare.fleet.runtime.SchedulerOperations.SchedulerOperationException;
import dev.hotspare.fleet.spi.SchedulerRecord;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.json.Documents;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.spi.StoreUnavailableException;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
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
 * What the scheduler operations share: the stores, locks and room actions they act through, their settings, and
 * the helpers that parse and validate configs and turn every failure into a {@link SchedulerOperationException}.
 */
public final class OperationContext {

    final SchedulerStore store;
    final LockManager locks;
    final RoomActions actions;
    final FleetPlanner planner;
    final TaskScheduler tasks;
    final EventDispatcher events;
    final Function<ConfigDocument, List<Problem>> validator;
    final Function<ConfigDocument, dev.hotspare.fleet.SchedulerConfig> parser;
    final Duration replaceTimeout;
    final Duration lockWait;
    final Duration pollInterval;
    final dev.hotspare.fleet.SchedulerConfig.FleetLimits limits;
    /** Wakes the scheduler's watcher when it runs in this process, so a recorded scale request is applied at once. */
    final java.util.function.Consumer<String> wake;
    /** Cancel flags of the rolling updates running now (a shutdown cancels them). */
    final java.util.Set<AtomicBoolean> runningUpdates = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Set once the owner stops for good: running releases are handed over (they stop and stay saved for the next owner). */
    final AtomicBoolean stopping = new AtomicBoolean();
    /**
     * Releases started through the API that have not yet released their locks: each completes once its scope is
     * closed, so a shutdown can wait for the leases of what it handed over to be gone before the process exits.
     */
    final java.util.Set<java.util.concurrent.CompletableFuture<?>> unreleasedUpdates = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public OperationContext(SchedulerStore store, LockManager locks, RoomActions actions, FleetPlanner planner, TaskScheduler tasks,
                     EventDispatcher events, Function<ConfigDocument, List<Problem>> validator,
                     Function<ConfigDocument, dev.hotspare.fleet.SchedulerConfig> parser, Duration replaceTimeout,
                     Duration lockWait, Duration pollInterval, dev.hotspare.fleet.SchedulerConfig.FleetLimits limits,
                     java.util.function.Consumer<String> wake) {
        this.limits = limits;
        this.wake = wake;
        this.store = store;
        this.locks = locks;
        this.actions = actions;
        this.planner = planner;
        this.tasks = tasks;
        this.events = events;
        this.validator = validator;
        this.parser = parser;
        this.replaceTimeout = replaceTimeout;
        this.lockWait = lockWait;
        this.pollInterval = pollInterval;
    }

    public MemberDriver driver() {
        return actions.driver();
    }

    public SchedulerRecord existing(String name) {
        return store.get(name).orElseThrow(() -> notFound(name));
    }

    public ConfigDocument parse(String submitted) {
        if (submitted == null || submitted.isBlank()) {
            throw new SchedulerOperationException(ErrorCode.MISSING_FIELD, Problem.of("", Problem.MISSING, "a config is required"));
        }
        ConfigDocument config;
        try {
            config = ConfigDocument.of(submitted);
        } catch (ValidationException e) {
            throw new SchedulerOperationException(ErrorCode.INVALID_CONFIG, e.problems());
        }
        validate(config);
        return config;
    }

    public void validate(ConfigDocument config) {
        List<Problem> problems = new ArrayList<>(validator.apply(config));
        JsonNode name = config.tree().path("name");
        if (name.isMissingNode() || name.isNull()) {
            throw new SchedulerOperationException(ErrorCode.MISSING_FIELD, Problem.of("name", Problem.MISSING, "required"));
        }
        Names.dns1123LabelProblem(name.asString("")).ifPresent(why -> problems.add(0, Problem.of("name", name.asString(""), why)));
        if (!problems.isEmpty()) {
            throw new SchedulerOperationException(ErrorCode.INVALID_CONFIG, problems);
        }
    }

    public static String nameOf(ConfigDocument config) {
        return config.tree().path("name").asString("");
    }

    public static ConfigDocument withField(ConfigDocument current, String field, JsonNode value) {
        ObjectNode tree = (ObjectNode) current.tree();
        tree.set(field, value);
        return render(tree);
    }

    public static ConfigDocument render(JsonNode tree) {
        try {
            return ConfigDocument.of(Documents.yamlWriter().writeValueAsString(tree));
        } catch (JacksonException e) {
            throw new IllegalStateException("cannot render config", e);
        }
    }

    public static SchedulerOperationException notFound(String name) {
        return new SchedulerOperationException(ErrorCode.SCHEDULER_NOT_FOUND, Problem.of("scheduler", name, "no scheduler of this name exists"));
    }

    public static SchedulerOperationException notFound(String name, SchedulerVersion version) {
        return new SchedulerOperationException(ErrorCode.VERSION_NOT_FOUND,
                Problem.of("version", version, "scheduler '" + name + "' has no such release"));
    }

    public static SchedulerOperationException locked(String name, LockKind kind) {
        return new SchedulerOperationException(ErrorCode.LOCKED,
                Problem.of("scheduler", name, "its " + kind + " lock is held by another operation; try again later"));
    }

    public static RuntimeException translate(Throwable e) {
        if (e instanceof java.util.concurrent.CompletionException && e.getCause() != null) {
            e = e.getCause();
        }
        if (e instanceof SchedulerOperationException op) {
            return op;
        }
        if (e instanceof dev.hotspare.fleet.spi.SchedulerStore.SchedulerNotFoundException nf) {
            return notFound(nf.scheduler());
        }
        if (e instanceof StoreUnavailableException unavailable) {
            return new SchedulerOperationException(ErrorCode.UNAVAILABLE, Problem.of("", unavailable.store(), unavailable.getMessage()));
        }
        if (e instanceof ValidationException invalid) {
            return new SchedulerOperationException(ErrorCode.INVALID_CONFIG, invalid.problems());
        }
        return e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
    }

}
