package dev.hotspare.pool;

import java.util.Locale;

/**
 * What a waiting claim's time is spent on. Every stretch of a claim's wait is attributed to one stage by the
 * {@link ClaimReason} it had then, so a claim's wait splits into {@link ClaimStages}.
 */
public enum WaitStage {
    /** Waiting with no member on its way: limits, broken members, older claims first, a deleting pool. */
    QUEUE,
    /** Waiting for a hibernated member to resume. */
    RESUME,
    /** Waiting for a member to be installed. */
    INSTALL;

    /**
     * Lower-case name, as used in metric tags.
     *
     * @return e.g. {@code queue}
     */
    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
