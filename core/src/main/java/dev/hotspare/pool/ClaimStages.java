package dev.hotspare.pool;

import dev.hotspare.validation.Problems;

import java.time.Duration;
import java.util.Objects;

/**
 * A claim's wait split by {@link WaitStage}: how long it queued, waited for a resume and waited for an install.
 * The parts add up to the whole wait, from the claim's creation to its member being handed over.
 *
 * @param queue   time with no member on its way for it
 * @param resume  time waiting for a member to resume
 * @param install time waiting for a member to be installed
 */
public record ClaimStages(Duration queue, Duration resume, Duration install) {

    /** No wait at all: a claim served on the pass that saw it, from a running member. */
    public static final ClaimStages NONE = new ClaimStages(Duration.ZERO, Duration.ZERO, Duration.ZERO);

    /**
     * Checks that no part is negative.
     *
     * @param queue time with no member on its way for it
     * @param resume time waiting for a member to resume
     * @param install time waiting for a member to be installed
     * @throws dev.hotspare.validation.ValidationException naming the negative part
     */
    public ClaimStages {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(resume, "resume");
        Objects.requireNonNull(install, "install");
        new Problems().require(!queue.isNegative(), "queue", queue, "must not be negative")
                .require(!resume.isNegative(), "resume", resume, "must not be negative")
                .require(!install.isNegative(), "install", install, "must not be negative")
                .throwIfAny();
    }

    /**
     * The whole wait.
     *
     * @return queue + resume + install
     */
    public Duration total() {
        return queue.plus(resume).plus(install);
    }

    /**
     * The part spent in {@code stage}.
     *
     * @return its duration
     */
    public Duration of(WaitStage stage) {
        return switch (stage) {
            case QUEUE -> queue;
            case RESUME -> resume;
            case INSTALL -> install;
        };
    }

    /**
     * These stages with {@code duration} more spent in {@code stage}; a negative duration adds nothing.
     *
     * @param stage    where the time went
     * @param duration how much
     * @return the sum
     */
    public ClaimStages plus(WaitStage stage, Duration duration) {
        if (duration.isNegative() || duration.isZero()) {
            return this;
        }
        return switch (stage) {
            case QUEUE -> new ClaimStages(queue.plus(duration), resume, install);
            case RESUME -> new ClaimStages(queue, resume.plus(duration), install);
            case INSTALL -> new ClaimStages(queue, resume, install.plus(duration));
        };
    }
}
