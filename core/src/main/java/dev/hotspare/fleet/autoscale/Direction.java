package dev.hotspare.fleet.autoscale;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/** Which way a trigger scales. */
public enum Direction {
    /** Add rooms. */
    UP,
    /** Remove rooms. */
    DOWN;

    /**
     * {@code up} / {@code down}, as in the config.
     */
    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
