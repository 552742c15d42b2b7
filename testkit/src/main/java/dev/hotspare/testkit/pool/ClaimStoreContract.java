package dev.hotspare.testkit.pool;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Claim.ClaimClass;
import dev.hotspare.pool.Claim.ClaimOutcome;
import dev.hotspare.pool.Claim.Reservation;
import dev.hotspare.pool.ClaimRequest;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.ClaimStore.AssignOutcome;
import dev.hotspare.pool.spi.ClaimStore.ClaimExistsException;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * What every {@link ClaimStore} must do. Subclass it once per backend (in-memory, PostgreSQL) and return a
 * store and a pool name no other test uses.
 */
public abstract class ClaimStoreContract {

    protected static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    /** The store under test. */
    protected abstract ClaimStore store();

    /** A pool name unique to the calling test (DNS-1123 label). */
    protected abstract String freshPool();

    @Test
    void submittedClaimsArePendingAndListedOldestFirst() {
        ClaimStore store = store();
        String pool = freshPool();
        store.submit(pool, "b", Optional.empty(), T0.plusSeconds(5));
        store.submit(pool, "a", Optional.of(Duration.ofHours(2)), T0.plusSeconds(5));
        store.submit(pool, "c", Optional.empty(), T0);
        assertThat(store.live(pool)).extracting(Claim::name).containsExactly("c", "a", "b");
        assertThat(store.pending(pool)).extracting(Claim::name).containsExactly("c", "a", "b");
        Claim a = store.find(pool, "a").orElseThrow();
        assertThat(a.lifetime()).contains(Duration.ofHours(2));
        assertThat(a.createdAt()).isEqualTo(T0.plusSeconds(5));
        assertThat(a.isAssigned()).isFalse();
    }

    @Test
    void classAndDeadlineAreKeptAndLiveStaysOldestFirst() {
        ClaimStore store = store();
        String pool = freshPool();
        ClaimClass urgent = new ClaimClass("urgent", 10);
        Instant deadline = T0.plusSeconds(600);
        Claim returned = store.submit(pool, ClaimRequest.of("late").withClass(urgent).withDeadline(deadline)
                .withLifetime(Duration.ofHours(1)), T0.plusSeconds(2));
        store.submit(pool, ClaimRequest.of("early"), T0);
        assertThat(store.live(pool)).extracting(Claim::name).containsExactly("early", "late");
        Claim late = store.find(pool, "late").orElseThrow();
        assertThat(late).isEqualTo(returned);
        assertThat(late).isEqualTo(new Claim("late", T0.plusSeconds(2), Optional.of(Duration.ofHours(1)), Optional.empty(),
                Optional.empty(), Optional.empty(), urgent, Optional.of(deadline), Optional.empty()));
        assertThat(store.find(pool, "early").orElseThrow().claimClass()).isEqualTo(ClaimClass.DEFAULT);
        assertThat(store.find(pool, "early").orElseThrow().deadline()).isEmpty();
        assertThatThrownBy(() -> store.submit(pool, ClaimRequest.of("late"), T0.plusSeconds(3)))
                .isInstanceOf(ClaimExistsException.class).hasMessageContaining("late");
    }

    @Test
    void theServedOutcomeIsRecordedWithTheAssignmentAndKeptWhenReady() {
        ClaimStore store = store();
        String pool = freshPool();
        store.submit(pool, ClaimRequest.of("warm").withClass(new ClaimClass("batch", 0)), T0);
        store.submit(pool, "plain", Optional.empty(), T0.plusSeconds(1));
        assertThat(store.assign(pool, "warm", "m-1", T0.plusSeconds(5), Optional.of(ClaimOutcome.SERVED_WARM)))
                .isEqualTo(AssignOutcome.ASSIGNED);
        assertThat(store.assign(pool, "plain", "m-2", T0.plusSeconds(6))).isEqualTo(AssignOutcome.ASSIGNED);
        assertThat(store.markReady(pool, "warm", T0.plusSeconds(7))).isTrue();
        Claim warm = store.find(pool, "warm").orElseThrow();
        assertThat(warm.outcome()).contains(ClaimOutcome.SERVED_WARM);
        assertThat(warm.claimClass()).isEqualTo(new ClaimClass("batch", 0));
        assertThat(warm.readyAt()).contains(T0.plusSeconds(7));
        assertThat(store.find(pool, "plain").orElseThrow().outcome()).isEmpty();
    }

    @Test
    void releasePendingEndsOnlyAClaimThatIsStillPending() {
        ClaimStore store = store();
        String pool = freshPool();
        store.submit(pool, ClaimRequest.of("waiting").withDeadline(T0.plusSeconds(60)), T0);
        store.submit(pool, ClaimRequest.of("served").withDeadline(T0.plusSeconds(60)), T0);
        store.assign(pool, "served", "m-1", T0.plusSeconds(1), Optional.of(ClaimOutcome.SERVED_HOT));
        assertThat(store.releasePending(pool, "served")).isFalse();
        assertThat(store.releasePending(pool, "waiting")).isTrue();
        assertThat(store.releasePending(pool, "waiting")).isFalse();
        assertThat(store.releasePending(pool, "never")).isFalse();
        assertThat(store.live(pool)).extracting(Claim::name).containsExactly("served");
    }

    @Test
    void aLiveNameCannotBeSubmittedTwice() {
        ClaimStore store = store();
        String pool = freshPool();
        store.submit(pool, "job", Optional.empty(), T0);
        assertThatThrownBy(() -> store.submit(pool, "job", Optional.empty(), T0.plusSeconds(1)))
                .isInstanceOf(ClaimExistsException.class).hasMessageContaining("job");
        store.release(pool, "job");
        store.submit(pool, "job", Optional.empty(), T0.plusSeconds(2));
        assertThat(store.find(pool, "job").orElseThrow().createdAt()).isEqualTo(T0.plusSeconds(2));
    }

    @Test
    void assignIsCompareAndSet() {
        ClaimStore store = store();
        String pool = freshPool();
        store.submit(pool, "one", Optional.empty(), T0);
        store.submit(pool, "two", Optional.empty(), T0.plusSeconds(1));
        assertThat(store.assign(pool, "one", "m-1", T0.plusSeconds(10))).isEqualTo(AssignOutcome.ASSIGNED);
        assertThat(store.assign(pool, "one", "m-1", T0.plusSeconds(11))).isEqualTo(AssignOutcome.ALREADY_ASSIGNED);
        assertThat(store.assign(pool, "one", "m-2", T0.plusSeconds(12))).isEqualTo(AssignOutcome.CLAIM_ALREADY_ASSIGNED);
        assertThat(store.assign(pool, "two", "m-1", T0.plusSeconds(13))).isEqualTo(AssignOutcome.MEMBER_TAKEN);
        assertThat(store.assign(pool, "nope", "m-3", T0.plusSeconds(14))).isEqualTo(AssignOutcome.CLAIM_NOT_FOUND);
        Claim one = store.find(pool, "one").orElseThrow();
        assertThat(one.assignedMember()).contains("m-1");
        assertThat(one.assignedAt()).contains(T0.plusSeconds(10));
        assertThat(store.pending(pool)).extracting(Claim::name).containsExactly("two");
    }

    @Test
    void releaseIsIdempotentAndFreesTheMember() {
        ClaimStore store = store();
        String pool = freshPool();
        store.submit(pool, "one", Optional.empty(), T0);
        store.assign(pool, "one", "m-1", T0.plusSeconds(1));
        assertThat(store.release(pool, "one")).isTrue();
        assertThat(store.release(pool, "one")).isFalse();
        assertThat(store.find(pool, "one")).isEmpty();
        store.submit(pool, "two", Optional.empty(), T0.plusSeconds(2));
        assertThat(store.assign(pool, "two", "m-1", T0.plusSeconds(3))).isEqualTo(AssignOutcome.ASSIGNED);
    }

    @Test
    void readyIsRecordedOnceForAnAssignedClaimAndNeverBeforeItsAssignment() {
        ClaimStore store = store();
        String pool = freshPool();
        store.submit(pool, "one", Optional.empty(), T0);
        assertThat(store.markReady(pool, "one", T0.plusSeconds(5))).as("pending").isFalse();
        store.assign(pool, "one", "m-1", T0.plusSeconds(10));
        assertThat(store.markReady(pool, "one", T0.plusSeconds(9))).as("before its assignment").isFalse();
        assertThat(store.markReady(pool, "one", T0.plusSeconds(12))).isTrue();
        assertThat(store.markReady(pool, "one", T0.plusSeconds(20))).as("the first ready time stays").isFalse();
        assertThat(store.markReady(pool, "nope", T0.plusSeconds(20))).isFalse();
        Claim one = store.find(pool, "one").orElseThrow();
        assertThat(one.createdAt()).isEqualTo(T0);
        assertThat(one.assignedAt()).contains(T0.plusSeconds(10));
        assertThat(one.readyAt()).contains(T0.plusSeconds(12));
        assertThat(store.live(pool)).containsExactly(one);
        assertThat(store.pending(pool)).isEmpty();
    }

    /**
     * What lets a pool tell an orphaned member from one in use: every live claim is in every read — whatever its
     * age or state — until it is released, and never after.
     */
    @Test
    void everyLiveClaimIsInEveryReadUntilReleasedAndInNoneAfter() {
        ClaimStore store = store();
        String pool = freshPool();
        store.submit(pool, "old", Optional.of(Duration.ofDays(365)), T0.minus(Duration.ofDays(300)));
        store.submit(pool, "held", Optional.empty(), T0);
        store.submit(pool, "ready", Optional.empty(), T0.plusSeconds(1));
        store.assign(pool, "held", "m-1", T0.plusSeconds(2));
        store.assign(pool, "ready", "m-2", T0.plusSeconds(3));
        store.markReady(pool, "ready", T0.plusSeconds(4));
        for (String name : List.of("old", "held", "ready")) {
            assertThat(store.find(pool, name)).as(name).isPresent();
        }
        assertThat(store.live(pool)).extracting(Claim::name).containsExactly("old", "held", "ready");

        assertThat(store.release(pool, "ready")).isTrue();

        assertThat(store.find(pool, "ready")).isEmpty();
        assertThat(store.live(pool)).extracting(Claim::name).containsExactly("old", "held");
        assertThat(store.markReady(pool, "ready", T0.plusSeconds(9))).isFalse();
        assertThat(store.assign(pool, "ready", "m-3", T0.plusSeconds(9))).isEqualTo(AssignOutcome.CLAIM_NOT_FOUND);
    }

    @Test
    void poolsAreIsolated() {
        ClaimStore store = store();
        String a = freshPool();
        String b = freshPool();
        store.submit(a, "job", Optional.empty(), T0);
        store.submit(b, "job", Optional.empty(), T0);
        assertThat(store.assign(a, "job", "m-1", T0)).isEqualTo(AssignOutcome.ASSIGNED);
        assertThat(store.assign(b, "job", "m-1", T0)).isEqualTo(AssignOutcome.ASSIGNED);
        store.release(a, "job");
        assertThat(store.find(b, "job")).isPresent();
    }

    @Test
    void watchersHearSubmitAssignAndRelease() throws Exception {
        ClaimStore store = store();
        String pool = freshPool();
        AtomicInteger heard = new AtomicInteger();
        AutoCloseable watch = store.watch(pool, heard::incrementAndGet);
        store.submit(pool, "job", Optional.empty(), T0);
        await().atMost(Duration.ofSeconds(60)).until(() -> heard.get() >= 1);
        store.assign(pool, "job", "m-1", T0);
        await().atMost(Duration.ofSeconds(60)).until(() -> heard.get() >= 2);
        store.release(pool, "job");
        await().atMost(Duration.ofSeconds(60)).until(() -> heard.get() >= 3);
        watch.close();
    }

    /** Many threads race to assign overlapping claims and members: each claim gets one member, each member one claim. */
    @Test
    void concurrentAssignmentsNeverDoubleAssign() throws Exception {
        ClaimStore store = store();
        String pool = freshPool();
        int claims = 40;
        int threads = 8;
        for (int i = 0; i < claims; i++) {
            store.submit(pool, "claim-" + i, Optional.empty(), T0.plusMillis(i));
        }
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int offset = t;
            futures.add(executor.submit(() -> {
                start.await();
                for (int i = 0; i < claims; i++) {
                    int member = (i + offset) % claims;
                    store.assign(pool, "claim-" + i, "m-" + member, T0.plusSeconds(1));
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : futures) {
            f.get(60, TimeUnit.SECONDS);
        }
        executor.shutdown();
        Map<String, String> memberToClaim = new HashMap<>();
        List<Claim> unassigned = new ArrayList<>();
        for (Claim c : store.live(pool)) {
            if (c.assignedMember().isEmpty()) {
                unassigned.add(c);
                continue;
            }
            String previous = memberToClaim.put(c.assignedMember().get(), c.name());
            assertThat(previous).as("member %s given twice", c.assignedMember().get()).isNull();
        }
        // A claim may stay pending only if every member it was offered went to another claim.
        for (Claim c : unassigned) {
            int i = Integer.parseInt(c.name().substring("claim-".length()));
            for (int t = 0; t < threads; t++) {
                assertThat(memberToClaim).as("%s pending while m-%s free", c.name(), (i + t) % claims)
                        .containsKey("m-" + (i + t) % claims);
            }
        }
        assertThat(memberToClaim.size() + unassigned.size()).isEqualTo(claims);
    }

    @Test
    void assignAllAppliesEachPairAsAssignAndMarksTheAssignedReady() {
        ClaimStore store = store();
        String pool = freshPool();
        store.submit(pool, "one", Optional.empty(), T0);
        store.submit(pool, "two", Optional.empty(), T0.plusSeconds(1));
        store.submit(pool, "three", Optional.empty(), T0.plusSeconds(2));
        store.submit(pool, "held", Optional.empty(), T0.plusSeconds(3));
        store.assign(pool, "held", "m-9", T0.plusSeconds(4));
        Instant at = T0.plusSeconds(10);
        List<AssignOutcome> outcomes = store.assignAll(pool, List.of(
                new ClaimStore.Assignment("one", "m-1", at, Optional.of(ClaimOutcome.SERVED_HOT)),
                new ClaimStore.Assignment("two", "m-9", at, Optional.empty()),
                new ClaimStore.Assignment("gone", "m-3", at, Optional.empty()),
                new ClaimStore.Assignment("held", "m-4", at, Optional.empty()),
                new ClaimStore.Assignment("three", "m-5", at, Optional.empty())), T0.plusSeconds(12));
        assertThat(outcomes).containsExactly(AssignOutcome.ASSIGNED, AssignOutcome.MEMBER_TAKEN,
                AssignOutcome.CLAIM_NOT_FOUND, AssignOutcome.CLAIM_ALREADY_ASSIGNED, AssignOutcome.ASSIGNED);
        Claim one = store.find(pool, "one").orElseThrow();
        assertThat(one.assignedMember()).contains("m-1");
        assertThat(one.assignedAt()).contains(at);
        assertThat(one.readyAt()).contains(T0.plusSeconds(12));
        assertThat(one.outcome()).contains(ClaimOutcome.SERVED_HOT);
        assertThat(store.find(pool, "three").orElseThrow().readyAt()).contains(T0.plusSeconds(12));
        assertThat(store.find(pool, "two").orElseThrow().isAssigned()).isFalse();
        assertThat(store.live(pool)).filteredOn(Claim::isAssigned).extracting(Claim::name)
                .containsExactly("one", "three", "held");
    }

    @Test
    void submitAllAnswersEachRequestAsSubmitDoes() {
        ClaimStore store = store();
        String pool = freshPool();
        store.submit(pool, "taken", Optional.empty(), T0);
        Instant now = T0.plusSeconds(5);
        List<Optional<Claim>> out = store.submitAll(pool, List.of(
                ClaimRequest.of("b").withLifetime(Duration.ofMinutes(90)),
                ClaimRequest.of("taken"),
                ClaimRequest.of("a").withClass(new ClaimClass("batch", 0)).withDeadline(T0.plusSeconds(60)),
                ClaimRequest.of("b")), now);
        assertThat(out).hasSize(4);
        assertThat(out.get(0)).map(Claim::name).contains("b");
        assertThat(out.get(1)).as("a live name is not submitted again").isEmpty();
        assertThat(out.get(2)).map(Claim::createdAt).contains(now);
        assertThat(out.get(3)).as("a name given twice is submitted for its first request").isEmpty();
        assertThat(store.live(pool)).extracting(Claim::name).containsExactly("taken", "a", "b");
        Claim a = store.find(pool, "a").orElseThrow();
        assertThat(a).isEqualTo(out.get(2).orElseThrow());
        assertThat(a.claimClass()).isEqualTo(new ClaimClass("batch", 0));
        assertThat(a.deadline()).contains(T0.plusSeconds(60));
        assertThat(store.find(pool, "b").orElseThrow().lifetime()).contains(Duration.ofMinutes(90));
        assertThat(store.find(pool, "taken").orElseThrow().createdAt()).as("the live claim is unchanged").isEqualTo(T0);
        assertThat(store.submitAll(pool, List.of(), now)).isEmpty();
    }

    @Test
    void aBatchAnswersAMemberGivenTwiceAsTakenForItsSecondClaim() {
        ClaimStore store = store();
        String pool = freshPool();
        store.submit(pool, "one", Optional.empty(), T0);
        store.submit(pool, "two", Optional.empty(), T0.plusSeconds(1));
        store.submit(pool, "three", Optional.empty(), T0.plusSeconds(2));
        Instant at = T0.plusSeconds(10);
        assertThat(store.assignAll(pool, List.of(
                new ClaimStore.Assignment("one", "m-1", at, Optional.empty()),
                new ClaimStore.Assignment("two", "m-1", at, Optional.empty()),
                new ClaimStore.Assignment("three", "m-3", at, Optional.empty())), at))
                .containsExactly(AssignOutcome.ASSIGNED, AssignOutcome.MEMBER_TAKEN, AssignOutcome.ASSIGNED);
        assertThat(store.find(pool, "one").orElseThrow().assignedMember()).contains("m-1");
        assertThat(store.find(pool, "two").orElseThrow().isAssigned()).isFalse();
        assertThat(store.find(pool, "three").orElseThrow().readyAt()).contains(at);
    }

    @Test
    void aBatchOfOneAnswersEveryOutcomeAsAssignDoes() {
        ClaimStore store = store();
        String pool = freshPool();
        store.submit(pool, "one", Optional.empty(), T0);
        store.submit(pool, "two", Optional.empty(), T0.plusSeconds(1));
        Instant at = T0.plusSeconds(10);
        assertThat(store.assignAll(pool, List.of(new ClaimStore.Assignment("one", "m-1", at,
                Optional.of(ClaimOutcome.SERVED_HOT))), T0.plusSeconds(11))).containsExactly(AssignOutcome.ASSIGNED);
        Claim one = store.find(pool, "one").orElseThrow();
        assertThat(one.assignedMember()).contains("m-1");
        assertThat(one.assignedAt()).contains(at);
        assertThat(one.readyAt()).as("ready at the later of the ready time and the assignment").contains(T0.plusSeconds(11));
        assertThat(one.outcome()).contains(ClaimOutcome.SERVED_HOT);
        assertThat(store.assignAll(pool, List.of(new ClaimStore.Assignment("one", "m-1", at, Optional.empty())), at))
                .containsExactly(AssignOutcome.ALREADY_ASSIGNED);
        assertThat(store.assignAll(pool, List.of(new ClaimStore.Assignment("one", "m-2", at, Optional.empty())), at))
                .containsExactly(AssignOutcome.CLAIM_ALREADY_ASSIGNED);
        assertThat(store.assignAll(pool, List.of(new ClaimStore.Assignment("two", "m-1", at, Optional.empty())), at))
                .containsExactly(AssignOutcome.MEMBER_TAKEN);
        assertThat(store.assignAll(pool, List.of(new ClaimStore.Assignment("gone", "m-3", at, Optional.empty())), at))
                .containsExactly(AssignOutcome.CLAIM_NOT_FOUND);
        Claim two = store.find(pool, "two").orElseThrow();
        assertThat(two.isAssigned()).isFalse();
        assertThat(two.readyAt()).isEmpty();
        assertThat(store.assignAll(pool, List.of(new ClaimStore.Assignment("two", "m-2", at.plusSeconds(5),
                Optional.empty())), at)).containsExactly(AssignOutcome.ASSIGNED);
        assertThat(store.find(pool, "two").orElseThrow().readyAt()).as("never ready before its assignment")
                .contains(at.plusSeconds(5));
        assertThat(store.find(pool, "one").orElseThrow().readyAt()).as("the first ready mark stays")
                .contains(T0.plusSeconds(11));
    }

    @Test
    void theSameKeyAlwaysGivesTheSameReservationAndMember() {
        ClaimStore store = store();
        String pool = freshPool();
        Reservation first = store.reserve(pool, "req-1", ClaimRequest.of("rsv-a"), Duration.ofSeconds(30), T0);
        assertThat(first.key()).isEqualTo("req-1");
        assertThat(first.confirmed()).isFalse();
        assertThat(first.expiresAt()).isEqualTo(T0.plusSeconds(30));
        // A retry (the client lost the answer) proposes another name and ttl: it gets the first reservation.
        Reservation retry = store.reserve(pool, "req-1", ClaimRequest.of("rsv-b"), Duration.ofSeconds(90), T0.plusSeconds(5));
        assertThat(retry.claim().name()).isEqualTo("rsv-a");
        assertThat(retry.expiresAt()).isEqualTo(T0.plusSeconds(30));
        assertThat(store.find(pool, "rsv-b")).isEmpty();
        assertThat(store.assign(pool, "rsv-a", "m-1", T0.plusSeconds(6))).isEqualTo(AssignOutcome.ASSIGNED);
        assertThat(store.reserve(pool, "req-1", ClaimRequest.of("rsv-c"), Duration.ofSeconds(30), T0.plusSeconds(7))
                .claim().assignedMember()).contains("m-1");
        Reservation confirmed = store.confirm(pool, "req-1", T0.plusSeconds(8)).orElseThrow();
        assertThat(confirmed.confirmedAt()).contains(T0.plusSeconds(8));
        assertThat(confirmed.claim().assignedMember()).contains("m-1");
        // Confirming again, and reserving again after the ttl: still the same, and it no longer expires.
        assertThat(store.confirm(pool, "req-1", T0.plusSeconds(50)).orElseThrow().confirmedAt()).contains(T0.plusSeconds(8));
        assertThat(store.reserve(pool, "req-1", ClaimRequest.of("rsv-d"), Duration.ofSeconds(30), T0.plusSeconds(60))
                .claim().name()).isEqualTo("rsv-a");
        assertThat(store.expireReservations(pool, T0.plusSeconds(100))).isEmpty();
        assertThat(store.find(pool, "rsv-a")).isPresent();
        // Released, the claim takes its reservation with it: the key starts afresh.
        store.release(pool, "rsv-a");
        assertThat(store.findReservation(pool, "req-1", T0.plusSeconds(101))).isEmpty();
        assertThat(store.confirm(pool, "req-1", T0.plusSeconds(101))).isEmpty();
    }

    @Test
    void anUnconfirmedReservationEndsWithItsClaimOnceItsTimeRunsOut() {
        ClaimStore store = store();
        String pool = freshPool();
        store.reserve(pool, "k-lapse", ClaimRequest.of("rsv-lapse"), Duration.ofSeconds(30), T0);
        store.reserve(pool, "k-kept", ClaimRequest.of("rsv-kept"), Duration.ofSeconds(30), T0);
        store.assign(pool, "rsv-lapse", "m-1", T0.plusSeconds(1));
        store.confirm(pool, "k-kept", T0.plusSeconds(2)).orElseThrow();
        assertThat(store.expireReservations(pool, T0.plusSeconds(29))).as("before its time").isEmpty();
        assertThat(store.confirm(pool, "k-lapse", T0.plusSeconds(30))).as("confirm at its time").isEmpty();
        List<Reservation> ended = store.expireReservations(pool, T0.plusSeconds(30));
        assertThat(ended).extracting(Reservation::key).containsExactly("k-lapse");
        assertThat(ended.get(0).claim().assignedMember()).contains("m-1");
        assertThat(store.find(pool, "rsv-lapse")).isEmpty();
        assertThat(store.live(pool)).extracting(Claim::name).containsExactly("rsv-kept");
        assertThat(store.expireReservations(pool, T0.plusSeconds(31))).isEmpty();
        // The member is free for another claim; the key reserves afresh.
        store.submit(pool, "other", Optional.empty(), T0.plusSeconds(32));
        assertThat(store.assign(pool, "other", "m-1", T0.plusSeconds(33))).isEqualTo(AssignOutcome.ASSIGNED);
        Reservation again = store.reserve(pool, "k-lapse", ClaimRequest.of("rsv-lapse-2"), Duration.ofSeconds(30), T0.plusSeconds(34));
        assertThat(again.claim().name()).isEqualTo("rsv-lapse-2");
    }

    @Test
    void aLapsedReservationNotYetSweptIsReplacedByTheNextReserve() {
        ClaimStore store = store();
        String pool = freshPool();
        store.reserve(pool, "k", ClaimRequest.of("rsv-1"), Duration.ofSeconds(10), T0);
        Reservation next = store.reserve(pool, "k", ClaimRequest.of("rsv-2"), Duration.ofSeconds(10), T0.plusSeconds(10));
        assertThat(next.claim().name()).isEqualTo("rsv-2");
        assertThat(store.live(pool)).extracting(Claim::name).containsExactly("rsv-2");
    }

    @Test
    void badKeysAndTtlsAreRefusedNamingTheFieldAndValue() {
        ClaimStore store = store();
        String pool = freshPool();
        for (String bad : List.of("", "has space", "ümlaut", "x".repeat(Reservation.MAX_KEY_LENGTH + 1), "semi;colon")) {
            assertThatThrownBy(() -> store.reserve(pool, bad, ClaimRequest.of("rsv-x"), Duration.ofSeconds(1), T0))
                    .as("key '%s'", bad).isInstanceOf(ValidationException.class).hasMessageContaining("key")
                    .hasMessageContaining(bad.isEmpty() ? "1 to" : bad.substring(0, Math.min(bad.length(), 20)));
        }
        assertThatThrownBy(() -> store.reserve(pool, "ok", ClaimRequest.of("rsv-x"), Duration.ZERO, T0))
                .isInstanceOf(ValidationException.class).hasMessageContaining("ttl").hasMessageContaining("PT0S");
        assertThat(store.live(pool)).isEmpty();
    }

    @Test
    void concurrentReservesOfOneKeyMakeOneClaim() throws Exception {
        ClaimStore store = store();
        String pool = freshPool();
        int threads = 8;
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Reservation>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String name = "rsv-t" + t;
            futures.add(executor.submit(() -> {
                start.await();
                return store.reserve(pool, "same-key", ClaimRequest.of(name), Duration.ofSeconds(30), T0);
            }));
        }
        start.countDown();
        List<String> names = new ArrayList<>();
        for (Future<Reservation> f : futures) {
            names.add(f.get(60, TimeUnit.SECONDS).claim().name());
        }
        executor.shutdown();
        assertThat(names).containsOnly(names.get(0));
        assertThat(store.live(pool)).extracting(Claim::name).containsExactly(names.get(0));
    }
}
