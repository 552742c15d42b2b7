package dev.hotspare.pool.runtime;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.ClaimReason;
import dev.hotspare.pool.ClaimStages;

import java.util.Objects;

/**
 * What {@link PoolController#explain} says about one live claim: the claim as stored (with its created, assigned
 * and ready times), its one current reason, and how its wait so far splits into queue, resume and install.
 *
 * @param pool   the pool
 * @param claim  the claim as the claim store has it
 * @param reason why it is where it is: what it waits for, or the member it holds
 * @param waited its wait by stage: so far while it waits, the whole wait once served (zero parts when this
 *               controller did not see it wait)
 */
public record ClaimExplanation(String pool, Claim claim, ClaimReason reason, ClaimStages waited) {

    /**
     * Checks the fields.
     *
     * @param pool the pool
     * @param claim the claim as the claim store has it
     * @param reason why it is where it is: what it waits for, or the member it holds
     * @param waited its wait by stage: so far while it waits, the whole wait once served (zero parts when this
     * @throws NullPointerException if a field is null
     */
    public ClaimExplanation {
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(claim, "claim");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(waited, "waited");
    }
}
