package dev.hotspare.examples;

import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.time.VirtualTimeScheduler;

import java.time.Duration;

/**
 * The first snippet of docs/pools.md: a claim on a fresh pool waits while the members install, says why, and gets
 * a member once virtual time has passed. {@code DocSnippetsTest} fails when the doc and this file drift apart.
 */
public final class PoolsFirstLook {

    private PoolsFirstLook() {
    }

    /**
     * Runs the snippet.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        // snippet: docs/pools.md
        VirtualTimeScheduler time = VirtualTimeScheduler.startingAt2026();   // or TaskScheduler.system(executor, clock)
        InMemoryMemberDriver driver = InMemoryMemberDriver.builder(time)
                .installTime(Duration.ofMinutes(40)).resumeTime(Duration.ofMinutes(5)).build();
        PoolController pool = PoolController.builder(
                        PoolSpec.builder("ci-pool").size(4).runningCount(2).hibernateAfter(Duration.ofHours(2)).build())
                .memberDriver(driver).claimStore(new InMemoryClaimStore())
                .scheduler(time).build().start();

        ClaimHandle claim = pool.claim("pr-1234");          // returns at once
        System.out.println(pool.explain("pr-1234").orElseThrow().reason().text());   // waiting for a new member to be installed (since 2026-01-01T00:00:00Z)
        time.advanceBy(Duration.ofMinutes(45));              // virtual time: the members install
        Member member = claim.member().join();               // completed: a running member was assigned
        System.out.println(member.id() + " at " + time.now());               // ci-pool-1 at 2026-01-01T00:45:00Z
        pool.release(claim);                                 // the member is marked released, then deleted; the pool refills
        // end snippet
        pool.close();
    }
}
