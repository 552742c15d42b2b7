package dev.hotspare.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.hotspare.fleet.lock.spi.Lease;
import dev.hotspare.pool.Claim;
import dev.hotspare.pool.spi.ClaimStore.ClaimExistsException;
import dev.hotspare.spi.StoreUnavailableException;
import dev.hotspare.testkit.servers.TestPostgres;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The server stops in the middle of a run and starts again on the same data directory. While it is down
 * every store fails with {@link StoreUnavailableException} (and nothing else); afterwards calls succeed,
 * every write a caller saw commit is still there, and no member is held by two claims.
 *
 * <p>Uses a server of its own (never the shared one, and also when {@value TestPostgres#URL_VARIABLE} is set:
 * the test must be able to stop it).
 */
class PostgresRestartTest {

    private static final String POOL = "restart";
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    /** Items the worker confirms before the stop and again after the restart. */
    private static final int ITEMS_EACH_SIDE = 50;
    /** Bound on the worker's loop, far above what the test needs. */
    private static final int MAX_ITEMS = 100_000;
    private static final int MAX_ATTEMPTS = 300;

    @TempDir
    Path dir;

    @Test
    void whileDownCallsFailTypedAndAfterARestartNothingCommittedIsLostOrAssignedTwice() throws Exception {
        Path data = dir.resolve("data");
        int port = freePort();
        EmbeddedPostgres server = TestPostgres.startPrivate(data, port);
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try (HikariDataSource ds = TestPostgres.pool(server.getJdbcUrl("postgres", "postgres"), 6)) {
            PostgresSchema.migrate(ds);
            PostgresClaimStore claims = new PostgresClaimStore(ds);
            PostgresLockStore locks = new PostgresLockStore(ds);
            PostgresSchedulerStore schedulers = new PostgresSchedulerStore(ds);
            PostgresRolloutStore rollouts = new PostgresRolloutStore(ds);
            Lease heldAcrossRestart = locks.tryAcquire("restart.held", Duration.ofMinutes(10)).orElseThrow();
            AtomicInteger wakeUps = new AtomicInteger();
            AutoCloseable watch = claims.watch(POOL, wakeUps::incrementAndGet);

            Worker worker = new Worker(claims);
            Future<?> run = executor.submit(worker);
            await().atMost(Duration.ofMinutes(1)).until(() -> worker.assigned.size() >= ITEMS_EACH_SIDE);

            server.close();

            assertThatThrownBy(() -> claims.find(POOL, "c-0")).isInstanceOf(StoreUnavailableException.class);
            assertThatThrownBy(() -> claims.submit(POOL, "while-down", Optional.empty(), T0)).isInstanceOf(StoreUnavailableException.class);
            assertThatThrownBy(() -> locks.inspect("restart.held")).isInstanceOf(StoreUnavailableException.class);
            assertThatThrownBy(schedulers::list).isInstanceOf(StoreUnavailableException.class);
            assertThatThrownBy(rollouts::names).isInstanceOf(StoreUnavailableException.class);
            await().atMost(Duration.ofMinutes(1)).until(() -> worker.unavailable.get() >= 1);

            server = TestPostgres.startPrivate(data, port);
            worker.restarted.countDown();
            run.get(3, TimeUnit.MINUTES);

            // Nothing a caller saw commit is lost.
            for (String name : worker.submitted) {
                assertThat(claims.find(POOL, name)).as("submitted claim %s", name).isPresent();
            }
            for (Map.Entry<String, String> e : worker.assigned.entrySet()) {
                assertThat(claims.find(POOL, e.getKey()).orElseThrow().assignedMember()).as("claim %s", e.getKey()).contains(e.getValue());
            }
            assertThat(locks.inspect("restart.held")).map(Lease::ownerToken).contains(heldAcrossRestart.ownerToken());
            assertThat(locks.tryAcquire("restart.next", Duration.ofSeconds(30)).orElseThrow().fencingToken())
                    .as("fencing tokens keep increasing across the restart").isGreaterThan(heldAcrossRestart.fencingToken());

            // Nothing is assigned twice, and the queue drains completely: one member was offered per claim.
            int drained = 0;
            while (drained < MAX_ITEMS && claims.assignOldest(POOL, T0).isPresent()) {
                drained++;
            }
            List<Claim> live = claims.live(POOL);
            Set<String> members = new HashSet<>();
            for (Claim c : live) {
                assertThat(c.assignedMember()).as("claim %s left pending", c.name()).isPresent();
                assertThat(members.add(c.assignedMember().get())).as("member %s held twice", c.assignedMember().get()).isTrue();
            }
            assertThat(live).hasSizeGreaterThanOrEqualTo(worker.submitted.size());
            assertThat(claims.freeMembers(POOL)).isEmpty();

            // The watch's connection came back: changes after the restart still wake it.
            int before = wakeUps.get();
            claims.submit(POOL, "after-restart", Optional.empty(), T0);
            await().atMost(Duration.ofSeconds(30)).until(() -> wakeUps.get() > before);
            watch.close();
        } finally {
            executor.shutdownNow();
            server.close();
        }
    }

    /**
     * Submits a claim, offers a member and assigns the oldest pair, over and over, through the stop and the
     * restart. It retries a submit or offer until it is confirmed (a resubmission that finds the claim
     * means the lost attempt committed), records what it saw commit, and counts unavailability. Any other
     * exception fails the test.
     */
    private static final class Worker implements Runnable {
        final PostgresClaimStore claims;
        final Set<String> submitted = ConcurrentHashMap.newKeySet();
        final Map<String, String> assigned = new ConcurrentHashMap<>();
        final AtomicInteger unavailable = new AtomicInteger();
        final CountDownLatch restarted = new CountDownLatch(1);

        Worker(PostgresClaimStore claims) {
            this.claims = claims;
        }

        @Override
        public void run() {
            int assignedBeforeRestart = -1;
            for (int i = 0; i < MAX_ITEMS; i++) {
                if (restarted.getCount() == 0) {
                    if (assignedBeforeRestart < 0) {
                        assignedBeforeRestart = assigned.size();
                    } else if (assigned.size() >= assignedBeforeRestart + ITEMS_EACH_SIDE) {
                        return;
                    }
                }
                int item = i;
                String claim = "c-" + item;
                retry(() -> {
                    try {
                        claims.submit(POOL, claim, Optional.empty(), T0.plusMillis(item));
                    } catch (ClaimExistsException e) {
                        // An earlier attempt committed before the connection dropped.
                    }
                    return submitted.add(claim);
                });
                retry(() -> claims.offerMember(POOL, "m-" + item, T0.plusMillis(item)));
                try {
                    claims.assignOldest(POOL, T0.plusSeconds(1))
                            .ifPresent(c -> assigned.put(c.name(), c.assignedMember().orElseThrow()));
                } catch (StoreUnavailableException e) {
                    unavailable.incrementAndGet(); // outcome unknown; the next round assigns whatever is left
                }
            }
            throw new AssertionError("worker did not finish within " + MAX_ITEMS + " items");
        }

        private <T> T retry(Supplier<T> call) {
            for (int attempt = 1; ; attempt++) {
                try {
                    return call.get();
                } catch (StoreUnavailableException e) {
                    unavailable.incrementAndGet();
                    if (attempt == MAX_ATTEMPTS) {
                        throw e;
                    }
                }
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
