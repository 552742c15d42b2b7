package dev.hotspare.rollout;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.hotspare.json.Documents;
import dev.hotspare.rollout.RolloutSpec.MaintenanceWindow;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything a rollout needs to continue after a crash: the spec and inventory it runs on, where it is, and
 * every target's progress. Immutable; {@link RolloutMachine#decide} returns a new one. Serialised by
 * {@link RolloutStateJson} (with a format version).
 *
 * @param spec           what the rollout does
 * @param inventory      the targets as last observed
 * @param phase          where it is
 * @param suspension     suspend state
 * @param drainingTo     set while halting: nothing new starts, and once nothing is in flight the phase becomes this
 * @param windowClosed   the maintenance window's end has passed
 * @param deviceGroup    index of the current device group (during PRECHECKS: the group being prechecked)
 * @param batchInGroup   EXPONENTIAL batches started in the current group
 * @param currentBatch   device names of the current EXPONENTIAL batch
 * @param targets        every target's record (nodes, the services op, devices), in kind then name order
 * @param inFlight       ops issued and not yet finished, in issue order
 * @param deviceFailures devices whose upgrade failed for good (compared with maxFailures; failed prechecks are not
 *                       counted here but in {@link #precheckFailures()})
 * @param droppedReports reports dropped as stale, duplicate, unknown or mismatched
 * @param leader         the current leader node, if known
 * @param startedAt      when Start was applied
 * @param finishedAt     when a terminal phase was reached
 * @param reason         why the rollout ended the way it did
 * @param notStarted     for DEADLINE_EXCEEDED: the targets the window closed on
 * @param pendingSpec    a spec change accepted and waiting for the next batch boundary
 */
public record RolloutState(RolloutSpec spec, Inventory inventory, Phase phase, Suspension suspension,
                           Optional<Phase> drainingTo, boolean windowClosed, int deviceGroup, int batchInGroup,
                           List<String> currentBatch, List<TargetRecord> targets, List<InFlightOp> inFlight,
                           int deviceFailures, long droppedReports, Optional<String> leader,
                           Optional<Instant> startedAt, Optional<Instant> finishedAt, Optional<String> reason,
                           List<TargetRef> notStarted, Optional<RolloutSpec> pendingSpec) {

    /**
     * Normalises absent values to empty ones and copies the lists.
     *
     * @param spec           what the rollout does
     * @param inventory      the targets as last observed
     * @param phase          where it is
     * @param suspension     suspend state
     * @param drainingTo     set while halting: nothing new starts, and once nothing is in flight the phase becomes this
     * @param windowClosed   the maintenance window's end has passed
     * @param deviceGroup    index of the current device group (during PRECHECKS: the group being prechecked)
     * @param batchInGroup   EXPONENTIAL batches started in the current group
     * @param currentBatch   device names of the current EXPONENTIAL batch
     * @param targets        every target's record (nodes, the services op, devices), in kind then name order
     * @param inFlight       ops issued and not yet finished, in issue order
     * @param deviceFailures devices failed for good
     * @param droppedReports reports dropped as stale, duplicate, unknown or mismatched
     * @param leader         the current leader node, if known
     * @param startedAt      when Start was applied
     * @param finishedAt     when a terminal phase was reached
     * @param reason         why the rollout ended the way it did
     * @param notStarted     for DEADLINE_EXCEEDED: the targets the window closed on
     * @param pendingSpec    a spec change accepted and waiting for the next batch boundary
     */
    public RolloutState {
        pendingSpec = orEmpty(pendingSpec);
        drainingTo = orEmpty(drainingTo);
        leader = orEmpty(leader);
        startedAt = orEmpty(startedAt);
        finishedAt = orEmpty(finishedAt);
        reason = orEmpty(reason);
        currentBatch = currentBatch == null ? List.of() : List.copyOf(currentBatch);
        targets = targets == null ? List.of() : List.copyOf(targets);
        inFlight = inFlight == null ? List.of() : List.copyOf(inFlight);
        notStarted = notStarted == null ? List.of() : List.copyOf(notStarted);
    }

    private static <T> Optional<T> orEmpty(Optional<T> value) {
        return value == null ? Optional.empty() : value;
    }

    /**
     * The rollout's name.
     *
     * @return the spec's name
     */
    public String name() {
        return spec.name();
    }

    /**
     * Whether the rollout is over.
     *
     * @return whether the phase is terminal
     */
    public boolean terminal() {
        return phase.terminal();
    }

    /**
     * The record of {@code target}, if the rollout knows it.
     */
    public Optional<TargetRecord> record(TargetRef target) {
        return targets.stream().filter(r -> r.target().equals(target)).findFirst();
    }

    /**
     * The targets this rollout holds: while it is in progress (not terminal), every target it has not left
     * alone (skipped) or lost (removed from the inventory), the services op included when the control plane is
     * upgraded. A target belongs to one rollout in progress at a time; a {@code RolloutStore} refuses a save
     * that would give it to a second one.
     *
     * @return the held targets in kind then name order; empty once the rollout is over
     */
    public List<TargetRef> coveredTargets() {
        if (terminal()) {
            return List.of();
        }
        return targets.stream()
                .filter(r -> r.status() != TargetStatus.SKIPPED && r.status() != TargetStatus.REMOVED)
                .map(TargetRecord::target).sorted().toList();
    }

    /**
     * Devices left out of the upgrade because their precheck failed (or timed out): Venice's precheck-failure
     * counter. They are not among {@link #deviceFailures()}, the failures compared with {@code maxFailures}.
     *
     * @return their records, in name order
     */
    public List<TargetRecord> precheckFailures() {
        return targets.stream().filter(TargetRecord::failedPrecheck).toList();
    }

    /**
     * Number of targets per status (nodes, services op and devices together).
     *
     * @return status to count
     */
    public Map<TargetStatus, Integer> countByStatus() {
        Map<TargetStatus, Integer> counts = new EnumMap<>(TargetStatus.class);
        for (TargetRecord r : targets) {
            counts.merge(r.status(), 1, Integer::sum);
        }
        return counts;
    }

    /**
     * The earliest instant at which time alone changes something: an op deadline, a retry, the window's
     * start or end. A runtime keeps one timer at this instant (rebuilt from the state after a crash).
     *
     * @return the instant, or empty when only an event can change something
     */
    public Optional<Instant> nextWake() {
        if (phase == Phase.PENDING || phase.terminal()) {
            return Optional.empty();
        }
        Instant best = null;
        for (InFlightOp op : inFlight) {
            best = min(best, op.deadline());
        }
        for (TargetRecord r : targets) {
            if (r.status() == TargetStatus.RETRY_WAIT && r.retryAt().isPresent()) {
                best = min(best, r.retryAt().get());
            }
        }
        if (spec.window().isPresent()) {
            MaintenanceWindow w = spec.window().get();
            if (phase == Phase.WAITING_FOR_WINDOW) {
                best = min(best, w.start());
            }
            if (!windowClosed && w.end().isPresent()) {
                best = min(best, w.end().get());
            }
        }
        return Optional.ofNullable(best);
    }

    private static Instant min(Instant a, Instant b) {
        return a == null || b.isBefore(a) ? b : a;
    }

    /** Where a rollout is. The declaration order is the order a rollout moves through them. */
    public enum Phase {
        /** Created, not started. */
        PENDING,
        /** Precheck ops: every node one at a time, then devices (up to maxParallel at once). */
        PRECHECKS,
        /** Waiting for the maintenance window to open. */
        WAITING_FOR_WINDOW,
        /** Upgrading nodes, one at a time, in name order. */
        NODES,
        /** The single services op, on the leader's agent. */
        SERVICES,
        /** Upgrading devices, group by group. */
        DEVICES,
        /** Every target upgraded (or skipped, or failed within maxFailures). */
        SUCCEEDED,
        /** A node, the services op or a precheck failed, or device failures exceeded maxFailures. */
        FAILED,
        /** Aborted by request; in-flight ops were cancelled. */
        ABORTED,
        /** The maintenance window closed with targets not started; they are listed in the state. */
        DEADLINE_EXCEEDED;

        /**
         * Whether the rollout is over.
         *
         * @return whether this is SUCCEEDED, FAILED, ABORTED or DEADLINE_EXCEEDED
         */
        public boolean terminal() {
            return ordinal() >= SUCCEEDED.ordinal();
        }
    }

    /** Suspend state, orthogonal to the {@link Phase}. */
    public enum Suspension {
        /** Running normally. */
        NONE,
        /** Suspend asked: nothing new starts; in-flight ops (and retries of started devices) finish. */
        REQUESTED,
        /** Reached the boundary: nothing is active. Resume continues from here. */
        SUSPENDED
    }

    /**
     * A target's progress in a rollout's state.
     *
     * @param target         the target ({@link TargetRef#services()} for the services op)
     * @param status         where it is
     * @param attempts       upgrade ops issued so far (for the services op: issues, including re-issues to a new leader)
     * @param prechecked     whether its precheck passed
     * @param version        the version it runs, as far as the rollout knows
     * @param retryAt        when the next attempt starts, while {@link TargetStatus#RETRY_WAIT}
     * @param message        the last message about it (agent message, skip reason, failure)
     * @param failedPrecheck whether it is FAILED because its precheck failed or timed out (it was left out of the upgrade)
     */
    public record TargetRecord(TargetRef target, TargetStatus status, int attempts, boolean prechecked, String version,
                               Optional<Instant> retryAt, Optional<String> message, boolean failedPrecheck) {

        /**
         * Normalises absent values to empty ones.
         *
         * @param target         the target ({@link TargetRef#services()} for the services op)
         * @param status         where it is
         * @param attempts       upgrade ops issued so far (for the services op: issues, including re-issues to a new leader)
         * @param prechecked     whether its precheck passed
         * @param version        the version it runs, as far as the rollout knows
         * @param retryAt        when the next attempt starts, while {@link TargetStatus#RETRY_WAIT}
         * @param message        the last message about it (agent message, skip reason, failure)
         * @param failedPrecheck whether it is FAILED because its precheck failed or timed out (it was left out of the upgrade)
         */
        public TargetRecord {
            retryAt = retryAt == null ? Optional.empty() : retryAt;
            message = message == null ? Optional.empty() : message;
        }

        static TargetRecord of(TargetRef target, TargetStatus status, int attempts, String version, Optional<String> message) {
            return new TargetRecord(target, status, attempts, false, version, Optional.empty(), message, false);
        }

        TargetRecord with(TargetStatus newStatus, String newMessage) {
            return new TargetRecord(target, newStatus, attempts, prechecked, version,
                    newStatus == TargetStatus.RETRY_WAIT ? retryAt : Optional.empty(), Optional.ofNullable(newMessage).or(() -> message),
                    failedPrecheck);
        }

        TargetRecord withAttempts(int value) {
            return new TargetRecord(target, status, value, prechecked, version, retryAt, message, failedPrecheck);
        }

        TargetRecord withPrechecked() {
            return new TargetRecord(target, status, attempts, true, version, retryAt, message, failedPrecheck);
        }

        TargetRecord withFailedPrecheck(String why) {
            return new TargetRecord(target, TargetStatus.FAILED, attempts, false, version, Optional.empty(), Optional.of(why), true);
        }

        TargetRecord withVersion(String value) {
            return new TargetRecord(target, status, attempts, prechecked, value, retryAt, message, failedPrecheck);
        }

        TargetRecord retryingAt(Instant at, String why) {
            return new TargetRecord(target, TargetStatus.RETRY_WAIT, attempts, prechecked, version, Optional.of(at),
                    Optional.of(why), failedPrecheck);
        }
    }

    /** Progress of one target in a rollout. */
    public enum TargetStatus {
        /** Not upgraded yet (possibly prechecked). */
        PENDING,
        /** An op (precheck or upgrade) is in flight. */
        RUNNING,
        /** The last upgrade attempt failed; the next one is scheduled. */
        RETRY_WAIT,
        /** Upgraded to the target version. */
        SUCCEEDED,
        /** Failed for good (or its precheck failed). */
        FAILED,
        /** Left alone: already at the version, outside every selector, control plane off, or joined too late. */
        SKIPPED,
        /** Its op was cancelled by an abort or the end of the rollout. */
        CANCELLED,
        /** Removed from the inventory before it finished. */
        REMOVED;

        /**
         * Whether nothing more will happen to the target.
         *
         * @return whether this is neither PENDING, RUNNING nor RETRY_WAIT
         */
        public boolean terminal() {
            return this != PENDING && this != RUNNING && this != RETRY_WAIT;
        }

        /**
         * Whether the target occupies an op slot (in flight, or between attempts).
         *
         * @return whether this is RUNNING or RETRY_WAIT
         */
        public boolean active() {
            return this == RUNNING || this == RETRY_WAIT;
        }
    }

    /**
     * An op issued and not yet reported, timed out or cancelled.
     *
     * @param opId     the op's id, see {@link RolloutMachine#opId}
     * @param target   the logical target ({@link TargetRef#services()} for the services op)
     * @param address  where the op was sent (for the services op, the leader's services agent)
     * @param kind     precheck or upgrade
     * @param attempt  attempt number, from 1
     * @param issuedAt when it was issued
     * @param deadline when it times out
     */
    public record InFlightOp(String opId, TargetRef target, TargetRef address, OpKind kind, int attempt,
                             Instant issuedAt, Instant deadline) {
    }

    /** What an op asks an agent to do. */
    public enum OpKind {
        /** Check the target can be upgraded; changes nothing. */
        PRECHECK,
        /** Move the target to the rollout's version. */
        UPGRADE
    }

    /** The outcome an agent reports for an op. */
    public enum OpStatus {
        /** The op did what it was asked. */
        SUCCEEDED,
        /** The op failed; the message says why. */
        FAILED
    }

    /**
     * Where one rollout is: its phase and how many of its targets (nodes, the services op, devices) are done.
     *
     * @param phase the rollout's phase
     * @param done  targets nothing more will happen to (succeeded, failed, skipped, cancelled, removed)
     * @param total every target of the rollout
     */
    public record RolloutProgress(Phase phase, int done, int total) {

        /**
         * Validates and normalises the components.
         *
         * @param phase the rollout's phase
         * @param done  targets nothing more will happen to (succeeded, failed, skipped, cancelled, removed)
         * @param total every target of the rollout
         */
        public RolloutProgress {
            Objects.requireNonNull(phase, "phase");
            if (done < 0 || total < done) {
                throw new IllegalArgumentException("done: bad value '" + done + "': needs 0 <= done <= total (" + total + ")");
            }
        }

        /**
         * The progress of {@code state}.
         *
         * @param state a rollout's state
         * @return its phase and targets done / total
         */
        public static RolloutProgress of(RolloutState state) {
            int done = 0;
            for (TargetRecord target : state.targets()) {
                if (target.status().terminal()) {
                    done++;
                }
            }
            return new RolloutProgress(state.phase(), done, state.targets().size());
        }
    }

    /**
     * The persisted JSON form of a {@link RolloutState}: {@code {"formatVersion": 1, "state": {…}}}. Every store
     * writes this text (PostgreSQL as JSONB), so a state written by one backend reads back in any other, and a
     * future format change is detected instead of misread.
     */
    public static final class RolloutStateJson {

        /** The format this version of hotspare writes and reads. */
        public static final int FORMAT_VERSION = 1;

        private RolloutStateJson() {
        }

        /** The document shape. */
        record Document(int formatVersion, RolloutState state) {
            @JsonCreator
            Document(@JsonProperty("formatVersion") Integer formatVersion, @JsonProperty("state") RolloutState state) {
                this(formatVersion == null ? -1 : formatVersion, state);
            }
        }

        /**
         * {@code state} as one line of JSON.
         *
         * @return {@code {"formatVersion": 1, "state": {…}}}
         */
        public static String write(RolloutState state) {
            return Documents.toJsonLine(new Document(FORMAT_VERSION, state));
        }

        /**
         * Reads a state written by {@link #write}.
         *
         * @param json the document
         * @throws ValidationException if the text is not a state document, or has another format version
         */
        public static RolloutState read(String json) {
            Document doc = Documents.read(json, Documents.Format.JSON, Document.class);
            if (doc.formatVersion() != FORMAT_VERSION) {
                throw new ValidationException(Problem.of("formatVersion", doc.formatVersion(),
                        "this hotspare reads rollout state format " + FORMAT_VERSION));
            }
            if (doc.state() == null) {
                throw new ValidationException(Problem.of("state", Problem.MISSING, "required field is missing"));
            }
            return doc.state();
        }
    }
}
