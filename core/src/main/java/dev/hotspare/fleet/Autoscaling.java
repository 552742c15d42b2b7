package dev.hotspare.fleet;

import java.util.Optional;

/**
 * The autoscaling section of a scheduler config.
 *
 * @param min              rooms (creating + ready + allocated + occupied) never to go below
 * @param max              rooms never to go above; 0 means unbounded
 * @param up               scale-up triggers and cooldown
 * @param down             scale-down triggers and cooldown
 * @param enablePanicScale opt-in: scale up at once when a room reports occupied and occupancy is above the
 *                         up trigger's limit (deprecated in Maestro, off by default)
 * @param policy           Maestro 10: one policy naming the number of rooms, instead of triggers (the
 *                         directions' cooldowns still apply)
 */
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
public record Autoscaling(int min, int max, ScalingSpec up, ScalingSpec down, boolean enablePanicScale,
                          Optional<PolicySpec> policy) {

    /** No rooms required, no triggers. */
    public static final Autoscaling NONE = new Autoscaling(0, 0, ScalingSpec.NONE, ScalingSpec.NONE, false);

    /**
     * Fills in absent directions and policy.
     *
     * @param min rooms never to go below
     * @param max rooms never to go above; 0 means unbounded
     * @param up scale-up triggers and cooldown
     * @param down scale-down triggers and cooldown
     * @param enablePanicScale opt-in: scale up at once when a room reports occupied and occupancy is above the up
     *         trigger's limit (deprecated in Maestro, off by default)
     * @param policy Maestro 10: one policy naming the number of rooms, instead of triggers (the directions' cooldowns
     *         still apply)
     */
    public Autoscaling {
        up = up == null ? ScalingSpec.NONE : up;
        down = down == null ? ScalingSpec.NONE : down;
        policy = policy == null ? Optional.empty() : policy;
    }

    /**
     * Autoscaling by triggers (no Maestro 10 policy).
     *
     * @param min              rooms never to go below
     * @param max              rooms never to go above; 0 means unbounded
     * @param up               scale-up triggers and cooldown
     * @param down             scale-down triggers and cooldown
     * @param enablePanicScale opt-in panic scale
     */
    public Autoscaling(int min, int max, ScalingSpec up, ScalingSpec down, boolean enablePanicScale) {
        this(min, max, up, down, enablePanicScale, Optional.empty());
    }

    /**
     * Autoscaling by a Maestro 10 policy.
     *
     * @param min    rooms never to go below
     * @param max    rooms never to go above; 0 means unbounded
     * @return the section
     */
    public static Autoscaling byPolicy(int min, int max, PolicySpec policy) {
        return new Autoscaling(min, max, ScalingSpec.NONE, ScalingSpec.NONE, false, Optional.of(policy));
    }

    /**
     * This section with other cooldowns, in seconds.
     *
     * @param upSeconds   the up cooldown
     * @param downSeconds the down cooldown
     * @return the new section
     */
    public Autoscaling withCooldowns(long upSeconds, long downSeconds) {
        return new Autoscaling(min, max, new ScalingSpec(up.metricsTrigger(), upSeconds, up.delta(), up.trigger()),
                new ScalingSpec(down.metricsTrigger(), downSeconds, down.delta(), down.trigger()), enablePanicScale, policy);
    }

    /**
     * Whether {@link #max()} bounds the room count.
     */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isBounded() {
        return max > 0;
    }
}
