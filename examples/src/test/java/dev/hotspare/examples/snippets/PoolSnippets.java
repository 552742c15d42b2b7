package dev.hotspare.examples.snippets;

import dev.hotspare.fleet.lock.spi.LockStore;
import dev.hotspare.ownership.runtime.OwnershipMember;
import dev.hotspare.pool.Claim.ClaimClass;
import dev.hotspare.pool.ClaimRequest;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.TaskScheduler;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

/** The snippets of docs/pools.md after the first (which is {@code PoolsFirstLook}); compiled, the names they use are parameters. */
final class PoolSnippets {

    private PoolSnippets() {
    }

    static void claimClasses(PoolController controller, Clock clock) {
        // snippet: docs/pools.md#1
        ClaimHandle handle = controller.claim(ClaimRequest.of("pr-4711")
                .withClass(new ClaimClass("interactive", 10))        // name: a DNS-1123 label; higher priority first
                .withDeadline(clock.instant().plus(Duration.ofMinutes(5)))
                .withLifetime(Duration.ofHours(2)));
        handle.member();    // completes with the member, or exceptionally with ClaimExpiredException
        handle.outcome();   // SERVED_HOT | SERVED_WARM | SERVED_COLD | WITHDRAWN | EXPIRED
        // end snippet
    }

    static void twoPhase(PoolController pool) throws Exception {
        // snippet: docs/pools.md#2
        ClaimHandle reserved = pool.reserve("checkout-7f3a", Duration.ofSeconds(30)); // returns at once
        Member member = reserved.member().get();          // as claim(): completes when a member is assigned
        pool.confirm("checkout-7f3a");                     // Optional<Reservation>: now an ordinary claim
        // end snippet
    }

    static void ownership(PoolSpec spec, MemberDriver driver, ClaimStore claims, LockStore sharedLocks, TaskScheduler tasks) {
        // snippet: docs/pools.md#3
        OwnershipMember member = OwnershipMember.builder("pod-a").lockStore(sharedLocks).scheduler(tasks).build();
        OwnershipMember.OwnedKeys pools = member.track("pool", () -> List.of("ci", "gpu"));
        PoolController ci = PoolController.builder(spec).memberDriver(driver).claimStore(claims).scheduler(tasks)
                .owned(() -> pools.fence("ci").isPresent()).build().start();
        member.start();
        // end snippet
    }
}
