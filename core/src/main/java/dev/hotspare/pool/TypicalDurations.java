package dev.hotspare.pool;

import dev.hotspare.validation.Problems;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * How long installs and resumes usually take in a pool, as a pool controller has observed them. The planner
 * uses them only to tell a waiting claim when its member is expected to be ready; they never change a decision.
 *
 * @param install typical time from creation to installed
 * @param resume  typical time from starting to resume to observed running
 */
public record TypicalDurations(Optional<Duration> install, Optional<Duration> resume) {

    /** Nothing observed yet: no expected ready times. */
    public static final TypicalDurations UNKNOWN = new TypicalDurations(Optional.empty(), Optional.empty());

    /**
     * Checks that neither duration is negative.
     *
     * @param install typical time from creation to installed
     * @param resume typical time from starting to resume to observed running
     * @throws dev.hotspare.validation.ValidationException naming the negative one
     */
    public TypicalDurations {
        install = install == null ? Optional.empty() : install;
        resume = resume == null ? Optional.empty() : resume;
        Problems problems = new Problems();
        install.ifPresent(d -> problems.require(!d.isNegative(), "install", d, "must not be negative"));
        resume.ifPresent(d -> problems.require(!d.isNegative(), "resume", d, "must not be negative"));
        problems.throwIfAny();
    }

    /**
     * When a member that started installing at {@code since} is expected to be installed.
     *
     * @param since when it was created
     * @return {@code since + install}, or empty when no install was observed
     */
    public Optional<Instant> installedBy(Instant since) {
        return install.map(since::plus);
    }

    /**
     * When a member that started resuming at {@code since} is expected to run.
     *
     * @param since when the resume started
     * @return {@code since + resume}, or empty when no resume was observed
     */
    public Optional<Instant> resumedBy(Instant since) {
        return resume.map(since::plus);
    }
}
