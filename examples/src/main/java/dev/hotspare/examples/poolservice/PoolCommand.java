package dev.hotspare.examples.poolservice;

import java.time.Duration;
import java.util.Optional;

/** What a user can ask the pool service, one per stdin line. A closed set: the parser yields only these. */
public sealed interface PoolCommand {

    /** {@code claim <name> [lifetime]}: ask for a member; the lifetime defaults to the pool's claimLifetime. */
    record Claim(String name, Optional<Duration> lifetime) implements PoolCommand {
    }

    /** {@code release <name>}: give a claimed member back (it is deleted; a claimed member is never reused). */
    record Release(String name) implements PoolCommand {
    }

    /**
     * {@code explain <name>}: why a claim waits (one reason, with the member and when it should be ready), or what
     * it holds.
     *
     * @param name the claim
     */
    record Explain(String name) implements PoolCommand {
    }

    /** {@code delete}: delete the pool — no new claims, unclaimed members go, claimed ones stay until released. */
    record Delete() implements PoolCommand {
    }

    /** {@code status}: the per-member state table. */
    record Status() implements PoolCommand {
    }

    /** {@code help}: the command list. */
    record Help() implements PoolCommand {
    }

    /** {@code quit}: print the final status and stop. */
    record Quit() implements PoolCommand {
    }
}
