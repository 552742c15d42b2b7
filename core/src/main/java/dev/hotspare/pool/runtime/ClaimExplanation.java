package dev.hotspare.pool.runtime;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.ClaimClass;
import dev.hotspare.pool.ClaimOutcome;
import dev.hotspare.pool.ClaimReason;
import dev.hotspare.pool.ClaimStages;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link PoolController#explain} says about one live claim: the claim as stored (with its created, assigned
 * and ready times, its class, deadline and served outcome), its one current reason, and how its wait so far splits
 * into queue, resume and install.
 *
 * @param claim  the claim as the claim store has it
 * @param reason why it is where it is: what it waits for, or the member it holds
 * @param waited its wait by stage: so far while it waits, the whole wait once served (zero parts when this
 *               controller did not see it wait)
 */
public record ClaimExplanation(String pool, Claim claim, ClaimReason reason, ClaimStages waited) {

    /**
     * Checks the fields.
     *
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

    /**
     * The claim's priority class.
     */
    public ClaimClass claimClass() {
        return claim.claimClass();
    }

    /**
     * The claim's deadline.
     *
     * @return when it must be served by, if it has one
     */
    public Optional<Instant> deadline() {
        return claim.deadline();
    }

    /**
     * How the claim was served, once it was (ended claims are not live, so explain has nothing to say about them).
     *
     * @return a served kind, or empty while pending or when the store kept none
     */
    public Optional<ClaimOutcome> outcome() {
        return claim.outcome();
    }
}
