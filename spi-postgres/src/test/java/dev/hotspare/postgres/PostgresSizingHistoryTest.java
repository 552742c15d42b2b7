package dev.hotspare.postgres;

import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.pool.sizing.HotSpareSizer.SizingDecision;
import dev.hotspare.pool.sizing.SizerSettings;
import dev.hotspare.pool.sizing.SizerSettings.WaitTarget;
import dev.hotspare.pool.sizing.SizingHistory;
import dev.hotspare.pool.sizing.SizingHistory.ClaimWait;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sizer's learned history survives a restart on PostgreSQL: the claim store keeps every claim's arrival and
 * wait (schema version 9), and a controller started again on the same database takes them over, so it sizes
 * from the same daily profile and error budget as the controller before it. On virtual time.
 */
class PostgresSizingHistoryTest {

    private static final String SCHEMA = "hs_test_sizing";
    private static final Duration RESUME = Duration.ofMinutes(5);
    private static final Duration INSTALL = Duration.ofMinutes(20);

    private final String pool = "sz" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);

    private static SizerSettings sizing() {
        return SizerSettings.of(WaitTarget.parse("targetWait", "p95 <= PT1M"), 0, 6).withDefaultLeadTimes(RESUME, INSTALL);
    }

    private static PoolController controller(PoolSpec spec, InMemoryMemberDriver driver, dev.hotspare.pool.spi.ClaimStore store,
                                             VirtualTimeScheduler time) {
        return PoolController.builder(spec).memberDriver(driver).claimStore(store).scheduler(time).resyncPeriod(Duration.ofMinutes(1)).build();
    }

    @Test
    void aControllerStartedAgainOnTheSameDatabaseSizesAsTheOneBeforeTheRestart() {
        VirtualTimeScheduler time = VirtualTimeScheduler.startingAt2026();
        InMemoryMemberDriver driver = InMemoryMemberDriver.builder(time).installTime(INSTALL).resumeTime(RESUME)
                .hibernateTime(Duration.ofMinutes(1)).build();
        PoolSpec spec = PoolSpec.builder(pool).size(8).runningCount(0).autoSizing(sizing()).build();
        SizingDecision before;
        int claims = 0;
        try (PoolController first = controller(spec, driver, new PostgresClaimStore(TestSchemas.migrated(SCHEMA), SCHEMA), time)) {
            // 34 hours in 5-minute passes from Thursday 00:00 UTC: a claim every 5 minutes 09:00-17:00, one every
            // two hours otherwise; each released once served.
            for (int step = 0; step < 34 * 12; step++) {
                int minute = time.now().atZone(ZoneOffset.UTC).getHour() * 60 + time.now().atZone(ZoneOffset.UTC).getMinute();
                boolean day = minute >= 9 * 60 && minute < 17 * 60;
                if (day || step % 24 == 0) {
                    ClaimHandle handle = first.claim("c-" + claims++);
                    handle.member().thenAccept(m -> first.release(handle));
                }
                first.reconcile();
                time.advanceBy(Duration.ofMinutes(5));
            }
            first.reconcile();
            before = first.sizing().orElseThrow();
        }
        assertThat(before.explanation()).as("a day of history: the profile is followed").contains("daily profile");

        // Restart: a new store object and a new controller on the same database, at the same instant.
        try (PoolController second = controller(spec, driver, new PostgresClaimStore(TestSchemas.migrated(SCHEMA), SCHEMA), time)) {
            second.reconcile();
            SizingDecision after = second.sizing().orElseThrow();
            // The same model from the same history: the forecast, the budget's count of waits and the count asked
            // for. Only the pace may differ: the new controller starts from the spec's runningCount and rises by
            // maxStep per decision, as any controller does after a restart.
            assertThat(after.modelled()).isEqualTo(before.modelled());
            assertThat(upToTheBasis(after.explanation())).isEqualTo(upToTheBasis(before.explanation()));
            time.advanceBy(Duration.ofMinutes(1));
            second.reconcile();
            assertThat(second.sizing().orElseThrow().runningCount()).isEqualTo(before.runningCount());
        }

        // Without the kept history (a store that keeps none) the same instant is sized from the recent windows only.
        InMemoryMemberDriver fresh = InMemoryMemberDriver.builder(time).installTime(INSTALL).resumeTime(RESUME)
                .hibernateTime(Duration.ofMinutes(1)).build();
        try (PoolController forgetful = controller(spec, fresh, new InMemoryClaimStore(), time)) {
            forgetful.reconcile();
            assertThat(forgetful.sizing().orElseThrow().explanation()).doesNotContain("profile");
        }
    }

    /** An explanation without its last part, which names what set the count (pace after a restart). */
    private static String upToTheBasis(String explanation) {
        return explanation.substring(0, explanation.lastIndexOf(':'));
    }

    @Test
    void theStoreKeepsArrivalsWaitsAndTheFirstStartAndForgetsWhatIsOlderThanTheSizerKeeps() {
        PostgresClaimStore store = new PostgresClaimStore(TestSchemas.migrated(SCHEMA), SCHEMA);
        Instant t0 = Instant.parse("2026-02-02T09:00:00Z");
        assertThat(store.sizingHistory(pool, t0.minus(SizingHistory.KEPT))).as("no start recorded yet").isEmpty();
        store.recordSizingStart(pool, t0);
        store.recordSizingStart(pool, t0.plusSeconds(60));
        store.submit(pool, "old", Optional.empty(), t0);
        store.submit(pool, "a", Optional.empty(), t0.plus(Duration.ofDays(15)));
        store.submit(pool, "b", Optional.empty(), t0.plus(Duration.ofDays(15)).plusSeconds(30));
        store.offerMember(pool, "m1", t0);
        store.assign(pool, "a", "m1", t0.plus(Duration.ofDays(15)).plusSeconds(10));
        store.markReady(pool, "a", t0.plus(Duration.ofDays(15)).plusSeconds(40));
        store.release(pool, "a");

        Instant now = t0.plus(Duration.ofDays(15)).plusSeconds(60);
        SizingHistory h = store.sizingHistory(pool, now.minus(SizingHistory.KEPT)).orElseThrow();
        assertThat(h.since()).as("the first start stays").contains(t0);
        assertThat(h.arrivals()).as("a released claim stays in the history; one older than 14 days does not")
                .containsExactly(t0.plus(Duration.ofDays(15)), t0.plus(Duration.ofDays(15)).plusSeconds(30));
        assertThat(h.waits()).as("only the claim marked ready has a wait")
                .containsExactly(new ClaimWait(t0.plus(Duration.ofDays(15)), Duration.ofSeconds(40)));
        assertThat(store.sizingHistory(pool, t0).orElseThrow().arrivals()).as("the old row was deleted on the first read")
                .hasSize(2);
        assertThat(store.sizingHistory("other" + pool, t0)).isEmpty();
    }
}
