package dev.hotspare.rollout;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.time.Duration;
import java.util.Optional;

/**
 * How long one op may take before it counts as failed (and is cancelled). Prechecks use the timeout of
 * their target's kind.
 *
 * <p>The device timeout, unless set, grows with the parallelism of the group the device is in, as the Venice
 * rollout controller's does: {@value #DEVICE_BASE_SECONDS} s times {@code floor(parallelism / }{@value #DEVICES_PER_STEP}{@code )},
 * at least once and without a cap — 480 s up to 19 devices at once, 960 s from 20, 1,440 s at 30, 4,800 s at 100
 * (more devices upgrading at once share the same image servers and links, so each takes longer).
 *
 * @param node     per node op; default 30 minutes
 * @param services the services op; default 30 minutes
 * @param device   per device op; empty = scaled with parallelism, see {@link #device(int)}
 */
public record OpTimeouts(Duration node, Duration services, Optional<Duration> device) {

    /** Default node op timeout. */
    public static final Duration DEFAULT_NODE = Duration.ofMinutes(30);
    /** Default services op timeout. */
    public static final Duration DEFAULT_SERVICES = Duration.ofMinutes(30);
    /** Base of the scaled device timeout, in seconds. */
    public static final int DEVICE_BASE_SECONDS = 480;
    /** Base of the scaled device timeout. */
    public static final Duration DEVICE_BASE = Duration.ofSeconds(DEVICE_BASE_SECONDS);
    /** Each full step of this many devices at once adds one {@link #DEVICE_BASE} to the scaled device timeout. */
    public static final int DEVICES_PER_STEP = 10;

    /**
     * Normalises a null device timeout to empty.
     *
     * @param node     per node op; default 30 minutes
     * @param services the services op; default 30 minutes
     * @param device   per device op; empty = scaled with parallelism, see {@link #device(int)}
     */
    public OpTimeouts {
        device = device == null ? Optional.empty() : device;
    }

    /**
     * Timeouts with an explicit device timeout.
     *
     * @param node     per node op
     * @param services the services op
     * @param device   per device op, whatever the parallelism
     */
    public OpTimeouts(Duration node, Duration services, Duration device) {
        this(node, services, Optional.ofNullable(device));
    }

    /**
     * The defaults: 30 minutes for nodes and the services op, the scaled device timeout.
     */
    public static OpTimeouts defaults() {
        return new OpTimeouts(DEFAULT_NODE, DEFAULT_SERVICES, Optional.empty());
    }

    @JsonCreator
    static OpTimeouts fromJson(@JsonProperty("node") Duration node, @JsonProperty("services") Duration services,
                               @JsonProperty("device") Duration device) {
        return new OpTimeouts(node == null ? DEFAULT_NODE : node, services == null ? DEFAULT_SERVICES : services,
                Optional.ofNullable(device));
    }

    /**
     * The scaled device timeout for {@code parallelism} devices at once, as Venice's: 480 s ×
     * {@code max(1, floor(parallelism / 10))}, no cap (30 / 40 / 100 devices: 1,440 / 1,920 / 4,800 s).
     *
     * @param parallelism device ops at once
     */
    public static Duration scaledDevice(int parallelism) {
        // Venice multiplies by the integer quotient; below 10 devices that is 0, where it keeps the base.
        int factor = Math.max(1, parallelism / DEVICES_PER_STEP);
        return DEVICE_BASE.multipliedBy(factor);
    }

    /**
     * The device timeout in effect for a group running {@code parallelism} ops at once: the explicit one if
     * set, else {@link #scaledDevice(int)}.
     *
     * @param parallelism device ops at once in the group
     */
    public Duration device(int parallelism) {
        return device.orElseGet(() -> scaledDevice(parallelism));
    }
}
