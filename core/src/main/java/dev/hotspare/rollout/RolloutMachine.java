package dev.hotspare.rollout;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.hotspare.rollout.RolloutSpec.DeviceStrategy;
import dev.hotspare.rollout.RolloutSpec.MaintenanceWindow;
import dev.hotspare.rollout.RolloutState.InFlightOp;
import dev.hotspare.rollout.RolloutState.OpKind;
import dev.hotspare.rollout.RolloutState.OpStatus;
import dev.hotspare.rollout.RolloutState.Phase;
import dev.hotspare.rollout.RolloutState.Suspension;
import dev.hotspare.rollout.RolloutState.TargetRecord;
import dev.hotspare.rollout.RolloutState.TargetStatus;
import dev.hotspare.rollout.Target.TargetKind;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * The staged-rollout state machine. {@link #decide} is a pure, total function: every (state, event) pair
 * has a defined outcome (see {@code docs/rollouts.md}), it never reads a clock, never performs I/O and never
 * mutates its inputs.
 *
 * <p>Every call first applies what time alone decides (op deadlines that passed, the window's end), then the
 * event, then advances as far as the rules allow (next node, next batch, next stage). Because time-based
 * checks run on every event, the order in which a timer and a report for the same instant arrive does not
 * change the outcome, and an extra {@link RolloutEvent.Tick} is harmless.
 */
public final class RolloutMachine {

    private RolloutMachine() {
    }

    /**
     * The id of an op: a function of the rollout, the target, the op kind and the attempt only, so a re-issue
     * after a crash carries the same id and an agent recognises it.
     *
     * @param rollout the rollout's name
     * @param target  the logical target
     * @param kind    precheck or upgrade
     * @param attempt the attempt number, from 1
     */
    public static String opId(String rollout, TargetRef target, OpKind kind, int attempt) {
        return rollout + ":" + kind.name().toLowerCase(Locale.ROOT) + ":" + target.kind().name().toLowerCase(Locale.ROOT)
                + ":" + target.name() + ":" + attempt;
    }

    /**
     * The state of a rollout of {@code spec} over {@code inventory} that has not started. A spec with
     * {@code suspend: true} starts suspended (the suspension takes effect right after Start).
     *
     * @param spec      what to do
     * @param inventory over which targets
     * @return the PENDING state
     */
    public static RolloutState initial(RolloutSpec spec, Inventory inventory) {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(inventory, "inventory");
        List<TargetRecord> records = new ArrayList<>();
        for (Target t : inventory.targets()) {
            records.add(fresh(spec, t, 0));
        }
        records.add(TargetRecord.of(TargetRef.services(),
                spec.upgradeControlPlane() ? TargetStatus.PENDING : TargetStatus.SKIPPED, 0, "",
                spec.upgradeControlPlane() ? Optional.empty() : Optional.of("control plane upgrade is off")));
        records.sort(Comparator.comparing(TargetRecord::target));
        return new RolloutState(spec, inventory, Phase.PENDING, spec.suspend() ? Suspension.REQUESTED : Suspension.NONE,
                Optional.empty(), false, 0, 0, List.of(), records, List.of(), 0, 0, Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), List.of(), Optional.empty());
    }

    private static TargetRecord fresh(RolloutSpec spec, Target t, int attempts) {
        Optional<String> skip = Grouping.skipReason(spec, t);
        return TargetRecord.of(t.ref(), skip.isPresent() ? TargetStatus.SKIPPED : TargetStatus.PENDING, attempts,
                t.version(), skip);
    }

    /**
     * Applies {@code event} at {@code now} to {@code state}.
     *
     * @param state the current state
     * @param event what happened
     * @param now   the time of the decision
     * @return the new state and the commands to execute once it is saved
     */
    public static Decision decide(RolloutState state, RolloutEvent event, Instant now) {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(now, "now");
        Work w = new Work(state, now);
        if (state.terminal()) {
            if (event instanceof RolloutEvent.AgentReported report) {
                w.drop(report, "rollout already " + state.phase());
            }
            return w.decision(state, event);
        }
        if (w.phase != Phase.PENDING) {
            w.expireTimeouts();
            w.checkWindow();
        }
        // Java 17: no pattern switch; the sealed hierarchy keeps this chain complete (last branch is SpecChanged).
        if (event instanceof RolloutEvent.Start) {
            w.start();
        } else if (event instanceof RolloutEvent.AgentReported report) {
            w.report(report);
        } else if (event instanceof RolloutEvent.Tick) {
            // Time-based checks already ran; advancing below does the rest.
        } else if (event instanceof RolloutEvent.Suspend) {
            w.suspend();
        } else if (event instanceof RolloutEvent.Resume) {
            w.resume();
        } else if (event instanceof RolloutEvent.Abort) {
            w.finish(Phase.ABORTED, "aborted on request");
        } else if (event instanceof RolloutEvent.InventoryChanged changed) {
            w.inventoryChanged(changed.inventory());
        } else if (event instanceof RolloutEvent.LeaderChanged changed) {
            w.leaderChanged(changed.leader());
        } else if (event instanceof RolloutEvent.SpecChanged changed) {
            w.specChanged(changed.spec());
        }
        w.advance();
        return w.decision(state, event);
    }

    /** Mutable working copy of a state for the duration of one decision. */
    private static final class Work {
        private RolloutSpec spec;
        private Optional<RolloutSpec> pendingSpec;
        private final Instant now;
        private Inventory inventory;
        private Phase phase;
        private Suspension suspension;
        private Optional<Phase> drainingTo;
        private boolean windowClosed;
        private int deviceGroup;
        private int batchInGroup;
        private List<String> currentBatch;
        private final TreeMap<TargetRef, TargetRecord> targets = new TreeMap<>();
        private final List<InFlightOp> inFlight;
        private int deviceFailures;
        private long droppedReports;
        private Optional<String> leader;
        private Optional<Instant> startedAt;
        private Optional<Instant> finishedAt;
        private Optional<String> reason;
        private List<TargetRef> notStarted;
        private final List<RolloutCommand> commands = new ArrayList<>();

        Work(RolloutState s, Instant now) {
            this.spec = s.spec();
            this.pendingSpec = s.pendingSpec();
            this.now = now;
            this.inventory = s.inventory();
            this.phase = s.phase();
            this.suspension = s.suspension();
            this.drainingTo = s.drainingTo();
            this.windowClosed = s.windowClosed();
            this.deviceGroup = s.deviceGroup();
            this.batchInGroup = s.batchInGroup();
            this.currentBatch = s.currentBatch();
            for (TargetRecord r : s.targets()) {
                targets.put(r.target(), r);
            }
            this.inFlight = new ArrayList<>(s.inFlight());
            this.deviceFailures = s.deviceFailures();
            this.droppedReports = s.droppedReports();
            this.leader = s.leader();
            this.startedAt = s.startedAt();
            this.finishedAt = s.finishedAt();
            this.reason = s.reason();
            this.notStarted = s.notStarted();
        }

        Decision decision(RolloutState before, RolloutEvent event) {
            RolloutState after = new RolloutState(spec, inventory, phase, suspension, drainingTo, windowClosed,
                    deviceGroup, batchInGroup, currentBatch, List.copyOf(targets.values()), inFlight, deviceFailures,
                    droppedReports, leader, startedAt, finishedAt, reason, notStarted, pendingSpec);
            Optional<Instant> wake = after.nextWake();
            boolean timerConsumed = event instanceof RolloutEvent.Tick || event instanceof RolloutEvent.Start;
            if (wake.isPresent() && (timerConsumed || !wake.equals(before.nextWake()))) {
                commands.add(new RolloutCommand.ScheduleWake(wake.get()));
            }
            return new Decision(after, commands);
        }

        // ---- events -------------------------------------------------------------------------------------

        void start() {
            if (phase != Phase.PENDING) {
                return;
            }
            startedAt = Optional.of(now);
            emit(Notice.Kind.STARTED, "rollout " + spec.name() + " to " + spec.targetVersion() + " started");
            if (!spec.prechecks()) {
                enter(Phase.WAITING_FOR_WINDOW);
                return;
            }
            enter(Phase.PRECHECKS);
            checkNodeHealth();
        }

        /**
         * Before any precheck op: every node that joined the cluster must be healthy (the cluster upgrades its
         * devices through them), else the precheck stage fails naming them. A node that has not joined is left
         * out of the node prechecks (already SKIPPED), as Venice does.
         */
        private void checkNodeHealth() {
            List<String> unfit = Grouping.unfitNodes(spec, inventory);
            if (unfit.isEmpty()) {
                return;
            }
            for (Target node : inventory.ofKind(TargetKind.NODE)) {
                Optional<String> why = node.unfitReason();
                TargetRecord r = targets.get(node.ref());
                if (node.admitted() && why.isPresent() && r != null && r.status() == TargetStatus.PENDING) {
                    targets.put(node.ref(), r.with(TargetStatus.FAILED, "precheck stage: " + why.get()));
                    emit(Notice.Kind.TARGET_FAILED, node.ref(), node.ref() + " " + why.get());
                }
            }
            finish(Phase.FAILED, "precheck stage failed: " + String.join("; ", unfit));
        }

        void suspend() {
            spec = spec.withSuspend(true);
            if (suspension == Suspension.NONE) {
                suspension = Suspension.REQUESTED;
                emit(Notice.Kind.SUSPEND_REQUESTED, "suspend requested; in-flight work finishes first");
            }
        }

        void resume() {
            spec = spec.withSuspend(false);
            if (suspension != Suspension.NONE) {
                suspension = Suspension.NONE;
                emit(Notice.Kind.RESUMED, "resumed");
            }
        }

        /**
         * A new spec: refused as a whole if it changes a field a running rollout cannot change; otherwise
         * {@code suspend} acts at once and the rest waits for the next batch boundary.
         */
        void specChanged(RolloutSpec next) {
            List<Problem> unsafe = RolloutSpec.unsafeChanges(spec, next);
            if (!unsafe.isEmpty()) {
                emit(Notice.Kind.SPEC_CHANGE_REFUSED, "spec change refused, nothing changed: "
                        + String.join("; ", unsafe.stream().map(Problem::describe).toList()));
                return;
            }
            if (next.suspend() != spec.suspend()) {
                if (next.suspend()) {
                    suspend();
                } else {
                    resume();
                }
            }
            RolloutSpec wanted = spec.withBoundaryFieldsOf(next);
            if (wanted.equals(spec)) {
                if (pendingSpec.isPresent()) {
                    pendingSpec = Optional.empty();
                    emit(Notice.Kind.SPEC_CHANGE_ACCEPTED, "spec change accepted: the waiting change is withdrawn");
                }
                return;
            }
            pendingSpec = Optional.of(wanted);
            emit(Notice.Kind.SPEC_CHANGE_ACCEPTED, "spec change accepted (" + changes(spec, wanted)
                    + "); takes effect at the next batch boundary");
            if (phase == Phase.PENDING) {
                applyPendingSpec();
            }
        }

        /** Whether a waiting spec change may take effect now: never in the middle of an EXPONENTIAL batch. */
        private boolean atBatchBoundary() {
            boolean batched = spec.strategy() == DeviceStrategy.EXPONENTIAL && (phase == Phase.DEVICES || phase == Phase.PRECHECKS);
            return !batched || currentBatchDone();
        }

        private void applyPendingSpec() {
            RolloutSpec before = spec;
            spec = spec.withBoundaryFieldsOf(pendingSpec.orElseThrow());
            pendingSpec = Optional.empty();
            emit(Notice.Kind.SPEC_CHANGED, "spec change took effect: " + changes(before, spec));
            Optional<Instant> end = spec.window().flatMap(MaintenanceWindow::end);
            if (windowClosed && (end.isEmpty() || now.isBefore(end.get()))) {
                windowClosed = false;
                emit(Notice.Kind.SPEC_CHANGED, "maintenance window reopened " + end.map(e -> "until " + e).orElse("with no end"));
            }
            if (drainingTo.isPresent() && deviceFailures <= spec.maxFailures()) {
                drainingTo = Optional.empty();
                reason = Optional.empty();
                emit(Notice.Kind.SPEC_CHANGED, deviceFailures + " device failure(s) within the new maxFailures "
                        + spec.maxFailures() + "; halting stopped, work continues");
            }
            checkFailureBudget();
        }

        private static String changes(RolloutSpec from, RolloutSpec to) {
            List<String> out = new ArrayList<>();
            if (!from.maxParallel().equals(to.maxParallel())) {
                out.add("maxParallel " + from.maxParallel() + " -> " + to.maxParallel());
            }
            if (from.maxFailures() != to.maxFailures()) {
                out.add("maxFailures " + from.maxFailures() + " -> " + to.maxFailures());
            }
            Optional<Instant> fromEnd = from.window().flatMap(MaintenanceWindow::end);
            Optional<Instant> toEnd = to.window().flatMap(MaintenanceWindow::end);
            if (!fromEnd.equals(toEnd)) {
                out.add("window.end " + fromEnd.map(Object::toString).orElse("none") + " -> " + toEnd.map(Object::toString).orElse("none"));
            }
            return out.isEmpty() ? "no change" : String.join(", ", out);
        }

        void report(RolloutEvent.AgentReported report) {
            Optional<InFlightOp> match = inFlight.stream().filter(op -> op.opId().equals(report.opId())).findFirst();
            if (match.isEmpty()) {
                drop(report, classifyUnknown(report));
                return;
            }
            InFlightOp op = match.get();
            if (!op.address().equals(report.target()) || op.attempt() != report.attempt()) {
                drop(report, "does not match op " + op.opId() + " (sent to " + op.address() + ", attempt " + op.attempt() + ")");
                return;
            }
            inFlight.remove(op);
            if (report.status() == OpStatus.SUCCEEDED) {
                succeeded(op, report.message());
            } else {
                failed(op, report.message().isEmpty() ? "agent reported failure" : report.message());
            }
        }

        private String classifyUnknown(RolloutEvent.AgentReported report) {
            TargetRef logical = report.target().kind() == TargetKind.SERVICES ? TargetRef.services() : report.target();
            TargetRecord r = targets.get(logical);
            if (r == null) {
                return "unknown target " + report.target();
            }
            if (report.attempt() < r.attempts()) {
                return "older attempt " + report.attempt() + " (current " + r.attempts() + ")";
            }
            if (r.status().terminal() || r.prechecked()) {
                return "op already finished";
            }
            return "op was not issued (or was cancelled)";
        }

        void drop(RolloutEvent.AgentReported report, String why) {
            droppedReports++;
            emit(Notice.Kind.REPORT_DROPPED, report.target(), "dropped report for " + report.opId() + ": " + why);
        }

        void inventoryChanged(Inventory next) {
            emit(Notice.Kind.INVENTORY_CHANGED, "inventory changed: " + next.targets().size() + " targets");
            for (TargetRecord r : List.copyOf(targets.values())) {
                if (r.target().kind() == TargetKind.SERVICES || r.status() == TargetStatus.REMOVED) {
                    continue;
                }
                if (next.find(r.target()).isEmpty() && !r.status().terminal()) {
                    opFor(r.target()).ifPresent(op -> {
                        inFlight.remove(op);
                        commands.add(new RolloutCommand.CancelOp(op.address(), op.opId()));
                    });
                    targets.put(r.target(), r.with(TargetStatus.REMOVED, "removed from the inventory"));
                    emit(Notice.Kind.TARGET_REMOVED, r.target(), r.target() + " removed from the inventory");
                }
            }
            for (Target t : next.targets()) {
                TargetRecord existing = targets.get(t.ref());
                if (existing == null || existing.status() == TargetStatus.REMOVED) {
                    // Keep counting attempts of a re-added target so its op ids never repeat.
                    targets.put(t.ref(), fresh(spec, t, existing == null ? 0 : existing.attempts()));
                } else if (existing.status() == TargetStatus.PENDING) {
                    targets.put(t.ref(), existing.withVersion(t.version()));
                } else if (existing.status() == TargetStatus.SKIPPED && existing.attempts() == 0 && !existing.prechecked()) {
                    // Skipped for what the inventory said (health, admission, version, labels), never touched:
                    // judged again on what it says now; the stage rules below decide whether it may still join.
                    targets.put(t.ref(), fresh(spec, t, 0));
                }
            }
            inventory = next;
            normalisePending();
        }

        /** Settles PENDING targets that can no longer be upgraded where the rollout is now. */
        private void normalisePending() {
            for (TargetRecord r : List.copyOf(targets.values())) {
                if (r.status() != TargetStatus.PENDING || r.target().kind() == TargetKind.SERVICES) {
                    continue;
                }
                Optional<Target> t = inventory.find(r.target());
                if (t.isEmpty()) {
                    continue;
                }
                Target observed = t.get();
                Optional<String> why = Grouping.skipReason(spec, new Target(observed.kind(), observed.name(), observed.labels(),
                        r.version(), observed.admitted(), observed.healthy()));
                if (why.isEmpty() && spec.prechecks() && !r.prechecked() && phase.ordinal() > Phase.PRECHECKS.ordinal()) {
                    why = Optional.of("joined after the prechecks");
                }
                if (why.isEmpty() && r.target().kind() == TargetKind.DEVICE && phase == Phase.PRECHECKS && !r.prechecked()
                        && groupOf(r.target()).orElse(Integer.MAX_VALUE) < deviceGroup) {
                    why = Optional.of("joined after its device group's prechecks");
                }
                if (why.isEmpty() && r.target().kind() == TargetKind.NODE && phase.ordinal() > Phase.NODES.ordinal()) {
                    why = Optional.of("joined after the node stage");
                }
                if (why.isEmpty() && r.target().kind() == TargetKind.DEVICE && phase == Phase.DEVICES
                        && groupOf(r.target()).orElse(Integer.MAX_VALUE) < deviceGroup) {
                    why = Optional.of("its device group had already finished");
                }
                why.ifPresent(message -> targets.put(r.target(), r.with(TargetStatus.SKIPPED, message)));
            }
        }

        void leaderChanged(Optional<String> next) {
            if (next.equals(leader)) {
                return;
            }
            leader = next;
            emit(Notice.Kind.LEADER_CHANGED, "leader is now " + next.orElse("(none)"));
            TargetRecord services = targets.get(TargetRef.services());
            opFor(TargetRef.services()).ifPresent(op -> {
                // The old leader's agent may be gone; the op starts again on the new leader under a new attempt.
                inFlight.remove(op);
                commands.add(new RolloutCommand.CancelOp(op.address(), op.opId()));
                targets.put(TargetRef.services(), services.with(TargetStatus.PENDING, "re-issued after leader change"));
            });
        }

        // ---- time ---------------------------------------------------------------------------------------

        void expireTimeouts() {
            for (InFlightOp op : List.copyOf(inFlight)) {
                if (phase.terminal()) {
                    return;
                }
                if (!now.isBefore(op.deadline()) && inFlight.contains(op)) {
                    inFlight.remove(op);
                    commands.add(new RolloutCommand.CancelOp(op.address(), op.opId()));
                    String why = "timed out after " + Duration.between(op.issuedAt(), op.deadline());
                    emit(Notice.Kind.OP_TIMED_OUT, op.target(), op.opId() + " " + why);
                    failed(op, why);
                }
            }
        }

        void checkWindow() {
            Optional<Instant> end = spec.window().flatMap(MaintenanceWindow::end);
            if (windowClosed || end.isEmpty() || now.isBefore(end.get()) || phase.terminal() || phase == Phase.PENDING) {
                return;
            }
            windowClosed = true;
            emit(Notice.Kind.WINDOW_CLOSED, "maintenance window closed at " + end.get() + "; nothing new starts");
            for (TargetRecord r : List.copyOf(targets.values())) {
                if (r.status() == TargetStatus.RETRY_WAIT) {
                    deviceFailedForGood(r, "retry would start after the maintenance window closed");
                }
            }
        }

        // ---- op outcomes --------------------------------------------------------------------------------

        private void succeeded(InFlightOp op, String message) {
            TargetRecord r = targets.get(op.target());
            if (op.kind() == OpKind.PRECHECK) {
                targets.put(op.target(), r.with(TargetStatus.PENDING, nonEmpty(message, "precheck passed")).withPrechecked());
                emit(Notice.Kind.PRECHECK_PASSED, op.target(), op.target() + " precheck passed");
            } else {
                targets.put(op.target(), r.with(TargetStatus.SUCCEEDED, nonEmpty(message, "upgraded")).withVersion(spec.targetVersion()));
                emit(Notice.Kind.TARGET_SUCCEEDED, op.target(), op.target() + " on " + spec.targetVersion());
            }
        }

        private void failed(InFlightOp op, String message) {
            TargetRecord r = targets.get(op.target());
            if (op.kind() == OpKind.PRECHECK && op.target().kind() == TargetKind.DEVICE) {
                // As Venice's: the device is left out and counted among the precheck failures (the state's
                // precheckFailures), not among the failures compared with maxFailures; the other prechecks and
                // the upgrade go on, and the rollout ends FAILED once every stage is done.
                targets.put(op.target(), r.withFailedPrecheck("precheck failed: " + message));
                emit(Notice.Kind.TARGET_FAILED, op.target(), op.target() + " precheck failed: " + message
                        + "; left out of the upgrade");
                return;
            }
            if (op.kind() == OpKind.PRECHECK) {
                targets.put(op.target(), r.with(TargetStatus.FAILED, "precheck failed: " + message));
                emit(Notice.Kind.TARGET_FAILED, op.target(), op.target() + " precheck failed: " + message);
                finish(Phase.FAILED, "precheck of " + op.target() + " failed: " + message);
                return;
            }
            switch (op.target().kind()) {
                case NODE, SERVICES -> {
                    targets.put(op.target(), r.with(TargetStatus.FAILED, message));
                    emit(Notice.Kind.TARGET_FAILED, op.target(), op.target() + " failed: " + message);
                    finish(Phase.FAILED, op.target() + " failed: " + message);
                }
                case DEVICE -> {
                    Instant retryAt = now.plus(spec.retry().delay());
                    boolean insideWindow = !windowClosed && spec.window().flatMap(MaintenanceWindow::end)
                            .map(retryAt::isBefore).orElse(true);
                    if (r.attempts() < spec.retry().attempts() && drainingTo.isEmpty() && insideWindow) {
                        targets.put(op.target(), r.retryingAt(retryAt, "attempt " + r.attempts() + " failed: " + message));
                        emit(Notice.Kind.RETRY_SCHEDULED, op.target(), op.target() + " attempt " + r.attempts()
                                + " failed (" + message + "); retry at " + retryAt);
                    } else {
                        deviceFailedForGood(r, message);
                    }
                }
            }
        }

        private void deviceFailedForGood(TargetRecord r, String message) {
            targets.put(r.target(), r.with(TargetStatus.FAILED, message));
            deviceFailures++;
            emit(Notice.Kind.TARGET_FAILED, r.target(), r.target() + " failed: " + message);
            checkFailureBudget();
        }

        /** Past maxFailures: halt (nothing new starts, retries are abandoned, FAILED once nothing is in flight). */
        private void checkFailureBudget() {
            if (deviceFailures > spec.maxFailures() && drainingTo.isEmpty()) {
                drainingTo = Optional.of(Phase.FAILED);
                reason = Optional.of(deviceFailures + " device failures exceed maxFailures " + spec.maxFailures());
                emit(Notice.Kind.HALTING, reason.get() + "; halting: in-flight ops finish, nothing new starts");
                for (TargetRecord other : List.copyOf(targets.values())) {
                    if (other.status() == TargetStatus.RETRY_WAIT) {
                        targets.put(other.target(), other.with(TargetStatus.FAILED, "not retried: rollout halting"));
                        deviceFailures++;
                    }
                }
            }
        }

        /** Ends the rollout now; in-flight ops are cancelled. */
        void finish(Phase terminal, String why) {
            for (InFlightOp op : List.copyOf(inFlight)) {
                commands.add(new RolloutCommand.CancelOp(op.address(), op.opId()));
                TargetRecord r = targets.get(op.target());
                targets.put(op.target(), op.kind() == OpKind.PRECHECK
                        ? r.with(TargetStatus.PENDING, "precheck cancelled")
                        : r.with(TargetStatus.CANCELLED, "cancelled: " + why));
            }
            inFlight.clear();
            for (TargetRecord r : List.copyOf(targets.values())) {
                if (r.status() == TargetStatus.RETRY_WAIT) {
                    targets.put(r.target(), r.with(TargetStatus.CANCELLED, "cancelled: " + why));
                }
            }
            if (terminal == Phase.DEADLINE_EXCEEDED) {
                notStarted = targets.values().stream().filter(r -> r.status() == TargetStatus.PENDING)
                        .map(TargetRecord::target).toList();
            }
            phase = terminal;
            drainingTo = Optional.empty();
            finishedAt = Optional.of(now);
            reason = Optional.of(why);
            emit(Notice.Kind.FINISHED, "rollout " + spec.name() + " " + terminal + ": " + why);
        }

        // ---- progression --------------------------------------------------------------------------------

        void advance() {
            for (int guard = 0; guard < 64; guard++) {
                if (phase == Phase.PENDING || phase.terminal()) {
                    return;
                }
                if (pendingSpec.isPresent() && atBatchBoundary()) {
                    applyPendingSpec();
                }
                checkWindow();
                if (phase.terminal()) {
                    return;
                }
                if (drainingTo.isPresent()) {
                    if (inFlight.isEmpty()) {
                        finish(drainingTo.get(), reason.orElse("halted"));
                    }
                    return;
                }
                boolean active = targets.values().stream().anyMatch(r -> r.status().active());
                if (windowClosed && !active && targets.values().stream().anyMatch(r -> r.status() == TargetStatus.PENDING)) {
                    finish(Phase.DEADLINE_EXCEEDED, "maintenance window closed with targets not started");
                    return;
                }
                if (suspension == Suspension.REQUESTED && !active) {
                    suspension = Suspension.SUSPENDED;
                    emit(Notice.Kind.SUSPENDED, "suspended at a batch boundary in " + phase);
                }
                boolean moved = switch (phase) {
                    case PRECHECKS -> stepPrechecks();
                    case WAITING_FOR_WINDOW -> stepWaitForWindow();
                    case NODES -> stepNodes();
                    case SERVICES -> stepServices();
                    case DEVICES -> stepDevices();
                    default -> false;
                };
                if (!moved) {
                    return;
                }
            }
        }

        private boolean canStartNew() {
            return suspension == Suspension.NONE && drainingTo.isEmpty() && !windowClosed;
        }

        private boolean stepPrechecks() {
            List<TargetRecord> nodes = needingPrecheck(TargetKind.NODE);
            boolean nodeRunning = running(TargetKind.NODE) > 0;
            if (!nodes.isEmpty() || nodeRunning) {
                if (!nodeRunning && canStartNew()) {
                    issue(nodes.get(0).target(), OpKind.PRECHECK);
                }
                return false;
            }
            // Devices are prechecked as they will be upgraded: group by group in selector order, paced by the
            // strategy, so the canary group is prechecked first and a failure there is known early.
            int groups = Grouping.groupCount(spec);
            while (deviceGroup < groups) {
                List<TargetRecord> members = groupMembers(deviceGroup);
                List<TargetRecord> needing = members.stream()
                        .filter(r -> r.status() == TargetStatus.PENDING && !r.prechecked()).toList();
                boolean busy = members.stream().anyMatch(r -> r.status() == TargetStatus.RUNNING);
                if (needing.isEmpty() && !busy) {
                    if (!members.isEmpty()) {
                        emit(Notice.Kind.GROUP_FINISHED, "prechecks of device group " + (deviceGroup + 1) + " ("
                                + Grouping.groupName(spec, deviceGroup) + ") finished");
                    }
                    nextGroup();
                    continue;
                }
                if (canStartNew()) {
                    startDeviceOps(members, needing, OpKind.PRECHECK);
                }
                return false;
            }
            deviceGroup = 0;
            batchInGroup = 0;
            currentBatch = List.of();
            enter(Phase.WAITING_FOR_WINDOW);
            return true;
        }

        private void nextGroup() {
            deviceGroup++;
            batchInGroup = 0;
            currentBatch = List.of();
        }

        /**
         * Starts the next device ops of a group: LINEAR tops the pool up to the group's parallelism; EXPONENTIAL
         * starts the next batch (1, 2, 4, … capped) once the current one has finished.
         */
        private void startDeviceOps(List<TargetRecord> members, List<TargetRecord> candidates, OpKind kind) {
            int parallel = spec.maxParallel().forGroup(members.size());
            if (spec.strategy() == DeviceStrategy.LINEAR) {
                long busy = targets.values().stream()
                        .filter(r -> r.target().kind() == TargetKind.DEVICE && r.status().active()).count();
                for (int i = 0; i < candidates.size() && busy < parallel; i++, busy++) {
                    issue(candidates.get(i).target(), kind);
                }
            } else if (currentBatchDone() && !candidates.isEmpty()) {
                int size = Math.min(Grouping.exponentialBatchSize(batchInGroup, parallel), candidates.size());
                batchInGroup++;
                currentBatch = candidates.subList(0, size).stream().map(r -> r.target().name()).toList();
                for (TargetRecord r : candidates.subList(0, size)) {
                    issue(r.target(), kind);
                }
            }
        }

        private boolean stepWaitForWindow() {
            Optional<MaintenanceWindow> window = spec.window();
            if (window.isPresent() && now.isBefore(window.get().start())) {
                return false;
            }
            enter(Phase.NODES);
            return true;
        }

        private boolean stepNodes() {
            if (running(TargetKind.NODE) > 0) {
                return false;
            }
            Optional<TargetRecord> next = pendingOfKind(TargetKind.NODE).stream().findFirst();
            if (next.isPresent()) {
                if (canStartNew()) {
                    issue(next.get().target(), OpKind.UPGRADE);
                }
                return false;
            }
            enter(Phase.SERVICES);
            return true;
        }

        private boolean stepServices() {
            TargetRecord services = targets.get(TargetRef.services());
            switch (services.status()) {
                case RUNNING, RETRY_WAIT, FAILED:
                    return false;
                case PENDING:
                    if (canStartNew() && leader.isPresent()) {
                        issue(TargetRef.services(), OpKind.UPGRADE);
                    }
                    return false;
                default:
                    enter(Phase.DEVICES);
                    return true;
            }
        }

        private boolean stepDevices() {
            int groups = Grouping.groupCount(spec);
            while (deviceGroup < groups) {
                List<TargetRecord> members = groupMembers(deviceGroup);
                if (members.stream().allMatch(r -> r.status().terminal())) {
                    if (!members.isEmpty()) {
                        emit(Notice.Kind.GROUP_FINISHED, "device group " + (deviceGroup + 1) + " ("
                                + Grouping.groupName(spec, deviceGroup) + ") finished");
                    }
                    nextGroup();
                    continue;
                }
                for (TargetRecord r : members) {
                    if (r.status() == TargetStatus.RETRY_WAIT && drainingTo.isEmpty()
                            && r.retryAt().map(at -> !now.isBefore(at)).orElse(true)) {
                        issue(r.target(), OpKind.UPGRADE);
                    }
                }
                if (!canStartNew()) {
                    return false;
                }
                List<TargetRecord> pending = members.stream().filter(r -> r.status() == TargetStatus.PENDING).toList();
                startDeviceOps(members, pending, OpKind.UPGRADE);
                return false;
            }
            List<TargetRef> leftOut = targets.values().stream().filter(TargetRecord::failedPrecheck).map(TargetRecord::target).toList();
            // As Venice's: a device skipped because it is unhealthy fails the rollout although nothing was tried on it.
            List<TargetRef> unhealthy = targets.values().stream().filter(Grouping::skippedAsUnhealthy).map(TargetRecord::target).toList();
            if (!leftOut.isEmpty() || !unhealthy.isEmpty()) {
                List<String> why = new ArrayList<>();
                if (!leftOut.isEmpty()) {
                    why.add(leftOut.size() + " device(s) failed their precheck and were left out of the upgrade: " + abbreviated(leftOut));
                }
                if (!unhealthy.isEmpty()) {
                    why.add(unhealthy.size() + " device(s) were skipped as not healthy: " + abbreviated(unhealthy));
                }
                finish(Phase.FAILED, "every stage finished, but " + String.join("; ", why));
                return false;
            }
            String failures = deviceFailures == 0 ? "" : "; " + deviceFailures + " device failure(s) tolerated by maxFailures " + spec.maxFailures();
            finish(Phase.SUCCEEDED, "every stage finished" + failures);
            return false;
        }

        private static String abbreviated(List<TargetRef> refs) {
            int shown = Math.min(refs.size(), 10);
            String names = String.join(", ", refs.subList(0, shown).stream().map(TargetRef::toString).toList());
            return refs.size() > shown ? names + " and " + (refs.size() - shown) + " more" : names;
        }

        /** Whether every device of the current batch is done with its op (a precheck, or the upgrade and its retries). */
        private boolean currentBatchDone() {
            for (String name : currentBatch) {
                TargetRecord r = targets.get(TargetRef.device(name));
                if (r == null) {
                    continue;
                }
                boolean done = phase == Phase.PRECHECKS ? r.status() != TargetStatus.RUNNING : r.status().terminal();
                if (!done) {
                    return false;
                }
            }
            return true;
        }

        // ---- helpers ------------------------------------------------------------------------------------

        private void enter(Phase next) {
            phase = next;
            emit(Notice.Kind.STAGE_STARTED, "stage " + next);
        }

        private void issue(TargetRef target, OpKind kind) {
            TargetRecord r = targets.get(target);
            int attempt = kind == OpKind.PRECHECK ? 1 : r.attempts() + 1;
            TargetRef address = target.kind() == TargetKind.SERVICES ? TargetRef.servicesOn(leader.orElseThrow()) : target;
            String opId = opId(spec.name(), target, kind, attempt);
            inFlight.add(new InFlightOp(opId, target, address, kind, attempt, now, now.plus(timeoutOf(target))));
            TargetRecord updated = r.with(TargetStatus.RUNNING, null);
            targets.put(target, kind == OpKind.UPGRADE ? updated.withAttempts(attempt) : updated);
            commands.add(new RolloutCommand.IssueOp(address, opId, kind, attempt, spec.targetVersion()));
        }

        /** The op timeout for {@code target}; a device's depends on its group's parallelism. */
        private Duration timeoutOf(TargetRef target) {
            return switch (target.kind()) {
                case NODE -> spec.timeouts().node();
                case SERVICES -> spec.timeouts().services();
                case DEVICE -> {
                    OptionalInt group = groupOf(target);
                    yield spec.deviceTimeout(group.isPresent() ? groupMembers(group.getAsInt()).size() : 1);
                }
            };
        }

        private Optional<InFlightOp> opFor(TargetRef target) {
            return inFlight.stream().filter(op -> op.target().equals(target)).findFirst();
        }

        private List<TargetRecord> needingPrecheck(TargetKind kind) {
            return targets.values().stream()
                    .filter(r -> r.target().kind() == kind && r.status() == TargetStatus.PENDING && !r.prechecked()).toList();
        }

        private List<TargetRecord> pendingOfKind(TargetKind kind) {
            return targets.values().stream()
                    .filter(r -> r.target().kind() == kind && r.status() == TargetStatus.PENDING).toList();
        }

        private int running(TargetKind kind) {
            return (int) targets.values().stream()
                    .filter(r -> r.target().kind() == kind && r.status() == TargetStatus.RUNNING).count();
        }

        private OptionalInt groupOf(TargetRef device) {
            Map<String, String> labels = inventory.find(device).map(Target::labels).orElse(Map.of());
            return Grouping.groupOf(spec, labels);
        }

        /** Devices of group {@code index} (by their current labels), in name order; removed ones excluded. */
        private List<TargetRecord> groupMembers(int index) {
            List<TargetRecord> out = new ArrayList<>();
            for (TargetRecord r : targets.values()) {
                if (r.target().kind() == TargetKind.DEVICE && r.status() != TargetStatus.REMOVED
                        && r.status() != TargetStatus.SKIPPED && groupOf(r.target()).orElse(-1) == index) {
                    out.add(r);
                }
            }
            return out;
        }

        private void emit(Notice.Kind kind, String message) {
            commands.add(new RolloutCommand.Emit(Notice.of(kind, message)));
        }

        private void emit(Notice.Kind kind, TargetRef target, String message) {
            commands.add(new RolloutCommand.Emit(Notice.of(kind, target, message)));
        }

        private static String nonEmpty(String value, String fallback) {
            return value == null || value.isEmpty() ? fallback : value;
        }
    }

    /**
     * The result of {@link RolloutMachine#decide}: the state to save, then the commands to execute.
     *
     * @param state    the new state
     * @param commands what to do, in order, after {@code state} is saved
     */
    public record Decision(RolloutState state, List<RolloutCommand> commands) {

        /**
         * Validates and normalises the components.
         *
         * @param state    the new state
         * @param commands what to do, in order, after {@code state} is saved
         */
        public Decision {
            commands = List.copyOf(commands);
        }

        /**
         * The commands of type {@code type}.
         *
         * @param type the command type
         * @param <C>  the command type
         * @return those commands, in order
         */
        public <C extends RolloutCommand> List<C> commandsOf(Class<C> type) {
            return commands.stream().filter(type::isInstance).map(type::cast).toList();
        }
    }

    /** What {@link RolloutMachine#decide} asks the runtime to do, after the new state is saved. */
    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({
            @JsonSubTypes.Type(value = RolloutCommand.IssueOp.class, name = "IssueOp"),
            @JsonSubTypes.Type(value = RolloutCommand.CancelOp.class, name = "CancelOp"),
            @JsonSubTypes.Type(value = RolloutCommand.ScheduleWake.class, name = "ScheduleWake"),
            @JsonSubTypes.Type(value = RolloutCommand.Emit.class, name = "Emit")})
    public sealed interface RolloutCommand {

        /**
         * Send an op to the agent of {@code target}.
         *
         * @param target  the agent's address (for the services op: the leader's services agent)
         * @param opId    the op's id; agents treat a repeated id as the same op
         * @param kind    precheck or upgrade
         * @param attempt the attempt number, from 1
         * @param version the rollout's target version
         */
        record IssueOp(TargetRef target, String opId, OpKind kind, int attempt, String version) implements RolloutCommand {
        }

        /**
         * Withdraw an op (abort, timeout, leader change, target removed); its later report is dropped.
         *
         * @param target the agent's address
         * @param opId   the op's id
         */
        record CancelOp(TargetRef target, String opId) implements RolloutCommand {
        }

        /**
         * Deliver a {@link RolloutEvent.Tick} at {@code at} (or soon after).
         *
         * @param at when
         */
        record ScheduleWake(Instant at) implements RolloutCommand {
        }

        /**
         * Tell observers something happened.
         *
         * @param notice what
         */
        record Emit(Notice notice) implements RolloutCommand {
        }
    }

    /** Everything that can happen to a rollout; input of {@link RolloutMachine#decide}. JSON: {@code {"type": "Start", …}}. */
    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({
            @JsonSubTypes.Type(value = RolloutEvent.Start.class, name = "Start"),
            @JsonSubTypes.Type(value = RolloutEvent.AgentReported.class, name = "AgentReported"),
            @JsonSubTypes.Type(value = RolloutEvent.Tick.class, name = "Tick"),
            @JsonSubTypes.Type(value = RolloutEvent.Suspend.class, name = "Suspend"),
            @JsonSubTypes.Type(value = RolloutEvent.Resume.class, name = "Resume"),
            @JsonSubTypes.Type(value = RolloutEvent.Abort.class, name = "Abort"),
            @JsonSubTypes.Type(value = RolloutEvent.InventoryChanged.class, name = "InventoryChanged"),
            @JsonSubTypes.Type(value = RolloutEvent.LeaderChanged.class, name = "LeaderChanged"),
            @JsonSubTypes.Type(value = RolloutEvent.SpecChanged.class, name = "SpecChanged")})
    public sealed interface RolloutEvent {

        /** Begin the rollout (ignored once started). */
        record Start() implements RolloutEvent {
        }

        /**
         * An agent's report for an op.
         *
         * @param target  where the op was addressed
         * @param opId    the op's id
         * @param attempt the op's attempt number
         * @param status  how it ended
         * @param message the agent's explanation (may be empty)
         */
        record AgentReported(TargetRef target, String opId, int attempt, OpStatus status, String message) implements RolloutEvent {
            /**
             * Validates and normalises the components.
             *
             * @param target  where the op was addressed
             * @param opId    the op's id
             * @param attempt the op's attempt number
             * @param status  how it ended
             * @param message the agent's explanation (may be empty)
             */
            public AgentReported {
                Objects.requireNonNull(target, "target");
                Objects.requireNonNull(opId, "opId");
                Objects.requireNonNull(status, "status");
                message = message == null ? "" : message;
            }
        }

        /**
         * A timer fired (the answer to a {@link RolloutCommand.ScheduleWake}); the machine checks timeouts,
         * retries and the window. Every event does the same checks, so an extra or late tick is harmless.
         *
         * @param at when the timer was due
         */
        record Tick(Instant at) implements RolloutEvent {
        }

        /** Stop starting new work at the next batch boundary. */
        record Suspend() implements RolloutEvent {
        }

        /** Continue a suspended (or suspending) rollout. */
        record Resume() implements RolloutEvent {
        }

        /** Stop: cancel in-flight ops and end ABORTED. */
        record Abort() implements RolloutEvent {
        }

        /**
         * The inventory changed: removed targets stop (in-flight ops cancelled), new ones join if their stage
         * has not passed.
         *
         * @param inventory the new inventory
         */
        record InventoryChanged(Inventory inventory) implements RolloutEvent {
            /**
             * Validates and normalises the components.
             *
             * @param inventory the new inventory
             */
            public InventoryChanged {
                Objects.requireNonNull(inventory, "inventory");
            }
        }

        /**
         * The leader changed; a services op in flight is re-issued to the new leader's agent.
         *
         * @param leader the new leader's node name (a DNS-1123 label: it becomes the services op's address), empty while there is none
         */
        record LeaderChanged(Optional<String> leader) implements RolloutEvent {
            /**
             * Validates and normalises the components.
             *
             * @param leader the new leader's node name (a DNS-1123 label: it becomes the services op's address), empty while there is none
             */
            public LeaderChanged {
                leader = leader == null ? Optional.empty() : leader;
                leader.ifPresent(name -> Names.requireDns1123Label("leader", name));
            }
        }

        /**
         * The spec changed. Only {@link RolloutSpec#SAFE_FIELDS} may differ from the running spec: {@code suspend}
         * takes effect as Suspend / Resume do; maxParallel, window.end and maxFailures at the next batch boundary.
         * A change of any other field is refused as a whole (a {@link Notice.Kind#SPEC_CHANGE_REFUSED} notice
         * names the fields) and nothing changes.
         *
         * @param spec the new spec
         */
        record SpecChanged(RolloutSpec spec) implements RolloutEvent {
            /**
             * Requires a spec.
             *
             * @param spec the new spec
             */
            public SpecChanged {
                Objects.requireNonNull(spec, "spec");
            }
        }
    }

    /**
     * Something worth telling people about a rollout, carried by {@link RolloutCommand.Emit}.
     *
     * @param kind    what happened
     * @param target  the target concerned, if any
     * @param message a human sentence
     */
    public record Notice(Kind kind, Optional<TargetRef> target, String message) {

        /**
         * Normalises an absent target to empty.
         *
         * @param kind    what happened
         * @param target  the target concerned, if any
         * @param message a human sentence
         */
        public Notice {
            target = target == null ? Optional.empty() : target;
        }

        static Notice of(Kind kind, String message) {
            return new Notice(kind, Optional.empty(), message);
        }

        static Notice of(Kind kind, TargetRef target, String message) {
            return new Notice(kind, Optional.of(target), message);
        }

        /** Kinds of notice. */
        public enum Kind {
            /** Start was applied. */
            STARTED,
            /** A stage began. */
            STAGE_STARTED,
            /** Every device of a group (of prechecks or upgrades) finished. */
            GROUP_FINISHED,
            /** A precheck passed. */
            PRECHECK_PASSED,
            /** A target was upgraded. */
            TARGET_SUCCEEDED,
            /** A target failed for good: upgrade, precheck (left out of the upgrade) or node health. */
            TARGET_FAILED,
            /** A device attempt failed; the next one is scheduled. */
            RETRY_SCHEDULED,
            /** An op passed its deadline and was cancelled. */
            OP_TIMED_OUT,
            /** Suspend was asked for; in-flight work finishes first. */
            SUSPEND_REQUESTED,
            /** Suspended at a batch boundary. */
            SUSPENDED,
            /** Resumed. */
            RESUMED,
            /** The maintenance window closed: nothing new starts. */
            WINDOW_CLOSED,
            /** Device failures exceeded the budget: nothing new starts, the rollout ends FAILED. */
            HALTING,
            /** The leader changed. */
            LEADER_CHANGED,
            /** The inventory changed. */
            INVENTORY_CHANGED,
            /** A target left the inventory before it finished. */
            TARGET_REMOVED,
            /** A report matched no op in flight and was dropped. */
            REPORT_DROPPED,
            /** A spec change was accepted; it takes effect at the next batch boundary. */
            SPEC_CHANGE_ACCEPTED,
            /** An accepted spec change took effect. */
            SPEC_CHANGED,
            /** A spec change touched a field a running rollout cannot change; nothing changed. */
            SPEC_CHANGE_REFUSED,
            /** The runtime could not apply an event (for example the store refused the new state); nothing changed. */
            EVENT_REFUSED,
            /** The rollout ended. */
            FINISHED
        }
    }
}
