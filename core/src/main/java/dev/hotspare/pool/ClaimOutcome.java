package dev.hotspare.pool;

import java.util.Locale;

/**
 * How a claim ended its wait. Every claim made through a pool controller gets exactly one outcome: one of the
 * three served kinds when a member is assigned, or {@link #WITHDRAWN} / {@link #EXPIRED} when it leaves the queue
 * without one. Releasing a served claim later does not change its outcome.
 */
public enum ClaimOutcome {
    /** Served by a member that was already running when the claim arrived. */
    SERVED_HOT,
    /** Served by a member that was installed (hibernated) when the claim arrived and had to resume. */
    SERVED_WARM,
    /** Served by a member installed after the claim arrived. */
    SERVED_COLD,
    /** Withdrawn by the claimer (released or cancelled) before it was served. */
    WITHDRAWN,
    /** Its deadline passed before it was served; it was removed from the queue. */
    EXPIRED;

    /**
     * The served outcome for a claim served as {@code service}.
     *
     * @param service how the claim was served (see {@link ClaimService#classify})
     * @return SERVED_HOT, SERVED_WARM or SERVED_COLD
     */
    public static ClaimOutcome served(ClaimService service) {
        return switch (service) {
            case HOT -> SERVED_HOT;
            case WARM -> SERVED_WARM;
            case COLD -> SERVED_COLD;
        };
    }

    /**
     * Whether the claim got a member.
     *
     * @return true for the three served kinds
     */
    public boolean isServed() {
        return this == SERVED_HOT || this == SERVED_WARM || this == SERVED_COLD;
    }

    /**
     * Lower-case name, as used in metric tags.
     *
     * @return e.g. {@code served_hot}
     */
    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
