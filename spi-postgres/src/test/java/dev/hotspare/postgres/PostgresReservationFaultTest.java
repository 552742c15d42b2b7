package dev.hotspare.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Claim.Reservation;
import dev.hotspare.pool.ClaimRequest;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.MemberState;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.testkit.servers.TestPostgres;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two-phase claims through a pool controller on PostgreSQL, on virtual time: the same key gives the same member;
 * a client killed between reserve and confirm — its reserve made through a connection pool of its own, closed
 * right after — leaves no member held for it once the reservation's time has passed.
 */
class PostgresReservationFaultTest {

    private static final String SCHEMA = "hs_test_claims";
    private static final Duration TTL = Duration.ofSeconds(30);

    private final PostgresClaimStore store = new PostgresClaimStore(TestSchemas.migrated(SCHEMA), SCHEMA);
    private final String pool = "rf" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);
    private final VirtualTimeScheduler time = VirtualTimeScheduler.startingAt2026();
    private final InMemoryMemberDriver driver = InMemoryMemberDriver.builder(time).installTime(Duration.ofMinutes(1))
            .resumeTime(Duration.ofSeconds(10)).hibernateTime(Duration.ofSeconds(10)).build();

    @Test
    void aClientKilledBetweenReserveAndConfirmLeavesNoDanglingMember() {
        try (PoolController controller = PoolController.builder(PoolSpec.builder(pool).size(3).runningCount(3).build())
                .memberDriver(driver).claimStore(store).scheduler(time).resyncPeriod(Duration.ofSeconds(10)).build().start()) {
            time.advanceBy(Duration.ofMinutes(2));
            assertThat(running()).hasSize(3);

            // The client reserves through its own connection pool and dies before confirming.
            String claimName;
            try (HikariDataSource client = TestPostgres.pool(TestPostgres.jdbcUrl(), 1)) {
                Reservation reserved = new PostgresClaimStore(client, SCHEMA)
                        .reserve(pool, "client-req-7", ClaimRequest.of("rsv-client-7"), TTL, time.now());
                claimName = reserved.claim().name();
            }
            controller.reconcile();
            String member = store.find(pool, claimName).orElseThrow().assignedMember().orElseThrow();
            assertThat(driver.find(pool, member).orElseThrow().claimName()).contains(claimName);

            // A confirmed reservation next to it is kept.
            ClaimHandle kept = controller.reserve("kept-1", TTL);
            controller.reconcile();
            assertThat(kept.member()).isCompleted();
            assertThat(controller.confirm("kept-1")).isPresent();

            time.advanceBy(TTL.plusSeconds(10));

            assertThat(store.find(pool, claimName)).as("the lapsed reservation's claim").isEmpty();
            assertThat(store.findReservation(pool, "client-req-7", time.now())).isEmpty();
            assertThat(dangling()).as("members held for a claim that is not live").isEmpty();
            assertThat(driver.find(pool, member).map(m -> m.isReleased() || m.phase() == MemberPhase.DELETING).orElse(true))
                    .as("the lapsed reservation's member is released (and replaced)").isTrue();
            assertThat(store.find(pool, kept.name())).as("the confirmed one").isPresent();
            time.advanceBy(Duration.ofMinutes(3));
            assertThat(dangling()).isEmpty();
            assertThat(driver.find(pool, member)).as("the lapsed reservation's member, deleted").isEmpty();
        }
    }

    @Test
    void theSameKeyGivesTheSameMemberAndAnUnconfirmedReservationEndsOnTime() {
        try (PoolController controller = PoolController.builder(PoolSpec.builder(pool).size(2).runningCount(2).build())
                .memberDriver(driver).claimStore(store).scheduler(time).resyncPeriod(Duration.ofMinutes(5)).build().start()) {
            time.advanceBy(Duration.ofMinutes(2));
            ClaimHandle first = controller.reserve("order-42", TTL);
            controller.reconcile();
            Member member = first.member().getNow(null);
            assertThat(member).isNotNull();
            // A duplicate request, and a client that lost the answer and asks again later.
            ClaimHandle again = controller.reserve("order-42", TTL);
            assertThat(again.name()).isEqualTo(first.name());
            assertThat(again.member().getNow(null).id()).isEqualTo(member.id());
            time.advanceBy(TTL.minusSeconds(1));
            assertThat(store.find(pool, first.name())).isPresent();
            // The resync is 5 minutes away: the pass at the reservation's time ends it.
            time.advanceBy(Duration.ofSeconds(1));
            assertThat(store.find(pool, first.name())).isEmpty();
            assertThat(controller.confirm("order-42")).as("confirm after the time ran out").isEmpty();
            assertThat(dangling()).isEmpty();
        }
    }

    private List<Member> running() {
        return driver.list(pool).stream().filter(m -> MemberState.of(m) == MemberState.RUNNING).toList();
    }

    /** Members that name a claim which is not live and are neither released nor being deleted. */
    private List<Member> dangling() {
        Set<String> live = store.live(pool).stream().map(Claim::name).collect(Collectors.toSet());
        return driver.list(pool).stream()
                .filter(m -> m.claimName().isPresent() && !live.contains(m.claimName().get()))
                .filter(m -> !m.isReleased() && m.phase() != MemberPhase.DELETING)
                .toList();
    }
}
