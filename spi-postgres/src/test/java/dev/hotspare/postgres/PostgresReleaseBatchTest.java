package dev.hotspare.postgres;

import dev.hotspare.pool.ClaimRequest;
import dev.hotspare.spi.StoreUnavailableException;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Releases from many threads of one store that arrive while one is in flight are deleted together, in one round trip,
 * and each caller hears its own answer (issue 22: a release was its own round trip). The release in flight is held on a
 * row lock taken by another transaction, so the others queue behind it for certain, whatever the machine's speed.
 */
class PostgresReleaseBatchTest {

    private static final String SCHEMA = "hs_test_release_batch";
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private final DataSource ds = TestSchemas.migrated(SCHEMA);

    private static String freshPool() {
        return "p" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffffL);
    }

    @Test
    void releasesQueuedBehindOneInFlightGoInOneRoundTripAndEachHearsItsOwnAnswer() throws Exception {
        PostgresClaimStore store = new PostgresClaimStore(ds, SCHEMA);
        String pool = freshPool();
        List<String> names = submitted(store, pool, 20);
        List<String> asked = new ArrayList<>(names);
        asked.add(names.get(0)); // the same claim twice: one of the two releases it
        asked.add("never-submitted");

        Queued queued = queuedBehindAHeldRelease(store, pool, asked, () -> { });

        List<Boolean> got = queued.answers();
        // Each of the 20 claims released once; the repeat and the unknown name release nothing.
        assertThat(got.subList(1, 20)).containsOnly(true);
        assertThat(List.of(got.get(0), got.get(20))).containsExactlyInAnyOrder(true, false);
        assertThat(got.get(21)).isFalse();
        assertThat(queued.roundTrips()).as("the 22 queued releases went in one round trip").isEqualTo(1);
        for (String name : names) {
            assertThat(store.find(pool, name)).isEmpty();
        }
    }

    @Test
    void aBatchTheDatabaseCannotAnswerFailsEachReleaseInItAndLosesNothing() throws Exception {
        AtomicBoolean refuse = new AtomicBoolean();
        PostgresClaimStore store = new PostgresClaimStore(wrapped(ds, refuse, c -> c), SCHEMA);
        String pool = freshPool();
        List<String> names = submitted(store, pool, 5);

        Queued queued = queuedBehindAHeldRelease(store, pool, names, () -> refuse.set(true));

        for (Future<Boolean> answer : queued.futures()) {
            assertThat(answer).failsWithin(Duration.ofSeconds(60)).withThrowableOfType(ExecutionException.class)
                    .havingCause().isInstanceOf(StoreUnavailableException.class);
        }
        // One attempt for the batch: retrying each release alone would only wait for a connection as long again.
        assertThat(queued.roundTrips()).isEqualTo(1);
        refuse.set(false);
        // Nothing was deleted: each claim is still there, and released when asked again.
        for (String name : names) {
            assertThat(store.find(pool, name)).isPresent();
            assertThat(store.release(pool, name)).isTrue();
        }
    }

    @Test
    void aBatchRolledBackForAnyOtherReasonIsRetriedOneReleaseAtATime() throws Exception {
        // Every multi-statement batch fails as a deadlock would: PostgreSQL rolls it back and each release must go alone.
        PostgresClaimStore store = new PostgresClaimStore(wrapped(ds, new AtomicBoolean(), PostgresReleaseBatchTest::deadlockingBatches),
                SCHEMA);
        String pool = freshPool();
        List<String> asked = new ArrayList<>(submitted(store, pool, 6));
        asked.add("never-submitted");

        Queued queued = queuedBehindAHeldRelease(store, pool, asked, () -> { });

        assertThat(queued.answers()).containsExactly(true, true, true, true, true, true, false);
        // The batch's failed round trip, then one per release.
        assertThat(queued.roundTrips()).isEqualTo(1 + asked.size());
    }

    /** The releases queued behind one in flight, and the round trips the store made for them. */
    private record Queued(List<Future<Boolean>> futures, long roundTrips) {
        List<Boolean> answers() throws Exception {
            List<Boolean> out = new ArrayList<>();
            for (Future<Boolean> future : futures) {
                out.add(future.get(60, TimeUnit.SECONDS));
            }
            return out;
        }
    }

    /**
     * Releases {@code asked} from a thread each while the store's release of claim "held" waits on a row lock, runs
     * {@code beforeTheLockEnds} once all of them are queued, then ends the lock and waits for every answer.
     */
    private Queued queuedBehindAHeldRelease(PostgresClaimStore store, String pool, List<String> asked,
                                            Runnable beforeTheLockEnds) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(asked.size() + 1);
        try (Connection holder = ds.getConnection()) {
            Future<Boolean> blocked = releaseHeldBehindARowLock(store, pool, holder, threads);
            long tripsBefore = store.releaseRoundTrips();
            List<Future<Boolean>> answers = new ArrayList<>();
            for (String name : asked) {
                answers.add(threads.submit(() -> store.release(pool, name)));
            }
            await().atMost(PATIENCE).until(() -> store.releasesQueued() == asked.size());
            beforeTheLockEnds.run();
            holder.commit();

            assertThat(blocked.get(60, TimeUnit.SECONDS)).isTrue();
            for (Future<Boolean> answer : answers) {
                try {
                    answer.get(60, TimeUnit.SECONDS);
                } catch (ExecutionException failed) {
                    // the test looks at each answer
                }
            }
            return new Queued(answers, store.releaseRoundTrips() - tripsBefore);
        } finally {
            threads.shutdownNow();
        }
    }

    /** {@code count} claims submitted in a fresh pool, plus a claim named "held" that the row lock is taken on. */
    private static List<String> submitted(PostgresClaimStore store, String pool, int count) {
        List<ClaimRequest> requests = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            names.add("c" + i);
            requests.add(ClaimRequest.of("c" + i));
        }
        requests.add(ClaimRequest.of("held"));
        assertThat(store.submitAll(pool, requests, T0)).allMatch(Optional::isPresent);
        return names;
    }

    /**
     * Locks the row of claim "held" in {@code holder}'s open transaction, then releases that claim from another thread
     * and waits until its delete waits on the lock: from then on the store has a release in flight until the holder
     * ends its transaction.
     */
    private Future<Boolean> releaseHeldBehindARowLock(PostgresClaimStore store, String pool, Connection holder,
                                                      ExecutorService threads) throws SQLException {
        holder.setAutoCommit(false);
        try (PreparedStatement lock = holder.prepareStatement("SELECT name FROM " + SCHEMA + ".claims WHERE pool = ? AND name = 'held' FOR UPDATE")) {
            lock.setString(1, pool);
            try (ResultSet rs = lock.executeQuery()) {
                assertThat(rs.next()).isTrue();
            }
        }
        Future<Boolean> blocked = threads.submit(() -> store.release(pool, "held"));
        await().atMost(PATIENCE).until(() -> deletesWaitingOnALock(pool));
        return blocked;
    }

    /** Whether a backend's delete of this pool's claims waits on a lock. */
    private boolean deletesWaitingOnALock(String pool) throws SQLException {
        try (Connection c = ds.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                     + "AND query LIKE 'DELETE FROM " + SCHEMA + ".claims%'")) {
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1) > 0;
            }
        }
    }

    /** {@code delegate}, refusing connections while {@code refuse} is set, its connections changed by {@code connections}. */
    private static DataSource wrapped(DataSource delegate, AtomicBoolean refuse, UnaryOperator<Connection> connections) {
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[]{DataSource.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("getConnection") && refuse.get()) {
                        throw new SQLException("connection refused", "08001");
                    }
                    try {
                        Object result = method.invoke(delegate, args);
                        return method.getName().equals("getConnection") ? connections.apply((Connection) result) : result;
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** A connection whose multi-statement release batches fail as PostgreSQL fails a transaction it chose to abort. */
    private static Connection deadlockingBatches(Connection delegate) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[]{Connection.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("prepareStatement") && args[0] instanceof String sql
                            && sql.startsWith("BEGIN") && sql.contains("DELETE FROM " + SCHEMA + ".claims")) {
                        throw new SQLException("deadlock detected", "40P01");
                    }
                    try {
                        return method.invoke(delegate, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
