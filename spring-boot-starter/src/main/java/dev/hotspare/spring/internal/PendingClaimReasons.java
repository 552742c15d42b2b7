package dev.hotspare.spring.internal;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.runtime.PoolController;

import java.util.Optional;

/**
 * Why a pending claim is still waiting, for the pool health details: {@link #FROM_LAST_PLAN} reads the one typed
 * reason the controller's last plan gave the claim (what {@code PoolController.explain} answers, without reading
 * the stores again on every health check).
 */
@FunctionalInterface
public interface PendingClaimReasons {

    /** Knows no reasons. */
    PendingClaimReasons NONE = (controller, claim) -> Optional.empty();

    /** The reason the controller's last plan gave the claim, as a sentence. */
    PendingClaimReasons FROM_LAST_PLAN = (controller, claim) -> controller.lastPlan().flatMap(plan -> plan.reasons().stream()
            .filter(pending -> pending.claimName().equals(claim.name())).findFirst()).map(pending -> pending.reason().text());

    /**
     * Why {@code claim} waits.
     *
     * @param controller the claim's pool
     * @param claim      a pending claim
     * @return a sentence for people, or empty when unknown
     */
    Optional<String> reason(PoolController controller, Claim claim);
}
