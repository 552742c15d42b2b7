package dev.hotspare.spring.internal;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.runtime.PoolController;

import java.util.Optional;

/**
 * Why a pending claim is still waiting, for the pool health details. The extension point for per-claim reasons:
 * {@code PoolController} has no API for them yet, so {@link #NONE} is what the starter uses, and the health
 * details list each pending claim with its wait only. When the controller can explain a claim, an implementation
 * over that call replaces {@link #NONE} in {@code HotspareHealthAutoConfiguration} and nothing else changes.
 */
@FunctionalInterface
public interface PendingClaimReasons {

    /** Knows no reasons. */
    PendingClaimReasons NONE = (controller, claim) -> Optional.empty();

    /**
     * Why {@code claim} waits.
     *
     * @param controller the claim's pool
     * @param claim      a pending claim
     * @return a sentence for people, or empty when unknown
     */
    Optional<String> reason(PoolController controller, Claim claim);
}
