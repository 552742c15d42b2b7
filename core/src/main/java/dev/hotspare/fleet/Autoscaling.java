package dev.hotspare.fleet;

/**
 * The autoscaling section of a scheduler config.
 *
 * @param min              rooms (creating + ready + occupied) never to go below
 * @param max              rooms never to go above; 0 means unbounded
 * @param up               scale-up triggers and cooldown
 * @param down             scale-down triggers and cooldown
 * @param enablePanicScale opt-in: scale up at once when a room reports occupied and occupancy is above the
 *                         up trigger's limit (deprecated in Maestro, off by default)
 */
public record Autoscaling(int min, int max, ScalingSpec up, ScalingSpec down, boolean enablePanicScale) {

    /** No rooms required, no triggers. */
    public static final Autoscaling NONE = new Autoscaling(0, 0, ScalingSpec.NONE, ScalingSpec.NONE, false);

    public Autoscaling {
        up = up == null ? ScalingSpec.NONE : up;
        down = down == null ? ScalingSpec.NONE : down;
    }

    /** Whether {@link #max()} bounds the room count. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isBounded() {
        return max > 0;
    }
}
