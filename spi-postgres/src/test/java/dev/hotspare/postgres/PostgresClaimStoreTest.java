package dev.hotspare.postgres;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Claim.ClaimClass;
import dev.hotspare.pool.ClaimRequest;
import dev.hotspare.pool.spi.ClaimStore.AssignOutcome;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** What the PostgreSQL claim store adds to the contract: offered members, store-side FIFO, expiry, the constraint. */
class PostgresClaimStoreTest {

    private static final String SCHEMA = "hs_test_claims";
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    private final DataSource ds = TestSchemas.migrated(SCHEMA);
    private final PostgresClaimStore store = new PostgresClaimStore(ds, SCHEMA);
    private final String pool = "p" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffffL);

    @Test
    void assignOldestServesHigherClassesFirstFifoWithinAClassAndSkipsPassedDeadlines() {
        ClaimClass urgent = new ClaimClass("urgent", 10);
        store.submit(pool, ClaimRequest.of("batch-1"), T0.plusSeconds(1));
        store.submit(pool, ClaimRequest.of("urgent-2").withClass(urgent), T0.plusSeconds(3));
        store.submit(pool, ClaimRequest.of("urgent-1").withClass(urgent), T0.plusSeconds(2));
        store.submit(pool, ClaimRequest.of("urgent-due").withClass(urgent).withDeadline(T0.plusSeconds(10)), T0);
        store.submit(pool, ClaimRequest.of("batch-2"), T0.plusSeconds(4));
        for (int i = 0; i < 5; i++) {
            store.offerMember(pool, "m-" + i, T0.plusSeconds(i));
        }
        Instant at = T0.plusSeconds(10);
        java.util.List<String> order = new java.util.ArrayList<>();
        for (Optional<Claim> next = store.assignOldest(pool, at); next.isPresent(); next = store.assignOldest(pool, at)) {
            order.add(next.get().name() + "=" + next.get().assignedMember().orElseThrow());
        }
        assertThat(order).containsExactly("urgent-1=m-0", "urgent-2=m-1", "batch-1=m-2", "batch-2=m-3");
        assertThat(store.pending(pool)).extracting(Claim::name).as("its deadline is not after the assignment time")
                .containsExactly("urgent-due");
        assertThat(store.find(pool, "urgent-1").orElseThrow().claimClass()).isEqualTo(urgent);
    }

    @Test
    void assignOldestWithAgingServesAClaimThatWaitedTheLimitBeforeYoungerHigherClasses() {
        ClaimClass urgent = new ClaimClass("urgent", 10);
        store.submit(pool, ClaimRequest.of("batch-old"), T0);
        store.submit(pool, ClaimRequest.of("batch-new"), T0.plusSeconds(500));
        store.submit(pool, ClaimRequest.of("urgent-1").withClass(urgent), T0.plusSeconds(400));
        store.submit(pool, ClaimRequest.of("urgent-2").withClass(urgent), T0.plusSeconds(450));
        for (int i = 0; i < 4; i++) {
            store.offerMember(pool, "m-" + i, T0);
        }
        Instant at = T0.plusSeconds(600);
        java.util.List<String> order = new java.util.ArrayList<>();
        for (Optional<Claim> next = store.assignOldest(pool, at, Duration.ofMinutes(10)); next.isPresent();
             next = store.assignOldest(pool, at, Duration.ofMinutes(10))) {
            order.add(next.get().name());
        }
        assertThat(order).as("batch-old has waited exactly the aging limit").containsExactly("batch-old", "urgent-1",
                "urgent-2", "batch-new");
        assertThatThrownBy(() -> store.assignOldest(pool, at, Duration.ofSeconds(-1)))
                .hasMessageContaining("agingLimit").hasMessageContaining("PT-1S");
    }

    @Test
    void assignOldestPairsTheOldestPendingClaimWithTheOldestFreeMember() {
        store.submit(pool, "second", Optional.empty(), T0.plusSeconds(2));
        store.submit(pool, "first", Optional.empty(), T0.plusSeconds(1));
        store.submit(pool, "third", Optional.empty(), T0.plusSeconds(3));
        store.offerMember(pool, "m-b", T0.plusSeconds(5));
        store.offerMember(pool, "m-a", T0.plusSeconds(5));
        store.offerMember(pool, "m-z", T0.plusSeconds(1));
        assertThat(store.freeMembers(pool)).containsExactly("m-z", "m-a", "m-b");

        Instant at = T0.plusSeconds(10);
        assertThat(store.assignOldest(pool, at)).contains(Claim.pending("first", T0.plusSeconds(1), Optional.empty()).assigned("m-z", at));
        assertThat(store.assignOldest(pool, at)).map(c -> c.name() + "=" + c.assignedMember().orElseThrow()).contains("second=m-a");
        assertThat(store.assignOldest(pool, at)).map(c -> c.name() + "=" + c.assignedMember().orElseThrow()).contains("third=m-b");
        assertThat(store.assignOldest(pool, at)).isEmpty();
        assertThat(store.pending(pool)).isEmpty();
        assertThat(store.freeMembers(pool)).isEmpty();
    }

    @Test
    void instantsAreStoredTruncatedToMicrosecondsNeverRoundedUp() {
        // The driver rounds nanoseconds; a claim read back a microsecond later than its own truncation would not
        // be recognised by the handle waiting for it (which compares creation times at microsecond precision).
        Instant created = T0.plusNanos(123_456_789);
        store.submit(pool, "nanos", Optional.empty(), created);
        assertThat(store.find(pool, "nanos")).map(Claim::createdAt).contains(T0.plusNanos(123_456_000));
    }

    @Test
    void withoutAFreeMemberClaimsWaitAndWithoutAClaimMembersStayFree() {
        store.submit(pool, "job", Optional.empty(), T0);
        assertThat(store.assignOldest(pool, T0)).isEmpty();
        assertThat(store.pending(pool)).extracting(Claim::name).containsExactly("job");

        String other = pool + "x";
        store.offerMember(other, "m-1", T0);
        assertThat(store.assignOldest(other, T0)).isEmpty();
        assertThat(store.freeMembers(other)).containsExactly("m-1");
        assertThat(store.offerMember(other, "m-1", T0.plusSeconds(9))).as("offering twice changes nothing").isFalse();
        assertThat(store.withdrawMember(other, "m-1")).isTrue();
        assertThat(store.freeMembers(other)).isEmpty();
    }

    @Test
    void aMemberHeldThroughAssignIsNeverHandedOutAgain() {
        store.submit(pool, "one", Optional.empty(), T0);
        store.submit(pool, "two", Optional.empty(), T0.plusSeconds(1));
        store.offerMember(pool, "m-1", T0);
        assertThat(store.assign(pool, "one", "m-1", T0)).isEqualTo(AssignOutcome.ASSIGNED);
        assertThat(store.assignOldest(pool, T0)).isEmpty();

        // Offered only after another path gave it a claim: still not free.
        store.submit(pool, "three", Optional.empty(), T0.plusSeconds(2));
        assertThat(store.assign(pool, "two", "m-2", T0)).isEqualTo(AssignOutcome.ASSIGNED);
        store.offerMember(pool, "m-2", T0);
        assertThat(store.freeMembers(pool)).isEmpty();
        assertThat(store.assignOldest(pool, T0)).isEmpty();
        assertThat(store.find(pool, "three").orElseThrow().isAssigned()).isFalse();
    }

    @Test
    void theDatabaseRefusesASecondClaimOnAMemberEvenWhenItsRowSaysFree() throws SQLException {
        store.submit(pool, "one", Optional.empty(), T0);
        store.submit(pool, "two", Optional.empty(), T0.plusSeconds(1));
        store.offerMember(pool, "m-1", T0);
        store.assign(pool, "one", "m-1", T0);
        // Put the member's row back as a lost race could: the FIFO statement now sees m-1 as free.
        execute("INSERT INTO " + SCHEMA + ".pool_members (pool, member_id, ready_since) VALUES (?, 'm-1', now())", pool);

        assertThat(store.assignOldest(pool, T0)).isEmpty();
        assertThat(store.find(pool, "two").orElseThrow().isAssigned()).isFalse();
        assertThat(store.freeMembers(pool)).as("the member row was repaired").isEmpty();
        assertThatThrownBy(() -> execute("UPDATE " + SCHEMA + ".claims SET member_id = 'm-1', assigned_at = now() "
                + "WHERE pool = ? AND name = 'two'", pool))
                .isInstanceOf(SQLException.class).hasMessageContaining("claims_one_claim_per_member");
    }

    @Test
    void releasedClaimsTakeTheirMemberOutOfThePool() {
        store.submit(pool, "job", Optional.empty(), T0);
        store.offerMember(pool, "m-1", T0);
        store.assignOldest(pool, T0).orElseThrow();

        assertThat(store.release(pool, "job")).isTrue();
        store.submit(pool, "next", Optional.empty(), T0.plusSeconds(1));
        assertThat(store.freeMembers(pool)).isEmpty();
        assertThat(store.assignOldest(pool, T0)).isEmpty();
    }

    @Test
    void claimsWhoseOwnLifetimeHasPassedSinceAssignmentAreReleased() {
        store.submit(pool, "short", Optional.of(Duration.ofMinutes(30).plusNanos(1500)), T0);
        store.submit(pool, "long", Optional.of(Duration.ofHours(2)), T0.plusSeconds(1));
        store.submit(pool, "forever", Optional.empty(), T0.plusSeconds(2));
        store.submit(pool, "waiting", Optional.of(Duration.ofSeconds(1)), T0.plusSeconds(3));
        Instant assigned = T0.plusSeconds(60);
        store.assign(pool, "short", "m-1", assigned);
        store.assign(pool, "long", "m-2", assigned);
        store.assign(pool, "forever", "m-3", assigned);

        assertThat(store.find(pool, "short").orElseThrow().lifetime()).contains(Duration.ofMinutes(30).plusNanos(1500));
        assertThat(store.releaseExpired(pool, assigned.plus(Duration.ofMinutes(30)))).isEmpty();
        assertThat(store.releaseExpired(pool, assigned.plus(Duration.ofMinutes(30)).plusNanos(1000))).containsExactly("short");
        assertThat(store.releaseExpired(pool, assigned.plus(Duration.ofDays(365)))).containsExactly("long");
        assertThat(store.live(pool)).extracting(Claim::name).containsExactly("forever", "waiting");
    }

    @Test
    void watchersWakeWhenAMemberIsOfferedAClaimArrivesOrAClaimIsReleased() throws Exception {
        AtomicInteger heard = new AtomicInteger();
        try (AutoCloseable watch = store.watch(pool, heard::incrementAndGet)) {
            store.offerMember(pool, "m-1", T0);
            await().atMost(Duration.ofSeconds(60)).until(() -> heard.get() >= 1);
            store.submit(pool, "job", Optional.empty(), T0);
            await().atMost(Duration.ofSeconds(60)).until(() -> heard.get() >= 2);
            store.assignOldest(pool, T0).orElseThrow();
            store.release(pool, "job");
            await().atMost(Duration.ofSeconds(60)).until(() -> heard.get() >= 3);
        }
    }

    /** A claim handed out at once is a batch of one: it does in one statement all that a batch does. */
    @Test
    void aBatchOfOneTakesTheMemberOffTheFreeListRecordsTheWaitAndWakesWatchers() throws Exception {
        store.recordSizingStart(pool, T0);
        store.offerMember(pool, "m-1", T0);
        store.offerMember(pool, "m-2", T0);
        store.submit(pool, "job", Optional.empty(), T0);
        AtomicInteger heard = new AtomicInteger();
        try (AutoCloseable watch = store.watch(pool, heard::incrementAndGet)) {
            assertThat(store.assignAll(pool, java.util.List.of(new dev.hotspare.pool.spi.ClaimStore.Assignment("job", "m-1",
                    T0.plusSeconds(2), Optional.empty())), T0.plusSeconds(3))).containsExactly(AssignOutcome.ASSIGNED);
            await().atMost(Duration.ofSeconds(60)).until(() -> heard.get() >= 1);
        }
        assertThat(store.freeMembers(pool)).containsExactly("m-2");
        assertThat(store.sizingHistory(pool, T0).orElseThrow().waits())
                .containsExactly(new dev.hotspare.pool.sizing.SizingHistory.ClaimWait(T0, Duration.ofSeconds(3)));
    }

    private void execute(String sql, String parameter) throws SQLException {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, parameter);
            ps.executeUpdate();
        }
    }
}
