package dev.hotspare.pool;

import java.time.Instant;

/**
 * How a claim was served, judged from the state its member was in when the claim arrived. The one
 * classification used by the live {@link dev.hotspare.pool.runtime.PoolController} and by the simulator, so their
 * numbers compare.
 */
public enum ClaimService {
    /** Its member was already running when the claim arrived: served at once. */
    HOT,
    /** Its member was installed (hibernated) when the claim arrived and had to resume. */
    WARM,
    /** Its member was installed after the claim arrived: the claim waited for an install. */
    COLD;

    /**
     * Classifies a claim created at {@code claimCreatedAt} by its member as observed just before assignment.
     */
    public static ClaimService classify(Member member, Instant claimCreatedAt) {
        if (member.lastBecameRunningAt().isPresent() && !member.lastBecameRunningAt().get().isAfter(claimCreatedAt)) {
            return HOT;
        }
        if (member.installedAt().isPresent() && !member.installedAt().get().isAfter(claimCreatedAt)) {
            return WARM;
        }
        return COLD;
    }

    /** Lower-case name, as used in metric tags. */
    public String tag() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
