package dev.hotspare.examples.poolservice;

import dev.hotspare.json.Documents;
import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pool service on the in-memory driver and virtual time (no sleeps): the demo pool (size 3, runningCount 1,
 * hibernateAfter 10 s; install 7 s, resume 3 s, hibernate 2 s) serves a claim hot at once, refills the hot set
 * with the oldest hibernated member, serves the next claim warm once that member has resumed, and hibernates
 * claimed members exactly hibernateAfter after they started running.
 */
class PoolServiceInMemoryTest {

    private final VirtualTimeScheduler time = VirtualTimeScheduler.startingAt2026();
    private final InMemoryMemberDriver driver = InMemoryMemberDriver.builder(time).installTime(DemoPool.INSTALL)
            .resumeTime(DemoPool.RESUME).hibernateTime(DemoPool.HIBERNATE).deleteTime(DemoPool.DELETE).build();
    private final InMemoryClaimStore claims = new InMemoryClaimStore();
    private final StringWriter output = new StringWriter();
    private PoolService service;

    @AfterEach
    void close() {
        if (service != null) {
            service.close();
        }
    }

    private PoolService start(PoolService.Builder builder) {
        service = builder.build().start();
        time.runDueTasks();
        return service;
    }

    private PoolService.Builder builder() {
        return PoolService.builder(DemoPool.spec(), driver, claims, time, new PrintWriter(output, true));
    }

    private Member member(String id) {
        return driver.find("ci-pool", id).orElseThrow(() -> new AssertionError("no member " + id));
    }

    private void assertPower(String id, MemberPhase phase, DesiredPower desired, ObservedPower observed) {
        Member m = member(id);
        assertThat(m.phase()).as("%s phase", id).isEqualTo(phase);
        assertThat(m.desiredPower()).as("%s desired power", id).isEqualTo(desired);
        assertThat(m.observedPower()).as("%s observed power", id).isEqualTo(observed);
    }

    @Test
    void servesHotRefillsOldestFirstServesWarmAndHibernatesClaimedMembersAfterHibernateAfter() {
        start(builder());
        // Created together: the oldest asks to run (runningCount 1), the others hibernate once installed.
        time.advanceBy(Duration.ofSeconds(9));
        assertPower("ci-pool-1", MemberPhase.READY, DesiredPower.RUNNING, ObservedPower.RUNNING);
        assertPower("ci-pool-2", MemberPhase.READY, DesiredPower.HIBERNATING, ObservedPower.HIBERNATING);
        assertPower("ci-pool-3", MemberPhase.READY, DesiredPower.HIBERNATING, ObservedPower.HIBERNATING);

        // t+9s: claim a is served hot, at once, by the one running member.
        ClaimHandle a = service.claim("a", Optional.empty()).orElseThrow();
        time.runDueTasks();
        assertThat(a.member()).isCompleted();
        assertThat(a.member().join().id()).isEqualTo("ci-pool-1");
        assertThat(member("ci-pool-1").claimName()).contains("a");
        assertThat(output.toString()).contains("t+9.0s    served    a -> ci-pool-1 HOT, served immediately");
        // The hot set is refilled with the OLDEST unclaimed member (ci-pool-2, not ci-pool-3); a new member
        // replaces the claimed one and hibernates.
        assertPower("ci-pool-2", MemberPhase.READY, DesiredPower.RUNNING, ObservedPower.RESUMING);
        assertPower("ci-pool-3", MemberPhase.READY, DesiredPower.HIBERNATING, ObservedPower.HIBERNATING);
        assertPower("ci-pool-4", MemberPhase.PROVISIONING, DesiredPower.HIBERNATING, ObservedPower.UNKNOWN);
        assertThat(output.toString()).contains("t+9.0s    resume    ci-pool-2, created t+0.0s: running slot 1 of 1 "
                + "(runningCount 1 + 0 waiting claims; the oldest unclaimed members run: hot set refilled oldest-first)");

        // t+10s: claim b finds nothing running; it takes an extra running slot, so ci-pool-3 resumes too.
        time.advanceBy(Duration.ofSeconds(1));
        ClaimHandle b = service.claim("b", Optional.empty()).orElseThrow();
        time.runDueTasks();
        assertThat(b.member()).isNotDone();
        assertPower("ci-pool-3", MemberPhase.READY, DesiredPower.RUNNING, ObservedPower.RESUMING);
        assertThat(output.toString()).contains("resume    ci-pool-3, created t+0.0s: running slot 2 of 2 (runningCount 1 + 1 waiting claims");

        // t+12s: ci-pool-2 has resumed (3 s) and goes to b, warm, after a 2 s wait.
        time.advanceBy(Duration.ofMillis(1999));
        assertThat(b.member()).isNotDone();
        time.advanceBy(Duration.ofMillis(1));
        assertThat(b.member().join().id()).isEqualTo("ci-pool-2");
        assertThat(output.toString()).contains("t+12.0s   served    b -> ci-pool-2 WARM after 2.0s: it was installed but had to resume");

        // hibernateAfter 10 s: ci-pool-1 (claimed and running since t+9s) hibernates at t+19s, not before.
        time.advanceTo(time.now().plus(Duration.ofSeconds(6)).plusMillis(999));
        assertPower("ci-pool-1", MemberPhase.READY, DesiredPower.RUNNING, ObservedPower.RUNNING);
        time.advanceBy(Duration.ofMillis(1));
        assertThat(time.now()).isEqualTo(DemoPoolTimes.START.plusSeconds(19));
        assertPower("ci-pool-1", MemberPhase.READY, DesiredPower.HIBERNATING, ObservedPower.HIBERNATING_IN_PROGRESS);
        assertThat(output.toString()).contains("t+19.0s   hibernate ci-pool-1 (claimed by a): claimed and running since t+9.0s, hibernateAfter 10.0s elapsed");
        time.advanceBy(Duration.ofSeconds(2));
        assertPower("ci-pool-1", MemberPhase.READY, DesiredPower.HIBERNATING, ObservedPower.HIBERNATING);
        assertThat(member("ci-pool-1").claimName()).contains("a");
        // ci-pool-2 started running at t+12s: it hibernates at t+22s. Unclaimed ci-pool-3 keeps running: the pool owns its power.
        time.advanceBy(Duration.ofSeconds(1));
        assertPower("ci-pool-2", MemberPhase.READY, DesiredPower.HIBERNATING, ObservedPower.HIBERNATING_IN_PROGRESS);
        assertPower("ci-pool-3", MemberPhase.READY, DesiredPower.RUNNING, ObservedPower.RUNNING);

        output.getBuffer().setLength(0);
        service.handle(new PoolCommand.Status());
        assertThat(output.toString().lines()).containsSubsequence(
                "pool ci-pool: size 3, runningCount 1, hibernateAfter 10.0s | unclaimed 3 (running 1, standby 2, "
                        + "provisioning 0, broken 0), claimed 2, deleting 0, pending claims 0",
                "MEMBER                   CREATED   PHASE        DESIRED      OBSERVED                 SINCE     CLAIM",
                "ci-pool-1                t+0.0s    READY        HIBERNATING  HIBERNATING              t+21.0s   a (since t+9.0s)",
                "ci-pool-2                t+0.0s    READY        HIBERNATING  HIBERNATING_IN_PROGRESS  t+22.0s   b (since t+12.0s)",
                "ci-pool-3                t+0.0s    READY        RUNNING      RUNNING                  t+13.0s   -",
                "ci-pool-4                t+9.0s    READY        HIBERNATING  HIBERNATING              t+18.0s   -",
                "ci-pool-5                t+10.0s   READY        HIBERNATING  HIBERNATING              t+19.0s   -",
                "served so far: 1 hot, 1 warm, 0 cold");
    }

    @Test
    void releasingAClaimDeletesItsMemberAndTheCommandsReportUnknownNames() {
        start(builder());
        time.advanceBy(Duration.ofSeconds(9));
        service.handle(new PoolCommand.Claim("a", Optional.of(Duration.ofMinutes(5))));
        time.runDueTasks();
        service.handle(new PoolCommand.Claim("a", Optional.empty()));
        assertThat(output.toString()).contains("error     claim.name: bad value 'a': a live claim of that name exists");
        service.handle(new PoolCommand.Release("a"));
        time.runDueTasks();
        assertThat(member("ci-pool-1").phase()).isEqualTo(MemberPhase.DELETING);
        time.advanceBy(DemoPool.DELETE);
        assertThat(driver.find("ci-pool", "ci-pool-1")).isEmpty();
        service.handle(new PoolCommand.Release("nobody"));
        assertThat(output.toString()).contains("error     release.name: bad value 'nobody': no live claim of that name");
        service.handle(new PoolCommand.Quit());
        assertThat(service.finished()).isCompletedWithValue("quit");
    }

    @Test
    void theScriptStartsOnceThePoolHasSettledAndFinishesWhenClaimedMembersHaveHibernated() {
        start(builder().script(new PoolService.Script(2, Duration.ofSeconds(2), Optional.empty())));
        time.advanceBy(Duration.ofSeconds(8));
        assertThat(claims.live("ci-pool")).isEmpty();
        time.advanceBy(Duration.ofSeconds(1));
        assertThat(claims.live("ci-pool")).extracting(c -> c.name()).containsExactly("demo-1");
        time.advanceBy(Duration.ofSeconds(30));
        assertThat(service.finished()).isCompletedWithValue("script done");
        assertThat(service.servedCounts()).containsExactly(1, 1, 0);
        assertThat(output.toString()).contains("t+9.0s    script    pool settled; 2 claims follow, one every 2.0s",
                "served    demo-1 -> ci-pool-1 HOT", "served    demo-2 -> ci-pool-2 WARM after 1.0s");
    }

    @Test
    void aWaitingClaimSaysWhatItWaitsForInStatusAndExplain() {
        start(builder());
        time.advanceBy(Duration.ofSeconds(9));
        service.claim("a", Optional.empty());
        time.advanceBy(Duration.ofSeconds(1));
        service.claim("b", Optional.empty());
        time.advanceBy(Duration.ofSeconds(2));
        service.claim("c", Optional.empty());
        time.runDueTasks();
        output.getBuffer().setLength(0);

        service.handle(new PoolCommand.Status());
        service.handle(new PoolCommand.Explain("c"));
        service.handle(new PoolCommand.Explain("b"));
        service.handle(new PoolCommand.Explain("nobody"));

        assertThat(output.toString().lines()).contains(
                "templates: 4 current, 0 stale, 0 unknown (all current)",
                "claim c waiting since t+12.0s: WAITING_FOR_RESUME ci-pool-3 (resuming since t+10.0s, expected running t+13.0s)");
        assertThat(output.toString()).contains(
                "explain   c: WAITING_FOR_RESUME ci-pool-3 (resuming since t+10.0s, expected running t+13.0s); created t+12.0s; "
                        + "waited queue 0.0s, resume 0.0s, install 0.0s",
                "explain   b: ASSIGNED ci-pool-2 (since t+12.0s, ready t+12.0s); created t+10.0s, assigned t+12.0s, ready t+12.0s; "
                        + "waited queue 0.0s, resume 2.0s, install 0.0s",
                "error     explain.name: bad value 'nobody': no live claim of that name");
    }

    @Test
    void deletingThePoolRefusesClaimsKeepsClaimedMembersAndStopsWhenTheLastOneIsGone() {
        start(builder());
        time.advanceBy(Duration.ofSeconds(9));
        service.claim("a", Optional.empty());
        time.runDueTasks();

        service.handle(new PoolCommand.Delete());
        time.advanceBy(Duration.ofSeconds(10));
        service.handle(new PoolCommand.Claim("late", Optional.empty()));
        output.getBuffer().setLength(0);
        service.handle(new PoolCommand.Status());
        assertThat(output.toString()).contains("pool being deleted; waiting for ci-pool-1 (claimed by a)");
        assertThat(service.finished()).isNotDone();

        service.handle(new PoolCommand.Release("a"));
        time.advanceBy(Duration.ofSeconds(5));
        assertThat(service.finished()).isCompletedWithValue("pool deleted");
        assertThat(driver.list("ci-pool")).isEmpty();
    }

    @Test
    void examplesPoolYamlIsTheBuiltInDemoPool() {
        assertThat(Documents.read(Path.of("pool.yaml"), PoolSpec.class)).isEqualTo(DemoPool.spec());
    }

    /** The virtual clock's origin, for readable absolute assertions. */
    private static final class DemoPoolTimes {
        static final java.time.Instant START = java.time.Instant.parse("2026-01-01T00:00:00Z");
    }
}
