package dev.hotspare.rollout.runtime;

import dev.hotspare.rollout.Inventory;
import dev.hotspare.rollout.RolloutMachine;
import dev.hotspare.rollout.RolloutMachine.Decision;
import dev.hotspare.rollout.RolloutMachine.Notice;
import dev.hotspare.rollout.RolloutMachine.RolloutCommand;
import dev.hotspare.rollout.RolloutMachine.RolloutEvent;
import dev.hotspare.rollout.RolloutPlanner;
import dev.hotspare.rollout.RolloutSpec;
import dev.hotspare.rollout.RolloutState;
import dev.hotspare.rollout.RolloutState.RolloutProgress;
import dev.hotspare.rollout.spi.LeaderElection;
import dev.hotspare.rollout.spi.RolloutAgentChannel;
import dev.hotspare.rollout.spi.RolloutAgentChannel.AgentOp;
import dev.hotspare.rollout.spi.RolloutStore;
import dev.hotspare.rollout.spi.RolloutStore.RolloutConflictException;
import dev.hotspare.rollout.spi.RolloutStore.StaleRolloutVersionException;
import dev.hotspare.rollout.spi.RolloutStore.VersionedRollout;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Runs one rollout: feeds events (agent reports, timers, leader changes, requests) to
 * {@link RolloutMachine#decide}, saves the new state, and only then executes the commands — publishing ops on
 * the {@link RolloutAgentChannel}, cancelling ops, arming timers on the injected {@link TaskScheduler}.
 *
 * <p>Because the state is saved before any command runs, a crash at any point loses at most commands whose
 * effect is recoverable: {@link #start()} reloads the state, re-publishes every in-flight op under its
 * unchanged op id (agents answer finished ones from their journal, see {@link RolloutAgent}) and re-arms the
 * next timer. Events are processed one at a time, in submission order, by whichever thread submitted first.
 * A save that loses an optimistic-concurrency race is re-decided on the reloaded state; any other failure
 * (a store that is down) loses that one event and is logged — the persisted state, its timers and the
 * re-issue on the next start make up for it.
 */
public final class RolloutController implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RolloutController.class);
    private static final int SAVE_ATTEMPTS = 3;

    private final String rollout;
    private final RolloutStore store;
    private final RolloutAgentChannel channel;
    private final Optional<LeaderElection> election;
    private final TaskScheduler scheduler;
    private final Consumer<Notice> notices;
    private final RolloutListener kpis;
    private RolloutProgress lastProgress;

    private final Deque<Runnable> queue = new ArrayDeque<>();
    private final Map<Instant, TaskScheduler.Cancellable> wakes = new HashMap<>();
    private final List<AutoCloseable> subscriptions = new ArrayList<>();
    private boolean draining;
    private volatile boolean closed;
    private volatile boolean started;
    private volatile VersionedRollout current;

    private RolloutController(Builder b) {
        this.rollout = b.rollout;
        this.store = b.store;
        this.channel = b.channel;
        this.election = Optional.ofNullable(b.election);
        this.scheduler = b.scheduler;
        this.notices = b.notices;
        this.kpis = RolloutListener.guarded(b.listener);
    }

    /**
     * A builder for the controller of rollout {@code rollout}.
     *
     * @param rollout the rollout's name
     */
    public static Builder builder(String rollout) {
        return new Builder(rollout);
    }

    /**
     * Stores the initial (not started) state of a rollout of {@code spec} over {@code inventory}, after checking
     * that it may be created: a rollout whose worst case is known not to fit its window is refused unless the
     * spec says {@code allowPartialWindow: true} ({@link RolloutPlanner#requireCreatable}).
     *
     * @param store     where rollouts live
     * @param spec      what to do
     * @param inventory over which targets
     * @return the stored state and its version
     * @throws ValidationException          naming {@code window} when the window is known to be too short
     * @throws StaleRolloutVersionException if a rollout with that name is already stored
     * @throws RolloutConflictException     if a rollout in progress already covers some of its targets (the
     *                                      exception names that rollout and the targets)
     */
    public static VersionedRollout create(RolloutStore store, RolloutSpec spec, Inventory inventory) {
        RolloutPlanner.requireCreatable(spec, inventory);
        RolloutState initial = RolloutMachine.initial(spec, inventory);
        long version = store.save(initial, 0);
        return new VersionedRollout(initial, version);
    }

    /**
     * Loads the state, re-publishes in-flight ops, re-arms the next timer and starts listening to agent
     * reports and (if configured) the leader election. Does not send {@link RolloutEvent.Start}.
     *
     * @throws IllegalStateException if the rollout is not in the store
     */
    public void start() {
        synchronized (this) {
            if (started || closed) {
                throw new IllegalStateException("rollout controller '" + rollout + "' already " + (closed ? "closed" : "started"));
            }
            started = true;
        }
        current = store.load(rollout).orElseThrow(() -> new IllegalStateException(
                "rollout '" + rollout + "' is not in the store; create it with RolloutController.create"));
        subscriptions.add(channel.onReport(rollout, report -> enqueue(() -> process(report.toEvent()))));
        enqueue(this::recover);
        election.ifPresent(e -> subscriptions.add(e.observe(this::leaderChanged)));
    }

    private void leaderChanged(Optional<String> leader) {
        // The leader's name becomes the services op's address, so it must be a valid target name; an
        // election backend with other identities must not wedge the rollout with an exception in its thread.
        Optional<String> usable = leader.filter(Names::isDns1123Label);
        if (usable.isEmpty() && leader.isPresent()) {
            LOG.error("rollout '{}': leader identity '{}' is not a DNS-1123 label; treating it as no leader", rollout, leader.get());
        }
        submit(new RolloutEvent.LeaderChanged(usable));
    }

    /**
     * Feeds {@code event} to the machine (after earlier ones). Thread-safe; ignored once closed.
     *
     * @param event what happened
     */
    public void submit(RolloutEvent event) {
        Objects.requireNonNull(event, "event");
        enqueue(() -> process(event));
    }

    /**
     * Changes the running rollout's spec: checks at once that only {@link RolloutSpec#SAFE_FIELDS} differ from
     * the spec this controller last saw, then submits {@link RolloutEvent.SpecChanged} ({@code suspend} acts
     * at once; maxParallel, window.end and maxFailures at the next batch boundary). The machine checks again
     * against the stored spec, so a change that raced with another one is still refused there.
     *
     * @param spec the new spec
     * @throws ValidationException naming every field that may not change, with the new and the current value
     * @throws IllegalStateException if the controller has not been started
     */
    public void changeSpec(RolloutSpec spec) {
        Objects.requireNonNull(spec, "spec");
        RolloutState state = state().orElseThrow(() -> new IllegalStateException(
                "rollout controller '" + rollout + "' is not started"));
        List<Problem> unsafe = RolloutSpec.unsafeChanges(state.spec(), spec);
        if (!unsafe.isEmpty()) {
            throw new ValidationException(unsafe);
        }
        submit(new RolloutEvent.SpecChanged(spec));
    }

    /**
     * The last state this controller loaded or saved.
     *
     * @return the state, empty before {@link #start()}
     */
    public Optional<RolloutState> state() {
        VersionedRollout v = current;
        return v == null ? Optional.empty() : Optional.of(v.state());
    }

    /** Stops listening and cancels timers; the stored state is untouched, so a new controller can take over. */
    @Override
    public void close() {
        List<AutoCloseable> toClose;
        List<TaskScheduler.Cancellable> timers;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            queue.clear();
            toClose = new ArrayList<>(subscriptions);
            timers = new ArrayList<>(wakes.values());
            wakes.clear();
        }
        for (AutoCloseable c : toClose) {
            try {
                c.close();
            } catch (Exception e) {
                LOG.warn("closing a subscription of rollout '{}' failed", rollout, e);
            }
        }
        timers.forEach(TaskScheduler.Cancellable::cancel);
    }

    private void enqueue(Runnable action) {
        synchronized (this) {
            if (closed) {
                return;
            }
            queue.add(action);
            if (draining) {
                // Whoever is draining runs it; this also turns re-entrant calls (an agent reporting from
                // inside publish) into queued work instead of nested decisions.
                return;
            }
            draining = true;
        }
        while (true) {
            Runnable next;
            synchronized (this) {
                next = closed ? null : queue.poll();
                if (next == null) {
                    draining = false;
                    return;
                }
            }
            try {
                next.run();
            } catch (RuntimeException e) {
                // The event is lost, the stored state is not: timers and re-issued ops recover the rest.
                LOG.error("rollout '{}': processing an event failed; continuing with the next", rollout, e);
            }
        }
    }

    private void recover() {
        RolloutState state = current.state();
        reportProgress(state);
        for (var op : state.inFlight()) {
            channel.publish(new AgentOp(rollout, op.address(), op.opId(), op.kind(), op.attempt(), state.spec().targetVersion()));
        }
        state.nextWake().ifPresent(this::arm);
    }

    private void process(RolloutEvent event) {
        Instant now = scheduler.clock().instant();
        for (int attempt = 1; attempt <= SAVE_ATTEMPTS; attempt++) {
            VersionedRollout before = current;
            Decision decision = RolloutMachine.decide(before.state(), event, now);
            try {
                if (!decision.state().equals(before.state())) {
                    long version = store.save(decision.state(), before.version());
                    current = new VersionedRollout(decision.state(), version);
                    reportProgress(decision.state());
                }
            } catch (StaleRolloutVersionException stale) {
                LOG.info("rollout '{}' changed in the store (attempt {}); reloading", rollout, attempt);
                current = store.load(rollout).orElseThrow(() -> stale);
                continue;
            } catch (RolloutConflictException conflict) {
                // Deciding again gives the same state: the event (typically an inventory change bringing in
                // targets another rollout holds) is refused as a whole, and said so.
                LOG.error("rollout '{}': {} refused: {}", rollout, event.getClass().getSimpleName(), conflict.getMessage());
                notify(new Notice(Notice.Kind.EVENT_REFUSED, Optional.empty(),
                        event.getClass().getSimpleName() + " refused, nothing changed: " + conflict.getMessage()));
                return;
            }
            execute(decision.commands());
            return;
        }
        LOG.warn("rollout '{}': gave up on {} after {} concurrent modifications", rollout, event, SAVE_ATTEMPTS);
    }

    /** Runs inside the event queue (one event at a time), so lastProgress needs no lock. */
    private void reportProgress(RolloutState state) {
        if (kpis == RolloutListener.NONE) {
            return;
        }
        RolloutProgress progress = RolloutProgress.of(state);
        if (!progress.equals(lastProgress)) {
            lastProgress = progress;
            kpis.rolloutProgress(rollout, progress);
        }
    }

    private void execute(List<RolloutCommand> commands) {
        for (RolloutCommand command : commands) {
            if (closed) {
                return;
            }
            if (command instanceof RolloutCommand.IssueOp issue) {
                channel.publish(new AgentOp(rollout, issue.target(), issue.opId(), issue.kind(), issue.attempt(), issue.version()));
            } else if (command instanceof RolloutCommand.CancelOp cancel) {
                channel.cancel(rollout, cancel.target(), cancel.opId());
            } else if (command instanceof RolloutCommand.ScheduleWake wake) {
                arm(wake.at());
            } else if (command instanceof RolloutCommand.Emit emit) {
                notify(emit.notice());
            }
        }
    }

    private void notify(Notice notice) {
        try {
            notices.accept(notice);
        } catch (RuntimeException e) {
            LOG.warn("rollout '{}': notice listener failed", rollout, e);
        }
    }

    private void arm(Instant at) {
        synchronized (this) {
            if (closed || wakes.containsKey(at)) {
                return;
            }
            Duration delay = Duration.between(scheduler.clock().instant(), at);
            wakes.put(at, scheduler.schedule(delay.isNegative() ? Duration.ZERO : delay, () -> {
                synchronized (this) {
                    wakes.remove(at);
                }
                submit(new RolloutEvent.Tick(at));
            }));
        }
    }

    /**
     * The settings this controller was built with.
     */
    public Settings settings() {
        return new Settings(rollout, election.isPresent());
    }

    /**
     * A rollout controller's settings, read back (its ports are not settings).
     *
     * @param rollout        the rollout it drives
     * @param leaderElection whether it follows a {@link LeaderElection} (else leaders are fed as events)
     */
    public record Settings(String rollout, boolean leaderElection) {
    }

    /** Builder for {@link RolloutController}. */
    public static final class Builder {
        private final String rollout;
        private RolloutStore store;
        private RolloutAgentChannel channel;
        private LeaderElection election;
        private TaskScheduler scheduler;
        private Consumer<Notice> notices = notice -> LOG.info("{}", notice.message());
        private RolloutListener listener = RolloutListener.NONE;

        private Builder(String rollout) {
            this.rollout = Objects.requireNonNull(rollout, "rollout");
        }

        /**
         * Where the rollout's state lives (required).
         *
         * @param value the store
         * @return this builder
         */
        public Builder store(RolloutStore value) {
            this.store = value;
            return this;
        }

        /**
         * How ops reach agents and reports come back (required).
         *
         * @param value the channel
         * @return this builder
         */
        public Builder channel(RolloutAgentChannel value) {
            this.channel = value;
            return this;
        }

        /**
         * Where the services op's leader comes from; without it, feed {@link RolloutEvent.LeaderChanged} yourself.
         *
         * @param value the election
         * @return this builder
         */
        public Builder leaderElection(LeaderElection value) {
            this.election = value;
            return this;
        }

        /**
         * The clock and timers (required): {@code TaskScheduler.system(...)} or a virtual one in tests.
         *
         * @param value the scheduler
         * @return this builder
         */
        public Builder scheduler(TaskScheduler value) {
            this.scheduler = value;
            return this;
        }

        /**
         * Receives every {@link Notice}; default: logged at INFO. Must not block.
         *
         * @param value the listener
         * @return this builder
         */
        public Builder notices(Consumer<Notice> value) {
            this.notices = value;
            return this;
        }

        /**
         * Receives the rollout's progress (default: none): phase and targets done / total, once at start and on
         * every change. A listener that throws is logged and ignored.
         *
         * @param value the listener
         * @return this builder
         */
        public Builder listener(RolloutListener value) {
            this.listener = value;
            return this;
        }

        /**
         * The controller; call {@link RolloutController#start()} next.
         *
         * @throws dev.hotspare.validation.ValidationException naming every missing setting
         */
        public RolloutController build() {
            List<dev.hotspare.validation.Problem> problems = new ArrayList<>();
            // No in-memory default for the store or the channel: the rollout must already be in the store
            // (RolloutController.create) and its agents on the channel, so a fresh empty one would be a mistake.
            missing("store", store, "is required (the store the rollout was created in)", problems);
            missing("channel", channel, "is required (where the rollout's agents pull ops)", problems);
            missing("scheduler", scheduler, "is required (TaskScheduler.system(..) or virtual time)", problems);
            missing("notices", notices, "must not be null", problems);
            missing("listener", listener, "must not be null", problems);
            if (!problems.isEmpty()) {
                throw new dev.hotspare.validation.ValidationException(problems);
            }
            return new RolloutController(this);
        }

        private static void missing(String field, Object value, String why, List<dev.hotspare.validation.Problem> problems) {
            if (value == null) {
                problems.add(dev.hotspare.validation.Problem.of(field, dev.hotspare.validation.Problem.MISSING, why));
            }
        }
    }
}
