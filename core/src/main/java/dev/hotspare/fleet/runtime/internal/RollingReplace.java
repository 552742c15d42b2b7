package dev.hotspare.fleet.runtime.internal;

import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.SchedulerConfig.MaxSurge;
import dev.hotspare.fleet.events.EventDispatcher;
import dev.hotspare.fleet.events.FleetEvent;
import dev.hotspare.fleet.lock.Fence.StaleFenceException;
import dev.hotspare.fleet.lock.LockManager.HeldLock;
import dev.hotspare.fleet.lock.LockManager.LeaseLostException;
import dev.hotspare.fleet.plan.ReleaseMachine;
import dev.hotspare.fleet.plan.ReleaseMachine.ReleaseCommand;
import dev.hotspare.fleet.plan.ReleaseMachine.ReleaseDecision;
import dev.hotspare.fleet.plan.ReleaseMachine.ReleaseEvent;
import dev.hotspare.fleet.plan.ReleaseState;
import dev.hotspare.fleet.plan.ReleaseState.ReleasePhase;
import dev.hotspare.fleet.spi.Release.OperationStatus;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.fleet.spi.SchedulerStore.SchedulerNotFoundException;
import dev.hotspare.fleet.spi.SchedulerStore.StaleReleaseException;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.TaskScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

/**
 * Runs one release: every poll it observes the rooms, asks the pure {@link ReleaseMachine} what to do, saves the
 * new state (for a persisted release, with the expected version, fenced by CONFIG) and then runs the commands
 * through {@link RoomActions} and the store. It holds no decision of its own: what a chunk is, when it is ready,
 * when to roll back and how a release ends are the machine's. Runs on the {@link TaskScheduler}, polling; never
 * blocks a thread.
 *
 * <p>It stops when the release reaches a terminal phase, or — leaving the persisted state for the next owner —
 * when it is handed over (the owner stops), its lease is lost, or another owner saved the release meanwhile.
 * Stopping happens between two decisions, never inside one: since each decision is saved before its commands
 * run, the next owner's {@link ReleaseEvent.Resume} completes whatever the last one started.
 */
public final class RollingReplace {

    private static final Logger LOG = LoggerFactory.getLogger(RollingReplace.class);

    /** Where a persisted release goes: its state, its statuses and its rollback's version, under CONFIG's fence. */
    public static final class Ledger {
        private final SchedulerStore store;
        private final String scheduler;
        private final HeldLock config;
        private final EventDispatcher events;
        private long version;

        public Ledger(SchedulerStore store, String scheduler, HeldLock config, EventDispatcher events, long version) {
            this.store = store;
            this.scheduler = scheduler;
            this.config = config;
            this.events = events;
            this.version = version;
        }

        public void save(ReleaseState state) {
            config.ensureHeld();
            version = store.saveRelease(scheduler, state, version, config.fence());
        }

        public void setStatus(SchedulerVersion release, ReleasePhase outcome) {
            config.ensureHeld();
            store.setStatus(scheduler, release, status(outcome), config.fence());
        }

        public SchedulerVersion current() {
            return store.get(scheduler).orElseThrow(() -> new SchedulerNotFoundException(scheduler)).version();
        }

        /** Saves the config of {@code rolledBackTo} again as {@code restored}, unless a resumed decision did already. */
        public void saveRollback(SchedulerVersion restored, SchedulerVersion rolledBackTo, java.time.Instant now) {
            config.ensureHeld();
            if (current().compareTo(restored) >= 0) {
                return;
            }
            ConfigDocument previous = store.release(scheduler, rolledBackTo).orElseThrow(() ->
                    new IllegalStateException("release " + rolledBackTo + " of " + scheduler + " is gone")).config();
            store.saveRollback(scheduler, restored, rolledBackTo, previous, now, config.fence());
            events.publish(FleetEvent.scheduler(FleetEvent.Type.SCHEDULER_UPDATED, scheduler, now,
                    Map.of("version", restored.toString(), "change", "ROLLBACK", "rolledBackTo", rolledBackTo.toString())));
        }
    }

    private final String scheduler;
    private final Optional<Ledger> ledger;
    private final Duration pollInterval;
    private final RoomActions actions;
    private final MemberDriver driver;
    private final TaskScheduler tasks;
    private final BooleanSupplier cancelled;
    private final BooleanSupplier leaseLost;
    private final BooleanSupplier handOver;
    private final CompletableFuture<OperationStatus> result = new CompletableFuture<>();

    private ReleaseState state;
    private boolean resume;
    private boolean cancelSent;

    /**
     * A repair that is not persisted and has nothing to roll back to: the rooms on an older major than {@code target}
     * are replaced; cancelled means stopped (CANCELED).
     */
    public RollingReplace(String scheduler, SchedulerVersion target, MaxSurge maxSurge, Duration timeout, Duration pollInterval,
                   RoomActions actions, BooleanSupplier cancelled, BooleanSupplier leaseLost) {
        this(scheduler, ReleaseState.start(target, Optional.empty(), maxSurge, timeout, actions.tasks().clock().instant()),
                false, Optional.empty(), pollInterval, actions, cancelled, leaseLost, () -> false);
    }

    /**
     * A release from {@code state}; {@code resume} when it was taken over from a persisted state (its first decision
     * is then a {@link ReleaseEvent.Resume}).
     */
    public RollingReplace(String scheduler, ReleaseState state, boolean resume, Optional<Ledger> ledger, Duration pollInterval,
                   RoomActions actions, BooleanSupplier cancelled, BooleanSupplier leaseLost, BooleanSupplier handOver) {
        this.scheduler = scheduler;
        this.state = state;
        this.resume = resume;
        this.ledger = ledger;
        this.pollInterval = pollInterval;
        this.actions = actions;
        this.driver = actions.driver();
        this.tasks = actions.tasks();
        this.cancelled = cancelled;
        this.leaseLost = leaseLost;
        this.handOver = handOver;
    }

    /** The outcome of a machine phase, as a release status. */
    public static OperationStatus status(ReleasePhase phase) {
        return switch (phase) {
            case DEPLOYED -> OperationStatus.DEPLOYED;
            case ERROR -> OperationStatus.ERROR;
            case CANCELED -> OperationStatus.CANCELED;
            case TIMED_OUT -> OperationStatus.TIMEDOUT;
            case REPLACING, ROLLING_BACK -> OperationStatus.IN_PROGRESS;
        };
    }

    /**
     * Starts polling (the first decision runs now). The future completes with the release's outcome when it ends;
     * when it is handed over first, with the failure it rolls back from, or {@link OperationStatus#INTERRUPTED}.
     */
    public CompletableFuture<OperationStatus> start() {
        step();
        return result;
    }

    /** Saves {@code state} as the release's first state (expected version as the ledger read it). */
    public void saveInitial() {
        ledger.ifPresent(l -> l.save(state));
    }

    /** The state the runner holds now. */
    public ReleaseState state() {
        return state;
    }

    private void step() {
        if (result.isDone()) {
            return;
        }
        try {
            if (!cancelSent && cancelled.getAsBoolean()) {
                cancelSent = true;
                decide(new ReleaseEvent.Cancel());
            }
            if (!result.isDone() && leaseLost.getAsBoolean()) {
                // Without its lease this owner must not act on: record the failure if the fence still allows it,
                // then stop; the next holder of the scheduler's locks resumes from what is saved.
                decide(new ReleaseEvent.LeaseLost());
                handOver("its lease was lost");
                return;
            }
            if (!result.isDone() && handOver.getAsBoolean()) {
                handOver("the owner stops");
                return;
            }
            if (result.isDone()) {
                return;
            }
            ReleasePhase before = state.phase();
            decide(observe());
            if (!result.isDone() && state.phase() != before) {
                decide(observe()); // a rollback starts at once, as a new phase's first tick
            }
            if (!result.isDone()) {
                tasks.schedule(pollInterval, this::step);
            }
        } catch (StaleReleaseException | StaleFenceException | LeaseLostException e) {
            handOver("another owner took it (" + e.getMessage() + ")");
        } catch (RuntimeException e) {
            LOG.warn("release of {} to {} failed", scheduler, state.target(), e);
            if (ledger.isPresent()) {
                // A store that cannot answer may not take the failure either: stop and let the next owner resume.
                try {
                    decide(new ReleaseEvent.LeaseLost());
                } catch (RuntimeException again) {
                    LOG.warn("release of {}: recording the failure failed too", scheduler, again);
                }
                handOver("a step failed");
            } else {
                state = ReleaseMachine.decide(state, new ReleaseEvent.LeaseLost(), tasks.clock().instant()).state();
                result.complete(OperationStatus.ERROR);
            }
        }
    }

    private ReleaseEvent observe() {
        if (resume) {
            resume = false;
            return new ReleaseEvent.Resume(driver.list(scheduler), ledger.orElseThrow().current());
        }
        return new ReleaseEvent.Tick(driver.list(scheduler));
    }

    /** One decision: saved, then its commands run; the result completes when the state is terminal. */
    private void decide(ReleaseEvent event) {
        java.time.Instant now = tasks.clock().instant();
        ReleaseDecision decision = ReleaseMachine.decide(state, event, now);
        if (decision.changed(state)) {
            ledger.ifPresent(l -> l.save(decision.state()));
        }
        state = decision.state();
        for (ReleaseCommand command : decision.commands()) {
            run(command, now);
        }
        if (state.terminal()) {
            result.complete(status(state.phase()));
        }
    }

    private void run(ReleaseCommand command, java.time.Instant now) {
        if (command instanceof ReleaseCommand.CreateRooms create) {
            actions.createForRelease(scheduler, create.version(), create.count());
        } else if (command instanceof ReleaseCommand.RemoveRooms remove) {
            actions.removeForRelease(scheduler, remove.rooms());
        } else if (command instanceof ReleaseCommand.SaveRollback rollback) {
            ledger.orElseThrow().saveRollback(rollback.version(), rollback.rolledBackTo(), now);
        } else if (command instanceof ReleaseCommand.SetReleaseStatus set) {
            ledger.orElseThrow().setStatus(set.version(), set.outcome());
        }
    }

    private void handOver(String why) {
        if (result.isDone()) {
            return;
        }
        LOG.info("release of {} to {} stops in phase {}: {}; the next owner resumes it", scheduler, state.target(),
                state.phase(), why);
        result.complete(state.failure().map(RollingReplace::status).orElse(OperationStatus.INTERRUPTED));
    }
}
