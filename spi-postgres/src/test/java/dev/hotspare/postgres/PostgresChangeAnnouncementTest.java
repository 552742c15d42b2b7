package dev.hotspare.postgres;

import dev.hotspare.pool.ClaimRequest;
import dev.hotspare.pool.spi.ClaimStore.AssignOutcome;
import dev.hotspare.pool.spi.ClaimStore.Assignment;
import dev.hotspare.pool.spi.ClaimStore.ClaimExistsException;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The claim path's changes are announced once committed, from one thread of the store, the pools changed meanwhile
 * together (issue 22): no pool's change is left unannounced, nothing unchanged is announced, and a failed announcement
 * does not stop the next.
 */
class PostgresChangeAnnouncementTest {

    private static final String SCHEMA = "hs_test_announce";
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    private final DataSource ds = TestSchemas.migrated(SCHEMA);
    private final PostgresClaimStore store = new PostgresClaimStore(ds, SCHEMA);

    private static String freshPool() {
        return "p" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffffL);
    }

    @Test
    void everyPoolChangedFromManyThreadsAtOnceIsAnnouncedAfterEachStep() throws Exception {
        int pools = 8;
        List<String> names = new ArrayList<>();
        List<AtomicInteger> heard = new ArrayList<>();
        List<AutoCloseable> watches = new ArrayList<>();
        for (int p = 0; p < pools; p++) {
            String pool = freshPool();
            AtomicInteger count = new AtomicInteger();
            names.add(pool);
            heard.add(count);
            watches.add(store.watch(pool, count::incrementAndGet));
        }
        ExecutorService threads = Executors.newFixedThreadPool(pools);
        try {
            // Each step's changes commit after every watcher heard the step before, so each must be heard again.
            atOnce(threads, names, pool -> assertThat(store.submitAll(pool, List.of(ClaimRequest.of("a"), ClaimRequest.of("b")), T0))
                    .allMatch(Optional::isPresent));
            await().atMost(Duration.ofSeconds(60)).until(() -> heard.stream().allMatch(h -> h.get() >= 1));
            int[] afterSubmit = heard.stream().mapToInt(AtomicInteger::get).toArray();
            atOnce(threads, names, pool -> assertThat(store.assignAll(pool, List.of(new Assignment("a", "m-a", T0, Optional.empty()),
                    new Assignment("b", "m-b", T0, Optional.empty())), T0)).containsOnly(AssignOutcome.ASSIGNED));
            await().atMost(Duration.ofSeconds(60)).until(() -> heardAgain(heard, afterSubmit));
            int[] afterAssign = heard.stream().mapToInt(AtomicInteger::get).toArray();
            atOnce(threads, names, pool -> assertThat(store.release(pool, "a")).isTrue());
            await().atMost(Duration.ofSeconds(60)).until(() -> heardAgain(heard, afterAssign));
            int[] afterRelease = heard.stream().mapToInt(AtomicInteger::get).toArray();
            atOnce(threads, names, pool -> assertThat(store.submit(pool, ClaimRequest.of("c"), T0)).isNotNull());
            await().atMost(Duration.ofSeconds(60)).until(() -> heardAgain(heard, afterRelease));
        } finally {
            threads.shutdownNow();
            for (AutoCloseable watch : watches) {
                watch.close();
            }
        }
    }

    @Test
    void aReleaseOrSubmitThatChangesNothingAnnouncesNothing() throws Exception {
        String quiet = freshPool();
        String busy = freshPool();
        AtomicInteger quietHeard = new AtomicInteger();
        AtomicInteger busyHeard = new AtomicInteger();
        try (AutoCloseable q = store.watch(quiet, quietHeard::incrementAndGet);
             AutoCloseable b = store.watch(busy, busyHeard::incrementAndGet)) {
            store.submit(quiet, ClaimRequest.of("job"), T0);
            await().atMost(Duration.ofSeconds(60)).until(() -> quietHeard.get() >= 1);
            int before = quietHeard.get();
            assertThat(store.release(quiet, "missing")).isFalse();
            assertThatThrownBy(() -> store.submit(quiet, ClaimRequest.of("job"), T0)).isInstanceOf(ClaimExistsException.class);
            assertThat(store.submitAll(quiet, List.of(ClaimRequest.of("job")), T0)).containsExactly(Optional.empty());
            heardNothingMore(quietHeard, before, busy, busyHeard);
        }
    }

    /**
     * Changes another pool and waits until it is heard: announcements go out in order from one thread, so anything
     * announced before it would have been heard by then, and {@code heard} must still be {@code before}.
     */
    private void heardNothingMore(AtomicInteger heard, int before, String busy, AtomicInteger busyHeard) {
        store.submit(busy, ClaimRequest.of("job"), T0);
        await().atMost(Duration.ofSeconds(60)).until(() -> busyHeard.get() >= 1);
        assertThat(heard).hasValue(before);
    }

    @Test
    void aReserveIsAnnouncedOnceItSubmitsAClaimAndNotWhenItRepeatsOne() throws Exception {
        String pool = freshPool();
        String busy = freshPool();
        AtomicInteger heard = new AtomicInteger();
        AtomicInteger busyHeard = new AtomicInteger();
        try (AutoCloseable w = store.watch(pool, heard::incrementAndGet);
             AutoCloseable b = store.watch(busy, busyHeard::incrementAndGet)) {
            store.reserve(pool, "req-1", ClaimRequest.of("job"), Duration.ofMinutes(5), T0);
            await().atMost(Duration.ofSeconds(60)).until(() -> heard.get() >= 1);
            int before = heard.get();
            store.reserve(pool, "req-1", ClaimRequest.of("job"), Duration.ofMinutes(5), T0);
            heardNothingMore(heard, before, busy, busyHeard);
        }
    }

    @Test
    void afterAnAnnouncementFailsTheNextChangeIsAnnounced() throws Exception {
        String pool = freshPool();
        CountDownLatch failed = new CountDownLatch(1);
        ChangeAnnouncer announcer = new ChangeAnnouncer(failingFirstConnection(ds, failed), SCHEMA + "_claims", "test store");
        AtomicInteger heard = new AtomicInteger();
        try (AutoCloseable watch = store.watch(pool, heard::incrementAndGet)) {
            announcer.announce(pool);
            assertThat(failed.await(60, TimeUnit.SECONDS)).as("the first announcement reached the data source").isTrue();
            announcer.announce(pool);
            await().atMost(Duration.ofSeconds(60)).until(() -> heard.get() >= 1);
        }
    }

    private static boolean heardAgain(List<AtomicInteger> heard, int[] before) {
        for (int i = 0; i < before.length; i++) {
            if (heard.get(i).get() <= before[i]) {
                return false;
            }
        }
        return true;
    }

    /** Runs {@code change} for every pool, one thread each, all released at once; fails if any change failed. */
    private static void atOnce(ExecutorService threads, List<String> pools, Consumer<String> change) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (String pool : pools) {
            done.add(threads.submit(() -> {
                go.await();
                change.accept(pool);
                return null;
            }));
        }
        go.countDown();
        for (Future<?> f : done) {
            f.get(60, TimeUnit.SECONDS);
        }
    }

    /** {@code delegate}, except that its first connection cannot be had (the database is down for a moment). */
    private static DataSource failingFirstConnection(DataSource delegate, CountDownLatch failed) {
        AtomicInteger asked = new AtomicInteger();
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[]{DataSource.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("getConnection") && asked.getAndIncrement() == 0) {
                        failed.countDown();
                        throw new SQLException("connection refused", "08001");
                    }
                    try {
                        return method.invoke(delegate, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
