package dev.hotspare.fleet;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.util.Arrays;
import java.util.stream.Collectors;

/** A scheduler's state as Maestro reports it: whether its room count matches what autoscaling wants. */
public enum SchedulerState {
    /** Being created: the autoscaler does nothing. */
    CREATING("creating"),
    /** Being deleted: the autoscaler does nothing. */
    TERMINATING("terminating"),
    /** Room count matches the triggers. */
    IN_SYNC("in-sync"),
    /** More rooms are wanted (scaling up, or held back by cooldown). */
    SUBDIMENSIONED("subdimensioned"),
    /** Fewer rooms are wanted (scaling down, or held back by cooldown). */
    OVERDIMENSIONED("overdimensioned");

    private final String wireName;

    SchedulerState(String wireName) {
        this.wireName = wireName;
    }

    /**
     * The name used on the wire, e.g. {@code in-sync}.
     */
    @JsonValue
    public String wireName() {
        return wireName;
    }

    /**
     * Parses a wire name.
     */
    @JsonCreator
    public static SchedulerState parse(String text) {
        for (SchedulerState s : values()) {
            if (s.wireName.equals(text)) {
                return s;
            }
        }
        throw new ValidationException(Problem.of("state", String.valueOf(text), "unknown scheduler state; known: "
                + Arrays.stream(values()).map(SchedulerState::wireName).collect(Collectors.joining(", "))));
    }

    @Override
    public String toString() {
        return wireName;
    }
}
