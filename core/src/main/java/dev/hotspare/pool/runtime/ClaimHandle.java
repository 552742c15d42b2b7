package dev.hotspare.pool.runtime;

import dev.hotspare.pool.Member;

import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * A claim made through {@link PoolController#claim}. Its future completes with the member once one is
 * assigned (the member as it was at assignment: running), or is cancelled if the claim is released first.
 *
 * @param pool      the pool claimed from
 * @param name      the claim's name
 * @param createdAt when the claim was made
 * @param member    completes with the assigned member
 */
public record ClaimHandle(String pool, String name, Instant createdAt, CompletableFuture<Member> member) {
}
