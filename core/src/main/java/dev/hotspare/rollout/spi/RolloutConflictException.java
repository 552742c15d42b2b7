package dev.hotspare.rollout.spi;

import dev.hotspare.rollout.TargetRef;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A {@link RolloutStore#save} would give targets to a rollout while another rollout in progress holds them: a
 * target belongs to one rollout at a time (see {@link dev.hotspare.rollout.RolloutState#coveredTargets()}).
 * Nothing was saved. Unlike {@link StaleRolloutVersionException}, deciding again does not help: finish or abort
 * the other rollout, or leave the targets out.
 */
public final class RolloutConflictException extends RuntimeException {

    /** Targets named in the message per rollout; the exception keeps them all. */
    private static final int SHOWN = 10;

    /** The rollout whose save was refused. */
    private final String rollout;
    /** Rollout in progress to the targets it holds. */
    private final Map<String, List<TargetRef>> heldBy;

    /**
     * A refused save.
     *
     * @param rollout the rollout whose save was refused
     * @param heldBy  each rollout in progress that holds some of its targets, with those targets
     */
    public RolloutConflictException(String rollout, Map<String, List<TargetRef>> heldBy) {
        super(message(Objects.requireNonNull(rollout, "rollout"), heldBy));
        this.rollout = rollout;
        TreeMap<String, List<TargetRef>> copy = new TreeMap<>();
        heldBy.forEach((other, targets) -> copy.put(other, targets.stream().sorted().toList()));
        this.heldBy = java.util.Collections.unmodifiableMap(copy);
    }

    private static String message(String rollout, Map<String, List<TargetRef>> heldBy) {
        String held = new TreeMap<>(heldBy).entrySet().stream().map(e -> {
            List<TargetRef> targets = e.getValue().stream().sorted().toList();
            String names = targets.subList(0, Math.min(SHOWN, targets.size())).stream().map(TargetRef::toString)
                    .collect(Collectors.joining(", "));
            String more = targets.size() > SHOWN ? " and " + (targets.size() - SHOWN) + " more" : "";
            return "rollout '" + e.getKey() + "' (" + names + more + ")";
        }).collect(Collectors.joining("; "));
        return "rollout '" + rollout + "' covers targets of a rollout in progress: " + held
                + "; a target belongs to one rollout at a time (finish or abort the other rollout first)";
    }

    /**
     * The rollout whose save was refused.
     *
     * @return its name
     */
    public String rollout() {
        return rollout;
    }

    /**
     * The rollouts in progress that hold the targets, each with the targets it holds.
     *
     * @return rollout name to targets, sorted
     */
    public Map<String, List<TargetRef>> heldBy() {
        return heldBy;
    }
}
