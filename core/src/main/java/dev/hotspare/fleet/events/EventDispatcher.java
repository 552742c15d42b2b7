package dev.hotspare.fleet.events;

import tools.jackson.databind.JsonNode;
import dev.hotspare.fleet.events.EventForwarderProvider.ForwarderContext;
import dev.hotspare.json.Documents;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.validation.Problems;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Hands {@link FleetEvent}s to every registered {@link EventForwarder} on its own executor.
 * {@link #publish} returns at once and never throws: a slow forwarder delays deliveries, never the publisher; a
 * failing one is logged and reported. When the executor's queue is full, deliveries are dropped and counted
 * ({@link #dropped()}) rather than blocking the publisher.
 *
 * <p><b>forwardResponse.</b> Maestro made a forwarder's failure fail the API call that produced the event
 * ({@code forwardResponse}, default true, deprecated there). ▲ Here it is opt-in per forwarder: a caller that
 * wants that behaviour waits for the returned {@link DeliveryReport} and checks
 * {@link DeliveryReport#failedResponses()}, which lists only forwarders registered with
 * {@code forwardResponse = true}. Everyone else ignores the future. The player-event route is such a caller.
 *
 * <p>Forwarders that travel the network ({@link EventForwarder#forwardAsync}, such as the {@code webhook} one) do
 * not hold the dispatcher's thread while they wait: their retries run on the dispatcher's {@link TaskScheduler}.
 */
public final class EventDispatcher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EventDispatcher.class);

    /** Queue size of the default executor. */
    public static final int DEFAULT_QUEUE_CAPACITY = 10_000;

    private final List<Registration> forwarders;
    private final java.util.concurrent.ConcurrentMap<String, List<Registration>> bySchedulerConfig =
            new java.util.concurrent.ConcurrentHashMap<>();
    private final ExecutorService executor;
    private final boolean ownsExecutor;
    private final AtomicLong dropped = new AtomicLong();
    private final TaskScheduler tasks;
    private final ScheduledExecutorService ownTimers;

    private EventDispatcher(Builder builder) {
        this.forwarders = List.copyOf(builder.forwarders);
        this.ownsExecutor = builder.executor == null;
        this.executor = ownsExecutor ? defaultExecutor() : builder.executor;
        if (builder.tasks != null) {
            this.tasks = builder.tasks;
            this.ownTimers = null;
        } else {
            // Without a task scheduler from the fleet, forwarders' retries get a private timer thread on the system clock.
            this.ownTimers = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "hotspare-event-retries");
                thread.setDaemon(true);
                return thread;
            });
            this.tasks = TaskScheduler.system(ownTimers, java.time.Clock.systemUTC());
        }
    }

    /**
     * A builder with no forwarders and a private single-thread executor with a bounded queue.
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * One delivery's outcome.
     *
     * @param forwarder       the forwarder's name
     * @param forwardResponse whether the caller asked to see its failure
     * @param error           why it failed, in words (never a class name), when it did
     */
    public record Delivery(String forwarder, boolean forwardResponse, Optional<String> error) {
        /**
         * Whether the forwarder accepted the event.
         *
         * @return true on success
         */
        public boolean succeeded() {
            return error.isEmpty();
        }
    }

    /**
     * Outcome of publishing one event to every forwarder.
     *
     * @param deliveries one per forwarder
     */
    public record DeliveryReport(FleetEvent event, List<Delivery> deliveries) {
        /**
         * Copies the deliveries.
         *
         * @param deliveries one per forwarder
         */
        public DeliveryReport {
            deliveries = List.copyOf(deliveries);
        }

        /**
         * Failed deliveries of forwarders whose failure the caller asked to see ({@code forwardResponse}).
         *
         * @return the failures
         */
        public List<Delivery> failedResponses() {
            return deliveries.stream().filter(d -> d.forwardResponse() && !d.succeeded()).toList();
        }
    }

    /**
     * Whether any forwarder that gets {@code scheduler}'s events wants its failures seen ({@code forwardResponse}):
     * only then is waiting for a {@link DeliveryReport} worth it.
     *
     * @return whether a caller should wait for the report
     */
    public boolean forwardsResponses(String scheduler) {
        return forwarders.stream().anyMatch(Registration::forwardResponse)
                || bySchedulerConfig.getOrDefault(scheduler, List.of()).stream().anyMatch(Registration::forwardResponse);
    }

    /**
     * The task scheduler forwarders retry on.
     */
    public TaskScheduler tasks() {
        return tasks;
    }

    /**
     * Publishes {@code event} to every forwarder; returns at once and never throws.
     */
    public CompletableFuture<DeliveryReport> publish(FleetEvent event) {
        Objects.requireNonNull(event, "event");
        List<Registration> targets = new ArrayList<>(forwarders);
        targets.addAll(bySchedulerConfig.getOrDefault(event.scheduler(), List.of()));
        List<CompletableFuture<Delivery>> deliveries = new ArrayList<>(targets.size());
        for (Registration registration : targets) {
            CompletableFuture<Delivery> delivery = new CompletableFuture<>();
            try {
                executor.execute(() -> deliver(registration, event).whenComplete((done, failure) -> delivery.complete(done)));
            } catch (RejectedExecutionException e) {
                dropped.incrementAndGet();
                delivery.complete(new Delivery(registration.forwarder().name(), registration.forwardResponse(),
                        Optional.of("dropped: forwarding queue full or dispatcher closed")));
            }
            deliveries.add(delivery);
        }
        return CompletableFuture.allOf(deliveries.toArray(CompletableFuture[]::new))
                .thenApply(ignored -> new DeliveryReport(event, deliveries.stream().map(CompletableFuture::join).toList()));
    }

    /**
     * Makes {@code scheduler}'s events also go to the forwarders its config's {@code forwarders} section names
     * (Maestro's per-scheduler forwarders), replacing those of its previous config. Providers are found as in
     * {@link Builder#addFromConfig}.
     *
     * @param forwardersSection its config's {@code forwarders} section
     * @param loader            where providers are looked up
     * @throws dev.hotspare.validation.ValidationException for unknown plugins or malformed entries; the
     *                                                     previous forwarders then stay
     */
    public void useSchedulerForwarders(String scheduler, JsonNode forwardersSection, ClassLoader loader) {
        Objects.requireNonNull(scheduler, "scheduler");
        List<Registration> created = forwardersSection == null || forwardersSection.isMissingNode() || forwardersSection.isNull()
                ? List.of() : fromConfig(forwardersSection, loader, new ForwarderContext(tasks));
        bySchedulerConfig.put(scheduler, created);
    }

    /**
     * Stops forwarding {@code scheduler}'s events to its config's forwarders (the scheduler is gone).
     */
    public void clearSchedulerForwarders(String scheduler) {
        bySchedulerConfig.remove(scheduler);
    }

    /**
     * Deliveries dropped: refused by the dispatcher's executor (its queue full), or by a forwarder that failed them
     * with a {@link RejectedExecutionException} (the webhook forwarder, beyond its pending events).
     *
     * @return deliveries dropped so far
     */
    public long dropped() {
        return dropped.get();
    }

    /**
     * Names of the registered forwarders, in registration order.
     */
    public List<String> forwarderNames() {
        return forwarders.stream().map(r -> r.forwarder().name()).toList();
    }

    /** Stops the private executor (a user-supplied one is left alone). */
    @Override
    public void close() {
        if (ownsExecutor) {
            executor.shutdown();
        }
        if (ownTimers != null) {
            ownTimers.shutdownNow();
        }
    }

    private CompletableFuture<Delivery> deliver(Registration registration, FleetEvent event) {
        String name = registration.forwarder().name();
        CompletableFuture<Void> sent;
        try {
            sent = registration.forwarder().forwardAsync(event);
        } catch (RuntimeException | LinkageError e) {
            sent = CompletableFuture.failedFuture(e);
        }
        return sent.handle((ok, failure) -> {
            if (failure == null) {
                return new Delivery(name, registration.forwardResponse(), Optional.empty());
            }
            Throwable cause = unwrap(failure);
            if (cause instanceof RejectedExecutionException) {
                // The forwarder's own queue was full (the webhook's at most 1,000 pending events): dropped.
                dropped.incrementAndGet();
            }
            LOG.warn("forwarder {} failed on {} of {}", name, event.type(), event.scheduler(), cause);
            return new Delivery(name, registration.forwardResponse(), Optional.of(describe(cause)));
        });
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** A failure in words for whoever asked to see it: its message, never a class name or stack. */
    private static String describe(Throwable failure) {
        String message = failure.getMessage();
        if (message != null) {
            // A wrapped exception's message starts with the cause's class name ("java.io.IOException: ..."): drop it.
            message = JAVA_CLASS_PREFIX.matcher(message).replaceFirst("");
        }
        return message == null || message.isBlank() ? "the forwarder failed without a message" : message;
    }

    private static final java.util.regex.Pattern JAVA_CLASS_PREFIX =
            java.util.regex.Pattern.compile("^(?:(?:[a-z_][\\w$]*\\.)+[A-Z][\\w$]*(?::\\s*|$))+");

    private static ExecutorService defaultExecutor() {
        ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(DEFAULT_QUEUE_CAPACITY), runnable -> {
                    Thread thread = new Thread(runnable, "hotspare-event-forwarding");
                    thread.setDaemon(true);
                    return thread;
                }, new ThreadPoolExecutor.AbortPolicy());
        return executor;
    }

    /**
     * The plugin names of the {@link EventForwarderProvider}s {@link ServiceLoader} finds on {@code loader}: what a
     * config's {@code forwarders} section may name.
     *
     * @param loader where plug-ins are looked up
     */
    public static java.util.Set<String> pluginNames(ClassLoader loader) {
        java.util.Set<String> names = new java.util.TreeSet<>();
        ServiceLoader.load(EventForwarderProvider.class, loader).iterator().forEachRemaining(p -> names.add(p.plugin()));
        return java.util.Collections.unmodifiableSet(names);
    }

    private static List<Registration> fromConfig(JsonNode forwardersSection, ClassLoader loader, ForwarderContext context) {
        Map<String, EventForwarderProvider> providers = new TreeMap<>();
        Iterator<EventForwarderProvider> found = ServiceLoader.load(EventForwarderProvider.class, loader).iterator();
        found.forEachRemaining(p -> providers.putIfAbsent(p.plugin(), p));
        Problems problems = new Problems();
        List<Registration> created = new ArrayList<>();
        forwardersSection.properties().forEach(plugin -> {
            String pluginPath = "forwarders." + plugin.getKey();
            EventForwarderProvider provider = providers.get(plugin.getKey());
            if (provider == null) {
                problems.add(pluginPath, plugin.getKey(), "unknown forwarder plugin; known: " + String.join(", ", providers.keySet()));
                return;
            }
            if (!plugin.getValue().isObject()) {
                problems.add(pluginPath, plugin.getValue(), "must map forwarder names to their settings");
                return;
            }
            plugin.getValue().properties().forEach(named -> {
                JsonNode settings = named.getValue();
                if (!settings.isObject()) {
                    problems.add(pluginPath + "." + named.getKey(), settings, "must be an object of settings");
                    return;
                }
                if (!settings.path("enabled").asBoolean(true)) {
                    return;
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> config = Documents.convert(settings, Map.class);
                created.add(new Registration(provider.create(named.getKey(), config, context),
                        settings.path("forwardResponse").asBoolean(false)));
            });
        });
        problems.throwIfAny();
        return created;
    }

    private record Registration(EventForwarder forwarder, boolean forwardResponse) {
    }

    /** Timers for forwarders registered from a config before the dispatcher (and its own timers) exist. */
    private static final class SharedTimers {
        private ScheduledExecutorService timers;

        synchronized ScheduledExecutorService get() {
            if (timers == null) {
                timers = Executors.newSingleThreadScheduledExecutor(runnable -> {
                    Thread thread = new Thread(runnable, "hotspare-event-retries-shared");
                    thread.setDaemon(true);
                    return thread;
                });
            }
            return timers;
        }
    }

    private static final SharedTimers SHARED_TIMERS = new SharedTimers();

    /** Builds an {@link EventDispatcher}. */
    public static final class Builder {
        private final List<Registration> forwarders = new ArrayList<>();
        private ExecutorService executor;
        private TaskScheduler tasks;

        private Builder() {
        }

        /**
         * Registers {@code forwarder}; its failures are never surfaced to publishers.
         *
         * @param forwarder the forwarder's name
         */
        public Builder add(EventForwarder forwarder) {
            return add(forwarder, false);
        }

        /**
         * Registers {@code forwarder}; with {@code forwardResponse} its failures appear in {@link DeliveryReport#failedResponses()}.
         *
         * @param forwarder the forwarder's name
         * @param forwardResponse whether the caller asked to see its failure
         * @return registers {@code forwarder}; with {@code forwardResponse} its failures appear in {@link
         *         DeliveryReport#failedResponses()}
         */
        public Builder add(EventForwarder forwarder, boolean forwardResponse) {
            forwarders.add(new Registration(Objects.requireNonNull(forwarder, "forwarder"), forwardResponse));
            return this;
        }

        /**
         * Schedules forwarders' retries on {@code tasks} (the fleet's; default: a private timer on the system clock).
         *
         * @param tasks the task scheduler
         * @return this builder
         */
        public Builder tasks(TaskScheduler tasks) {
            this.tasks = Objects.requireNonNull(tasks, "tasks");
            return this;
        }

        /**
         * Runs deliveries on {@code executor} (owned by the caller) instead of the private one.
         */
        public Builder executor(ExecutorService executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /**
         * Registers the forwarders a scheduler config's {@code forwarders} section names, creating each with the
         * {@link EventForwarderProvider} of its plugin found by {@link ServiceLoader} on {@code loader}.
         * Forwarders with {@code enabled: false} are skipped.
         *
         * @throws dev.hotspare.validation.ValidationException listing every unknown plugin (with the known
         *                                                     ones) and malformed entry
         * @param forwardersSection its config's {@code forwarders} section
         * @param loader where providers are looked up
         * @return registers the forwarders a scheduler config's {@code forwarders} section names, creating each with
         *         the {@link EventForwarderProvider} of its plugin found by {@link ServiceLoader} on {@code loader}
         */
        public Builder addFromConfig(JsonNode forwardersSection, ClassLoader loader) {
            forwarders.addAll(fromConfig(forwardersSection, loader, new ForwarderContext(tasks != null ? tasks
                    : TaskScheduler.system(SHARED_TIMERS.get(), java.time.Clock.systemUTC()))));
            return this;
        }

        public EventDispatcher build() {
            return new EventDispatcher(this);
        }
    }
}
