package dev.hotspare.pool.runtime;

import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pool controller on virtual time: 40-minute installs, 5-minute resumes and 2-minute hibernations, as in the
 * runningCount design. Every runtime test of the pool extends it; after each test it checks what must hold
 * whatever the test did: no member is held by two live claims, and no member was created past {@code maxSize}.
 */
public abstract class PoolRuntimeTest {

    protected VirtualTimeScheduler time;
    protected InMemoryMemberDriver driver;
    protected InMemoryClaimStore claims;
    protected PoolController controller;
    /** The KPI listener {@link #start} plugs in (default none). */
    protected PoolListener kpis = PoolListener.NONE;
    private PoolSpec started;
    private int mostMembers;

    @BeforeEach
    void setUpPool() {
        time = VirtualTimeScheduler.startingAt2026();
        driver = driverBuilder().build();
        claims = new InMemoryClaimStore();
    }

    /** The in-memory driver's settings; a test can override the durations. */
    protected InMemoryMemberDriver.Builder driverBuilder() {
        return InMemoryMemberDriver.builder(time).installTime(Duration.ofMinutes(40)).resumeTime(Duration.ofMinutes(5))
                .hibernateTime(Duration.ofMinutes(2));
    }

    /** Starts a controller for {@code spec} on the fixture's driver and store, resyncing every minute. */
    protected PoolController start(PoolSpec spec) {
        return start(spec, driver, claims);
    }

    /** Starts a controller for {@code spec} on {@code memberDriver} and {@code claimStore} (wrappers of the fixture's). */
    protected PoolController start(PoolSpec spec, MemberDriver memberDriver, ClaimStore claimStore) {
        started = spec;
        controller = PoolController.builder(spec).memberDriver(memberDriver).claimStore(claimStore).scheduler(time)
                .resyncPeriod(Duration.ofMinutes(1)).listener(PoolListener.all(kpis, new PoolListener() {
                    @Override
                    public void onPlanApplied(String pool, dev.hotspare.pool.PoolPlan plan, java.time.Instant now) {
                        mostMembers = Math.max(mostMembers, driver.list(pool).size());
                    }
                })).build().start();
        return controller;
    }

    /** The pool's members in its total order. */
    protected List<Member> members() {
        return driver.list(poolName()).stream().sorted(Member.TOTAL_ORDER).toList();
    }

    /** The pool's members that are not being deleted, in total order. */
    protected List<Member> live() {
        return members().stream().filter(m -> m.phase() != MemberPhase.DELETING).toList();
    }

    protected String poolName() {
        return started == null ? "ci" : started.name();
    }

    @AfterEach
    void poolInvariants() {
        if (started == null) {
            return;
        }
        Map<String, String> holder = new HashMap<>();
        for (Claim claim : claims.live(started.name())) {
            claim.assignedMember().ifPresent(member -> assertThat(holder.put(member, claim.name()))
                    .as("member %s held by two live claims", member).isNull());
        }
        started.maxSize().ifPresent(max -> assertThat(mostMembers).as("members, at most maxSize").isLessThanOrEqualTo(max));
        controller.close();
    }
}
