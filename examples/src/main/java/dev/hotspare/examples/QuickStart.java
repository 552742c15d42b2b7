package dev.hotspare.examples;

import dev.hotspare.json.Documents;
import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.time.VirtualTimeScheduler;

import java.time.Duration;

/** The README's quick start: a pool on the in-memory default, one claim, the plan printed. */
public final class QuickStart {

    private QuickStart() {
    }

    public static void main(String[] args) {
        // snippet: README.md#0
        VirtualTimeScheduler time = VirtualTimeScheduler.startingAt2026();   // or TaskScheduler.system(executor, clock)
        InMemoryMemberDriver driver = InMemoryMemberDriver.builder(time)
                .installTime(Duration.ofMinutes(40)).resumeTime(Duration.ofMinutes(5)).build();
        PoolSpec spec = PoolSpec.builder("ci-pool").size(3).runningCount(1).build();
        PoolController pool = PoolController.builder(spec).memberDriver(driver).claimStore(new InMemoryClaimStore())
                .scheduler(time).build().start();
        time.advanceBy(Duration.ofMinutes(45));                             // members install on virtual time

        ClaimHandle claim = pool.claim("pr-1234");                          // served at once: a member runs
        PoolPlan plan = pool.reconcile();                                   // one observe -> plan -> apply pass
        System.out.println("claimed " + claim.member().join().id() + " at " + time.now());
        System.out.println(Documents.toJson(plan));                          // hot-set refill, replacement
        pool.release(claim);
        // end snippet
        pool.close();
    }
}
