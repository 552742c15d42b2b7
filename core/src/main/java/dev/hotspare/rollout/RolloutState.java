package dev.hotspare.rollout;

import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
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
}
