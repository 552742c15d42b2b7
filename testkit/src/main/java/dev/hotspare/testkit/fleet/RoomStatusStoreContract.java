package dev.hotspare.testkit.fleet;

import java.util.Map;

import dev.hotspare.fleet.spi.RoomStatusStore.RoomObservation;

import dev.hotspare.fleet.RoomProtocol;
import dev.hotspare.fleet.RoomProtocol.DeadRoomRules;
import dev.hotspare.fleet.RoomState;
import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.spi.RoomStatusStore;
import dev.hotspare.fleet.spi.RoomStatusStore.RoomObservation;
import dev.hotspare.fleet.spi.RoomStatusStore.RoomUpdate;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The contract every {@link RoomStatusStore} passes: the room protocol (stale reports ignored and counted,
 * no way out of terminating, terminated removes), counts per status and match totals returned by every update,
 * dead-room queries (inclusive bounds), rooms ordered by metric, match slots handed out most-used-first and never
 * twice (also under concurrent allocators), allocation timeouts, complete removal, name validation and atomic
 * concurrent updates.
 * Subclass it and implement {@link #newStore()}; each test gets a fresh store and its own scheduler name.
 */
public abstract class RoomStatusStoreContract {

    /**
     * A new, empty store (or one where the schedulers used by these tests have no rooms).
     */
    protected abstract RoomStatusStore newStore();

    protected RoomStatusStore store;
    protected String scheduler;
    protected final Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
    private static int sequence;

    @BeforeEach
    void setUpStore() {
        store = newStore();
        scheduler = "contract-" + System.identityHashCode(this) + "-" + (++sequence);
        store.removeScheduler(scheduler);
    }

    private Instant at(int seconds) {
        return t0.plusSeconds(seconds);
    }

    @Test
    void emptySchedulerHasZeroCounts() {
        assertThat(store.counts(scheduler)).isEqualTo(RoomStatusCounts.ZERO);
        assertThat(store.room(scheduler, "r1")).isEmpty();
        assertThat(store.staleReports(scheduler)).isZero();
    }

    @Test
    void updateRecordsStatusAndPingAndReturnsCounts() {
        RoomUpdate u = store.update(scheduler, "r1", RoomStatus.CREATING, at(0));
        assertThat(u.outcome()).isEqualTo(RoomProtocol.Outcome.APPLIED);
        assertThat(u.previous()).isEmpty();
        assertThat(u.counts()).isEqualTo(new RoomStatusCounts(1, 0, 0, 0));

        store.update(scheduler, "r2", RoomStatus.READY, at(1));
        u = store.update(scheduler, "r1", RoomStatus.OCCUPIED, at(2));
        assertThat(u.previous()).contains(RoomStatus.CREATING);
        assertThat(u.counts()).isEqualTo(new RoomStatusCounts(0, 1, 1, 0));
        assertThat(store.counts(scheduler)).isEqualTo(u.counts());
        assertThat(store.room(scheduler, "r1")).contains(new RoomState("r1", RoomStatus.OCCUPIED, at(2), Optional.of(at(2))));
        assertThat(store.rooms(scheduler, RoomStatus.READY)).containsExactly("r2");
        assertThat(store.rooms(scheduler, RoomStatus.OCCUPIED)).containsExactly("r1");
    }

    @Test
    void pingWithSameStatusMovesLastPingButKeepsOccupiedSince() {
        store.update(scheduler, "r1", RoomStatus.OCCUPIED, at(0));
        store.update(scheduler, "r1", RoomStatus.OCCUPIED, at(10));
        assertThat(store.room(scheduler, "r1")).contains(new RoomState("r1", RoomStatus.OCCUPIED, at(10), Optional.of(at(0))));
        assertThat(store.counts(scheduler)).isEqualTo(new RoomStatusCounts(0, 0, 1, 0));
        store.update(scheduler, "r1", RoomStatus.READY, at(20));
        store.update(scheduler, "r1", RoomStatus.OCCUPIED, at(30));
        assertThat(store.room(scheduler, "r1").orElseThrow().occupiedSince()).contains(at(30));
    }

    @Test
    void olderReportIsIgnoredAndCounted() {
        store.update(scheduler, "r1", RoomStatus.OCCUPIED, at(10));
        RoomUpdate u = store.update(scheduler, "r1", RoomStatus.READY, at(5));
        assertThat(u.outcome()).isEqualTo(RoomProtocol.Outcome.STALE);
        assertThat(u.counts()).isEqualTo(new RoomStatusCounts(0, 0, 1, 0));
        assertThat(store.room(scheduler, "r1").orElseThrow().status()).isEqualTo(RoomStatus.OCCUPIED);
        assertThat(store.room(scheduler, "r1").orElseThrow().lastPing()).isEqualTo(at(10));
        assertThat(store.staleReports(scheduler)).isEqualTo(1);
        assertThat(store.update(scheduler, "r1", RoomStatus.READY, at(10)).outcome())
                .as("same timestamp is not older").isEqualTo(RoomProtocol.Outcome.APPLIED);
        assertThat(store.staleReports(scheduler)).isEqualTo(1);
    }

    @Test
    void nothingLeavesTerminating() {
        store.update(scheduler, "r1", RoomStatus.READY, at(0));
        store.update(scheduler, "r1", RoomStatus.TERMINATING, at(1));
        assertThat(store.counts(scheduler)).isEqualTo(new RoomStatusCounts(0, 0, 0, 1));
        for (RoomStatus s : List.of(RoomStatus.CREATING, RoomStatus.READY, RoomStatus.OCCUPIED)) {
            RoomUpdate u = store.update(scheduler, "r1", s, at(2));
            assertThat(u.outcome()).isEqualTo(RoomProtocol.Outcome.REJECTED);
            assertThat(u.previous()).contains(RoomStatus.TERMINATING);
        }
        assertThat(store.room(scheduler, "r1").orElseThrow().status()).isEqualTo(RoomStatus.TERMINATING);
        assertThat(store.update(scheduler, "r1", RoomStatus.TERMINATING, at(3)).outcome()).isEqualTo(RoomProtocol.Outcome.APPLIED);
        assertThatThrownBy(() -> store.status(scheduler, "r1", "ready", at(4)))
                .isInstanceOf(ValidationException.class).hasMessageContaining("terminating");
    }

    @Test
    void terminatedRemovesTheRoom() {
        store.update(scheduler, "r1", RoomStatus.READY, at(0));
        store.setRoomMetric(scheduler, "r1", "cpu", 0.5);
        store.update(scheduler, "r1", RoomStatus.TERMINATING, at(1));
        RoomUpdate u = store.update(scheduler, "r1", RoomStatus.TERMINATED, at(2));
        assertThat(u.outcome()).isEqualTo(RoomProtocol.Outcome.APPLIED);
        assertThat(u.counts()).isEqualTo(RoomStatusCounts.ZERO);
        assertThat(store.room(scheduler, "r1")).isEmpty();
        assertThat(store.roomsOrderedByMetric(scheduler, "cpu", 5)).isEmpty();
    }

    @Test
    void textEntryPointsRejectUnknownStatusesWithTheKnownOnes() {
        assertThatThrownBy(() -> store.ping(scheduler, "r1", "sleeping", at(0)))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("sleeping").hasMessageContaining("creating, ready, allocated, occupied, terminating, terminated");
        assertThat(store.room(scheduler, "r1")).isEmpty();
        assertThat(store.ping(scheduler, "r1", "ready", at(0)).counts().ready()).isEqualTo(1);
        assertThat(store.status(scheduler, "r1", "OCCUPIED", at(1)).counts().occupied()).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a:b", "a{b}", "a*", "a b", "a\nb", "UPPER", "-x"})
    void badNamesAreRejectedBeforeAnythingIsStored(String bad) {
        assertThatThrownBy(() -> store.update(bad, "r1", RoomStatus.READY, at(0))).isInstanceOf(ValidationException.class);
        assertThatThrownBy(() -> store.update(scheduler, bad, RoomStatus.READY, at(0))).isInstanceOf(ValidationException.class);
        assertThatThrownBy(() -> store.counts(bad)).isInstanceOf(ValidationException.class);
        assertThatThrownBy(() -> store.remove(scheduler, bad)).isInstanceOf(ValidationException.class);
        assertThat(store.counts(scheduler)).isEqualTo(RoomStatusCounts.ZERO);
    }

    @Test
    void expiredPingQueryIgnoresTerminatingRoomsAndIncludesTheCutoff() {
        store.update(scheduler, "old", RoomStatus.READY, at(0));
        store.update(scheduler, "older", RoomStatus.OCCUPIED, at(-5));
        store.update(scheduler, "fresh", RoomStatus.READY, at(100));
        store.update(scheduler, "going", RoomStatus.TERMINATING, at(0));
        store.update(scheduler, "edge", RoomStatus.READY, at(50));
        store.update(scheduler, "after", RoomStatus.READY, at(51));
        assertThat(store.roomsWithPingAtOrBefore(scheduler, at(50))).containsExactly("older", "old", "edge");
    }

    @Test
    void aRoomSilentForExactlyThePingTimeoutOrOccupiedForExactlyTheOccupiedTimeoutIsDead() {
        store.update(scheduler, "silent", RoomStatus.READY, at(70));
        store.update(scheduler, "busy", RoomStatus.OCCUPIED, at(40));
        store.update(scheduler, "busy", RoomStatus.OCCUPIED, at(99));
        store.update(scheduler, "fine", RoomStatus.READY, at(71));
        DeadRoomRules rules = new DeadRoomRules(Duration.ofSeconds(30), Optional.of(Duration.ofSeconds(60)));
        assertThat(store.deadRooms(scheduler, rules, at(100))).containsExactlyInAnyOrder("silent", "busy");
    }

    @Test
    void occupiedTimeoutQuery() {
        store.update(scheduler, "long", RoomStatus.OCCUPIED, at(0));
        store.update(scheduler, "long", RoomStatus.OCCUPIED, at(90));
        store.update(scheduler, "short", RoomStatus.OCCUPIED, at(80));
        store.update(scheduler, "free", RoomStatus.READY, at(0));
        assertThat(store.roomsOccupiedAtOrBefore(scheduler, at(60))).containsExactly("long");
        assertThat(store.roomsOccupiedAtOrBefore(scheduler, at(80))).containsExactly("long", "short");
        store.update(scheduler, "long", RoomStatus.READY, at(95));
        assertThat(store.roomsOccupiedAtOrBefore(scheduler, at(60))).isEmpty();
    }

    @Test
    void deadRoomsCombinesBothRules() {
        store.update(scheduler, "silent", RoomStatus.READY, at(0));
        store.update(scheduler, "busy", RoomStatus.OCCUPIED, at(0));
        store.update(scheduler, "busy", RoomStatus.OCCUPIED, at(100));
        store.update(scheduler, "fine", RoomStatus.READY, at(100));
        DeadRoomRules rules = new DeadRoomRules(Duration.ofSeconds(30), Optional.of(Duration.ofSeconds(60)));
        assertThat(store.deadRooms(scheduler, rules, at(100))).containsExactlyInAnyOrder("silent", "busy");
        DeadRoomRules noOccupiedTimeout = new DeadRoomRules(Duration.ofSeconds(30), Optional.empty());
        assertThat(store.deadRooms(scheduler, noOccupiedTimeout, at(100))).containsExactly("silent");
    }

    @Test
    void roomsOrderedByMetric() {
        store.update(scheduler, "c", RoomStatus.READY, at(0));
        store.update(scheduler, "a", RoomStatus.READY, at(0));
        store.update(scheduler, "b", RoomStatus.OCCUPIED, at(0));
        store.update(scheduler, "d", RoomStatus.READY, at(0));
        store.update(scheduler, "e", RoomStatus.TERMINATING, at(0));
        assertThat(store.roomsOrderedByMetric(scheduler, "room", 5)).containsExactly("a", "c", "d");
        assertThat(store.roomsOrderedByMetric(scheduler, "legacy", 2)).containsExactly("a", "c");

        store.setRoomMetric(scheduler, "a", "cpu", 0.9);
        store.setRoomMetric(scheduler, "b", "cpu", 0.1);
        store.setRoomMetric(scheduler, "c", "cpu", 0.5);
        store.setRoomMetric(scheduler, "d", "cpu", 0.5);
        store.setRoomMetric(scheduler, "e", "cpu", 0.0);
        store.setRoomMetric(scheduler, "a", "mem", 1.0);
        assertThat(store.roomsOrderedByMetric(scheduler, "cpu", 3)).containsExactly("b", "c", "d");
        assertThat(store.roomsOrderedByMetric(scheduler, "mem", 5)).containsExactly("a");

        assertThatThrownBy(() -> store.roomsOrderedByMetric(scheduler, "disk", 5)).isInstanceOf(ValidationException.class);
        assertThatThrownBy(() -> store.roomsOrderedByMetric(scheduler, "room", 0)).isInstanceOf(ValidationException.class);
    }

    @Test
    void removeClearsEverythingOfTheRoom() {
        store.update(scheduler, "r1", RoomStatus.OCCUPIED, at(0));
        store.update(scheduler, "r2", RoomStatus.READY, at(0));
        store.setRoomMetric(scheduler, "r1", "cpu", 0.3);
        store.setRoomMetric(scheduler, "r1", "mem", 0.3);
        RoomStatusCounts after = store.remove(scheduler, "r1");
        assertThat(after).isEqualTo(new RoomStatusCounts(0, 1, 0, 0));
        assertThat(store.room(scheduler, "r1")).isEmpty();
        assertThat(store.rooms(scheduler, RoomStatus.OCCUPIED)).isEmpty();
        assertThat(store.roomsWithPingAtOrBefore(scheduler, at(1000))).containsExactly("r2");
        assertThat(store.roomsOccupiedAtOrBefore(scheduler, at(1000))).isEmpty();
        assertThat(store.roomsOrderedByMetric(scheduler, "cpu", 5)).isEmpty();
        assertThat(store.roomsOrderedByMetric(scheduler, "mem", 5)).isEmpty();
        assertThat(store.remove(scheduler, "r1")).as("idempotent").isEqualTo(after);

        store.update(scheduler, "r1", RoomStatus.READY, at(-100));
        assertThat(store.room(scheduler, "r1")).as("a removed room starts afresh, even with an old timestamp")
                .contains(new RoomState("r1", RoomStatus.READY, at(-100), Optional.empty()));
    }

    // --- matches and slots ----------------------------------------------------------------------------------

    @Test
    void runningMatchesAreKeptPerRoomAndCountedForNonTerminatingRooms() {
        store.update(scheduler, "a", RoomStatus.OCCUPIED, at(0), 3);
        store.update(scheduler, "b", RoomStatus.OCCUPIED, at(0));
        RoomUpdate u = store.update(scheduler, "c", RoomStatus.READY, at(0), 0);
        assertThat(u.counts()).isEqualTo(new RoomStatusCounts(0, 1, 2, 0, 0, 4, 0));
        assertThat(store.room(scheduler, "a").orElseThrow().runningMatches()).isEqualTo(3);
        assertThat(store.room(scheduler, "b").orElseThrow().runningMatches()).as("occupied without a count: one").isEqualTo(1);

        assertThat(store.update(scheduler, "a", RoomStatus.OCCUPIED, at(1), 1).counts().runningMatches()).isEqualTo(2);
        assertThat(store.update(scheduler, "a", RoomStatus.TERMINATING, at(2), 1).counts())
                .as("terminating rooms run nothing that counts").isEqualTo(new RoomStatusCounts(0, 1, 1, 1, 0, 1, 0));
        assertThat(store.remove(scheduler, "b")).isEqualTo(new RoomStatusCounts(0, 1, 0, 1, 0, 0, 0));
        assertThat(store.counts(scheduler)).isEqualTo(new RoomStatusCounts(0, 1, 0, 1, 0, 0, 0));
        assertThatThrownBy(() -> store.update(scheduler, "c", RoomStatus.OCCUPIED, at(3), -1))
                .isInstanceOf(ValidationException.class).hasMessageContaining("runningMatches");
    }

    @Test
    void aRoomInErrorIsCountedNeverAllocatedAndRemovedAsADeadRoom() {
        // Item 11 of issue 27: Maestro 10's error status.
        store.update(scheduler, "ok", RoomStatus.READY, at(100));
        store.update(scheduler, "bad", RoomStatus.OCCUPIED, at(100), 2);
        assertThat(store.allocate(scheduler, 4, at(100))).contains("bad");
        RoomUpdate u = store.ping(scheduler, "bad", "error", at(101), 2);
        assertThat(u.outcome()).isEqualTo(RoomProtocol.Outcome.APPLIED);
        assertThat(u.previous()).contains(RoomStatus.OCCUPIED);
        assertThat(u.counts()).as("counted as error only: no capacity, matches or slots")
                .isEqualTo(new RoomStatusCounts(0, 1, 0, 0, 0, 0, 0, 1));
        assertThat(u.counts().active()).isEqualTo(1);
        assertThat(store.counts(scheduler)).isEqualTo(u.counts());
        assertThat(store.rooms(scheduler, RoomStatus.ERROR)).containsExactly("bad");
        assertThat(store.room(scheduler, "bad").orElseThrow().allocatedSlots()).isZero();
        assertThat(store.roomsWithFreeSlots(scheduler, 4, 10)).containsExactly("ok");
        assertThat(store.allocate(scheduler, 4, at(102))).as("never allocated").contains("ok");
        assertThat(store.allocate(scheduler, 4, at(102))).contains("ok");
        DeadRoomRules rules = new DeadRoomRules(Duration.ofSeconds(30), Optional.empty());
        assertThat(store.deadRooms(scheduler, rules, at(102))).as("dead however fresh its ping").containsExactly("bad");
        assertThat(store.remove(scheduler, "bad")).isEqualTo(new RoomStatusCounts(0, 0, 0, 0, 1, 0, 2, 0));
        store.update(scheduler, "gone", RoomStatus.ERROR, at(103));
        store.update(scheduler, "gone", RoomStatus.TERMINATING, at(104));
        assertThat(store.update(scheduler, "gone", RoomStatus.ERROR, at(105)).outcome())
                .as("nothing leaves terminating, error included").isEqualTo(RoomProtocol.Outcome.REJECTED);
        store.update(scheduler, "again", RoomStatus.ERROR, at(106));
        store.removeScheduler(scheduler);
        assertThat(store.counts(scheduler)).isEqualTo(RoomStatusCounts.ZERO);
        assertThat(store.rooms(scheduler, RoomStatus.ERROR)).isEmpty();
    }

    @Test
    void allocationHandsOutTheMostUsedRoomsFreeSlotsFirstThenEmptyRoomsByName() {
        store.update(scheduler, "empty-b", RoomStatus.READY, at(0));
        store.update(scheduler, "empty-a", RoomStatus.READY, at(0));
        store.update(scheduler, "half", RoomStatus.OCCUPIED, at(0), 2);
        store.update(scheduler, "full", RoomStatus.OCCUPIED, at(0), 4);
        store.update(scheduler, "starting", RoomStatus.CREATING, at(0));
        store.update(scheduler, "going", RoomStatus.TERMINATING, at(0));
        assertThat(store.roomsWithFreeSlots(scheduler, 4, 10)).containsExactly("half", "empty-a", "empty-b");

        assertThat(store.allocate(scheduler, 4, at(1))).contains("half");
        assertThat(store.allocate(scheduler, 4, at(2))).contains("half");
        assertThat(store.allocate(scheduler, 4, at(3))).as("half is full now").contains("empty-a");
        assertThat(store.allocate(scheduler, 4, at(4))).as("empty-a is used now").contains("empty-a");
        assertThat(store.room(scheduler, "half").orElseThrow())
                .extracting(RoomState::status, RoomState::runningMatches, RoomState::allocatedSlots, RoomState::allocatedAt)
                .containsExactly(RoomStatus.OCCUPIED, 2, 2, Optional.of(at(2)));
        assertThat(store.room(scheduler, "empty-a").orElseThrow().status()).isEqualTo(RoomStatus.ALLOCATED);
        assertThat(store.counts(scheduler)).isEqualTo(new RoomStatusCounts(1, 1, 2, 1, 1, 6, 4));
        assertThat(store.rooms(scheduler, RoomStatus.ALLOCATED)).containsExactly("empty-a");
        assertThat(store.roomsOrderedByMetric(scheduler, "room", 10)).as("ready rooms only").containsExactly("empty-b");

        assertThat(store.allocate(scheduler, 1, at(5))).as("single-match rooms: only empty ones").contains("empty-b");
        assertThat(store.allocate(scheduler, 1, at(6))).isEmpty();
        assertThatThrownBy(() -> store.allocate(scheduler, 0, at(6))).isInstanceOf(ValidationException.class);
    }

    @Test
    void anAllocatedRoomStaysAllocatedOnReadyKeepAlivesUntilItsMatchRuns() {
        store.update(scheduler, "r1", RoomStatus.READY, at(0));
        assertThat(store.allocate(scheduler, 1, at(1))).contains("r1");

        RoomUpdate keepAlive = store.update(scheduler, "r1", RoomStatus.READY, at(2));
        assertThat(keepAlive.previous()).contains(RoomStatus.ALLOCATED);
        assertThat(keepAlive.counts()).isEqualTo(new RoomStatusCounts(0, 0, 0, 0, 1, 0, 1));
        assertThat(store.room(scheduler, "r1").orElseThrow().allocatedAt()).as("a keep-alive is no new allocation").contains(at(1));

        RoomUpdate started = store.update(scheduler, "r1", RoomStatus.OCCUPIED, at(3));
        assertThat(started.counts()).as("the slot became the running match").isEqualTo(new RoomStatusCounts(0, 0, 1, 0, 0, 1, 0));
        assertThat(store.room(scheduler, "r1").orElseThrow().allocatedSlots()).isZero();
        assertThat(store.update(scheduler, "r1", RoomStatus.READY, at(4)).counts()).isEqualTo(new RoomStatusCounts(0, 1, 0, 0, 0, 0, 0));
    }

    @Test
    void allocationsTimeOutAtTheCutoffAndTheRoomIsReadyAgain() {
        store.update(scheduler, "early", RoomStatus.READY, at(0));
        store.update(scheduler, "late", RoomStatus.READY, at(0));
        store.update(scheduler, "busy", RoomStatus.OCCUPIED, at(0), 1);
        assertThat(store.allocate(scheduler, 2, at(10))).contains("busy");
        assertThat(store.allocate(scheduler, 2, at(10))).contains("early");
        assertThat(store.allocate(scheduler, 2, at(11))).contains("early");
        assertThat(store.allocate(scheduler, 2, at(20))).contains("late");

        assertThat(store.expireAllocations(scheduler, at(9))).isEmpty();
        assertThat(store.expireAllocations(scheduler, at(11))).as("allocated at or before the cutoff").containsExactlyInAnyOrder("busy", "early");
        assertThat(store.room(scheduler, "early").orElseThrow())
                .extracting(RoomState::status, RoomState::allocatedSlots, RoomState::allocatedAt)
                .containsExactly(RoomStatus.READY, 0, Optional.empty());
        assertThat(store.room(scheduler, "busy").orElseThrow().status()).isEqualTo(RoomStatus.OCCUPIED);
        assertThat(store.counts(scheduler)).isEqualTo(new RoomStatusCounts(0, 1, 1, 0, 1, 1, 1));
        assertThat(store.roomsWithFreeSlots(scheduler, 2, 10)).containsExactly("busy", "late", "early");
        assertThat(store.expireAllocations(scheduler, at(11))).as("once").isEmpty();
    }

    @Test
    void terminatingDropsAllocationsAndRemoveClearsSlots() {
        store.update(scheduler, "r1", RoomStatus.READY, at(0));
        store.update(scheduler, "r2", RoomStatus.READY, at(0));
        store.allocate(scheduler, 2, at(1));
        store.allocate(scheduler, 2, at(1));
        assertThat(store.update(scheduler, "r1", RoomStatus.TERMINATING, at(2)).counts())
                .isEqualTo(new RoomStatusCounts(0, 1, 0, 1, 0, 0, 0));
        assertThat(store.roomsWithFreeSlots(scheduler, 2, 10)).containsExactly("r2");
        assertThat(store.expireAllocations(scheduler, at(100))).isEmpty();
        store.allocate(scheduler, 2, at(3));
        assertThat(store.remove(scheduler, "r2")).isEqualTo(new RoomStatusCounts(0, 0, 0, 1, 0, 0, 0));
        assertThat(store.roomsWithFreeSlots(scheduler, 2, 10)).isEmpty();
        assertThat(store.expireAllocations(scheduler, at(100))).isEmpty();
    }

    @Test
    void concurrentAllocatorsNeverGetTheSameSlot() throws Exception {
        int rooms = 20;
        int slots = 3;
        for (int i = 0; i < rooms; i++) {
            store.update(scheduler, "r" + i, RoomStatus.READY, at(0));
        }
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<String> granted = java.util.Collections.synchronizedList(new ArrayList<>());
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    for (Optional<String> room = store.allocate(scheduler, slots, at(1)); room.isPresent();
                         room = store.allocate(scheduler, slots, at(1))) {
                        granted.add(room.get());
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : futures) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(granted).as("every slot once").hasSize(rooms * slots);
        java.util.Map<String, Long> perRoom = granted.stream()
                .collect(java.util.stream.Collectors.groupingBy(r -> r, java.util.stream.Collectors.counting()));
        assertThat(perRoom).hasSize(rooms).allSatisfy((room, n) -> assertThat(n).isEqualTo((long) slots));
        assertThat(store.counts(scheduler)).isEqualTo(new RoomStatusCounts(0, 0, 0, 0, rooms, 0, rooms * slots));
    }

    @Test
    void removeSchedulerClearsAllItsRooms() {
        store.update(scheduler, "r1", RoomStatus.READY, at(0));
        store.update(scheduler, "r1", RoomStatus.READY, at(-1));
        store.removeScheduler(scheduler);
        assertThat(store.counts(scheduler)).isEqualTo(RoomStatusCounts.ZERO);
        assertThat(store.rooms(scheduler, RoomStatus.READY)).isEmpty();
        assertThat(store.staleReports(scheduler)).isZero();
    }

    @Test
    void schedulersAreIndependent() {
        String other = scheduler + "-other";
        store.removeScheduler(other);
        store.update(scheduler, "r1", RoomStatus.READY, at(0));
        store.update(other, "r1", RoomStatus.OCCUPIED, at(0));
        assertThat(store.counts(scheduler)).isEqualTo(new RoomStatusCounts(0, 1, 0, 0));
        assertThat(store.counts(other)).isEqualTo(new RoomStatusCounts(0, 0, 1, 0));
        store.removeScheduler(other);
        assertThat(store.counts(scheduler)).isEqualTo(new RoomStatusCounts(0, 1, 0, 0));
    }

    @Test
    void concurrentUpdatesKeepCountsExact() throws Exception {
        int threads = 8;
        int roomsPerThread = 50;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < roomsPerThread; i++) {
                        String room = "t" + thread + "-r" + i;
                        store.update(scheduler, room, RoomStatus.CREATING, at(0));
                        store.update(scheduler, room, RoomStatus.READY, at(1));
                        if (i % 2 == 0) {
                            store.update(scheduler, room, RoomStatus.OCCUPIED, at(2));
                        }
                        if (i % 5 == 0) {
                            store.update(scheduler, room, RoomStatus.TERMINATING, at(3));
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : futures) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        // per thread: 50 rooms; 10 terminating (i%5==0); of the other 40, i even -> occupied (20), odd -> ready (20)
        assertThat(store.counts(scheduler)).isEqualTo(new RoomStatusCounts(0, threads * 20, threads * 20, threads * 10));
        assertThat(store.rooms(scheduler, RoomStatus.READY)).hasSize(threads * 20);
    }

    @Test
    void oneObservationAnswersWhatTheSeparateReadsAnswer() {
        store.update(scheduler, "creating", RoomStatus.CREATING, at(90));
        store.update(scheduler, "ready", RoomStatus.READY, at(95));
        store.update(scheduler, "busy", RoomStatus.OCCUPIED, at(0));
        store.update(scheduler, "busy", RoomStatus.OCCUPIED, at(99));
        store.update(scheduler, "silent", RoomStatus.READY, at(1));
        store.update(scheduler, "going", RoomStatus.TERMINATING, at(98));
        store.update(scheduler, "broken", RoomStatus.ERROR, at(99));
        DeadRoomRules rules = new DeadRoomRules(Duration.ofSeconds(30), Optional.of(Duration.ofSeconds(60)));

        RoomObservation observed = store.observe(scheduler, rules, at(100));

        assertThat(observed.statuses()).containsOnly(Map.entry("creating", RoomStatus.CREATING), Map.entry("ready", RoomStatus.READY),
                Map.entry("silent", RoomStatus.READY), Map.entry("busy", RoomStatus.OCCUPIED), Map.entry("going", RoomStatus.TERMINATING),
                Map.entry("broken", RoomStatus.ERROR));
        assertThat(observed.counts()).isEqualTo(store.counts(scheduler)).isEqualTo(new RoomStatusCounts(1, 2, 1, 1, 0, 1, 0, 1));
        assertThat(observed.dead()).containsExactlyInAnyOrderElementsOf(store.deadRooms(scheduler, rules, at(100)))
                .containsExactlyInAnyOrder("silent", "busy", "broken");
        assertThat(store.observe(scheduler + "-none", rules, at(100)))
                .isEqualTo(new RoomObservation(Map.of(), RoomStatusCounts.ZERO, List.of()));
    }
}
