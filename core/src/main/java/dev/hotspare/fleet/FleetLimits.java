package dev.hotspare.fleet;

import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The bounds every number a user sends to a fleet must stay within, so that no single config or request can ask
 * for work or memory out of proportion (a scale-up of 2,147,483,647 rooms, a trigger window of Long.MAX seconds).
 * Config validation ({@link SchedulerConfig#validate(java.util.Set, FleetLimits)}, {@code hotspare validate}) and
 * the scaling operations check them, and each refusal names the field, the value and the limit. Counts are
 * configurable; the quantity bounds are fixed (see {@link #MIN_CPU} and the constants after it).
 *
 * @param maxRooms              most rooms one scheduler may have ({@code autoscaling.min}, {@code autoscaling.max},
 *                              {@code replicas}, a scale-up's result)
 * @param maxScaleStep          most rooms one scale step adds or removes ({@code scaleup}, {@code scaledown}, a
 *                              trigger's {@code delta}); larger changes are made in steps of this size
 * @param maxDurationSeconds    longest {@code occupiedTimeout}, {@code shutdownTimeout} and {@code cooldown}
 * @param maxTriggerTimeSeconds longest trigger {@code time} (the window of usage history a trigger reads)
 */
public record FleetLimits(int maxRooms, int maxScaleStep, long maxDurationSeconds, long maxTriggerTimeSeconds) {

    /** The defaults: 10,000 rooms per scheduler, 1,000 per step, 7 days, 1 day. */
    public static final FleetLimits DEFAULT = new FleetLimits(10_000, 1_000, 7L * 24 * 3600, 24L * 3600);

    /** Smallest positive cpu request or limit: one millicore ({@code 1m}); below it utilization is meaningless. */
    public static final BigDecimal MIN_CPU = new BigDecimal("0.001");
    /** Largest cpu request or limit: 10,000 cores. */
    public static final BigDecimal MAX_CPU = new BigDecimal("10000");
    /** Smallest positive memory request or limit: one byte. */
    public static final BigDecimal MIN_MEMORY = BigDecimal.ONE;
    /** Largest memory request or limit: 1 PiB. */
    public static final BigDecimal MAX_MEMORY = BigDecimal.valueOf(1L << 50);

    /**
     * Checks the limits themselves.
     *
     * @throws ValidationException naming each limit that is not positive or is inconsistent
     * @param maxRooms most rooms one scheduler may have ({@code autoscaling.min}, {@code autoscaling.max}, {@code
     *         replicas}, a scale-up's result)
     * @param maxScaleStep most rooms one scale step adds or removes ({@code scaleup}, {@code scaledown}, a trigger's
     *         {@code delta}); larger changes are made in steps of this size
     * @param maxDurationSeconds longest {@code occupiedTimeout}, {@code shutdownTimeout} and {@code cooldown}
     * @param maxTriggerTimeSeconds longest trigger {@code time} (the window of usage history a trigger reads)
     */
    public FleetLimits {
        List<Problem> problems = new ArrayList<>();
        if (maxRooms < 1) {
            problems.add(Problem.of("maxRooms", maxRooms, "must be at least 1"));
        }
        if (maxScaleStep < 1) {
            problems.add(Problem.of("maxScaleStep", maxScaleStep, "must be at least 1"));
        } else if (maxScaleStep > maxRooms && maxRooms >= 1) {
            problems.add(Problem.of("maxScaleStep", maxScaleStep, "must not exceed maxRooms (" + maxRooms + ")"));
        }
        if (maxDurationSeconds < 1 || maxDurationSeconds > MAX_SECONDS) {
            problems.add(Problem.of("maxDurationSeconds", maxDurationSeconds, "must be in 1.." + MAX_SECONDS));
        }
        if (maxTriggerTimeSeconds < 1 || maxTriggerTimeSeconds > MAX_SECONDS) {
            problems.add(Problem.of("maxTriggerTimeSeconds", maxTriggerTimeSeconds, "must be in 1.." + MAX_SECONDS));
        }
        if (!problems.isEmpty()) {
            throw new ValidationException(problems);
        }
    }

    /** Largest duration limit: ten years, far inside what {@code java.time} and every store can hold. */
    public static final long MAX_SECONDS = 10L * 366 * 24 * 3600;

    /**
     * These limits with another room bound.
     *
     * @param value the most rooms per scheduler
     * @return the new limits
     */
    public FleetLimits withMaxRooms(int value) {
        return new FleetLimits(value, Math.min(maxScaleStep, value), maxDurationSeconds, maxTriggerTimeSeconds);
    }

    /**
     * These limits with another scale step.
     *
     * @param value the most rooms per scale step
     * @return the new limits
     */
    public FleetLimits withMaxScaleStep(int value) {
        return new FleetLimits(maxRooms, value, maxDurationSeconds, maxTriggerTimeSeconds);
    }

    /**
     * The problem with a count of rooms, if it is outside {@code 0..maxRooms}, named after {@code field}.
     *
     * @param field the field path
     * @param rooms the count
     * @return a problem naming the field, the value and the limit, if any
     */
    public java.util.Optional<Problem> roomsProblem(String field, long rooms) {
        if (rooms > maxRooms) {
            return java.util.Optional.of(Problem.of(field, rooms, "must be at most " + maxRooms + " (the limit of rooms per scheduler)"));
        }
        return java.util.Optional.empty();
    }

    /**
     * The problem with a scale step, if it is above {@code maxScaleStep}, named after {@code field}.
     *
     * @param field the field path
     * @param step  the number of rooms
     * @return a problem naming the field, the value and the limit, if any
     */
    public java.util.Optional<Problem> stepProblem(String field, long step) {
        if (step > maxScaleStep) {
            return java.util.Optional.of(Problem.of(field, step, "must be at most " + maxScaleStep + " (the limit of rooms per scale step)"));
        }
        return java.util.Optional.empty();
    }
}
