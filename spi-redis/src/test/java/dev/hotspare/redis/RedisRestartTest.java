package dev.hotspare.redis;

import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.lock.spi.Lease;
import dev.hotspare.spi.StoreUnavailableException;
import dev.hotspare.testkit.servers.TestRedis;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Stops and restarts a real redis-server in the middle of a run. These tests start their own server (also
 * when {@code HOTSPARE_TEST_REDIS_URI} is set), because they must be able to kill it.
 */
class RedisRestartTest {

    private static final Duration LONG_TTL = Duration.ofSeconds(30);

    private TestRedis.Server server;
    private TestRedis.Client client;

    @AfterEach
    void stopServer() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private StatefulRedisConnection<String, String> start(boolean persistent) {
        server = TestRedis.Server.start(persistent);
        client = TestRedis.Client.create(server.uri());
        return client.connect();
    }

    @Test
    void whileTheServerIsDownEveryStoreThrowsTheTypedExceptionAndAfterARestartWithoutPersistenceTokensStillGrow() {
        StatefulRedisConnection<String, String> connection = start(false);
        RedisLockStore locks = new RedisLockStore(connection);
        RedisRoomStatusStore rooms = new RedisRoomStatusStore(connection);
        RedisUsageHistory history = new RedisUsageHistory(connection);
        String key = "scheduler.pong.config";
        for (int i = 0; i < 3; i++) {
            locks.release(locks.tryAcquire(key, LONG_TTL).orElseThrow());
        }
        Lease held = locks.tryAcquire(key, LONG_TTL).orElseThrow();
        rooms.update("pong", "r1", RoomStatus.READY, Instant.parse("2026-01-01T00:00:00Z"));
        history.record("pong", "room", new BigDecimal("0.5"), 10);

        server.stop();

        List<Runnable> calls = List.of(
                () -> locks.tryAcquire("scheduler.pong.scale", LONG_TTL),
                () -> locks.renew(held, LONG_TTL),
                () -> locks.release(held),
                () -> locks.inspect(key),
                () -> locks.list("scheduler."),
                () -> locks.forceRelease(key),
                () -> rooms.update("pong", "r2", RoomStatus.READY, Instant.parse("2026-01-01T00:00:01Z")),
                () -> rooms.counts("pong"),
                () -> rooms.roomsWithPingAtOrBefore("pong", Instant.parse("2026-01-01T00:00:01Z")),
                () -> rooms.remove("pong", "r1"),
                () -> history.record("pong", "room", BigDecimal.ONE, 10),
                () -> history.latest("pong", "room", 10));
        for (Runnable call : calls) {
            assertThatThrownBy(call::run).isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("unavailable")
                    .satisfies(e -> assertThat(((StoreUnavailableException) e).store()).startsWith("redis"));
        }

        server.restart();

        Lease next = await().atMost(Duration.ofSeconds(60)).ignoreException(StoreUnavailableException.class)
                .until(() -> locks.tryAcquire(key, LONG_TTL), Optional::isPresent).orElseThrow();
        // Without persistence the counter and the old lease are gone; the clock term still wins.
        assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
        assertThat(next.ownerToken()).isNotEqualTo(held.ownerToken());
        assertThat(locks.renew(held, LONG_TTL)).as("the lost lease's holder learns at its next renewal").isEmpty();
        assertThat(locks.release(held)).isFalse();
        assertThat(locks.inspect(key)).map(Lease::ownerToken).contains(next.ownerToken());
        assertThat(rooms.counts("pong")).isEqualTo(RoomStatusCounts.ZERO);
        assertThat(rooms.update("pong", "r1", RoomStatus.OCCUPIED, Instant.parse("2026-01-01T00:00:02Z")).counts())
                .isEqualTo(RoomStatusCounts.of(0, 0, 1));
        history.record("pong", "room", BigDecimal.TEN, 10);
        assertThat(history.latest("pong", "room", 10)).containsExactly(BigDecimal.TEN);
    }

    @Test
    void aRestartWithPersistenceKeepsTheLeaseSoNobodyElseGetsIt() {
        StatefulRedisConnection<String, String> connection = start(true);
        RedisLockStore locks = new RedisLockStore(connection);
        Lease held = locks.tryAcquire("scheduler.pong.config", LONG_TTL).orElseThrow();

        server.stop();
        server.restart();

        Optional<Lease> seen = await().atMost(Duration.ofSeconds(60)).ignoreException(StoreUnavailableException.class)
                .until(() -> locks.inspect("scheduler.pong.config"), lease -> true);
        assertThat(seen).contains(held);
        assertThat(locks.tryAcquire("scheduler.pong.config", LONG_TTL)).isEmpty();
        assertThat(locks.renew(held, LONG_TTL)).isPresent();
        assertThat(locks.release(held)).isTrue();
        assertThat(locks.tryAcquire("scheduler.pong.config", LONG_TTL).orElseThrow().fencingToken())
                .isGreaterThan(held.fencingToken());
    }

    /** One grant seen by a worker, and which server incarnation certainly granted it (if known). */
    private record Grant(Lease lease, boolean released, Boolean beforeStop) {
    }

    @Test
    void workersContendingThroughARestartWithoutPersistenceNeverShareALeaseAndTokensKeepGrowing() throws Exception {
        StatefulRedisConnection<String, String> connection = start(false);
        RedisLockStore locks = new RedisLockStore(connection);
        String key = "scheduler.pong.scale";
        Duration ttl = Duration.ofSeconds(5);
        List<Grant> grants = Collections.synchronizedList(new ArrayList<>());
        List<String> violations = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean stopping = new AtomicBoolean();
        AtomicBoolean restarted = new AtomicBoolean();
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger unavailable = new AtomicInteger();
        AtomicInteger grantedAfterRestart = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                workers.add(pool.submit(() -> {
                    while (!done.get()) {
                        boolean sentAfterRestart = restarted.get();
                        try {
                            Optional<Lease> got = locks.tryAcquire(key, ttl);
                            if (got.isEmpty()) {
                                continue;
                            }
                            boolean repliedBeforeStop = !stopping.get();
                            Lease lease = got.get();
                            Optional<Lease> seen = locks.inspect(key);
                            if (seen.isPresent() && !seen.get().ownerToken().equals(lease.ownerToken())) {
                                violations.add("store shows " + seen.get() + " while " + lease + " is live");
                            }
                            boolean released = locks.release(lease);
                            grants.add(new Grant(lease, released,
                                    repliedBeforeStop ? Boolean.TRUE : sentAfterRestart ? Boolean.FALSE : null));
                            if (sentAfterRestart) {
                                grantedAfterRestart.incrementAndGet();
                            }
                        } catch (StoreUnavailableException e) {
                            unavailable.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> grants.size() >= 50);
            stopping.set(true);
            server.stop();
            await().atMost(Duration.ofSeconds(60)).until(() -> unavailable.get() >= 4);
            server.restart();
            restarted.set(true);
            await().atMost(Duration.ofSeconds(60)).until(() -> grantedAfterRestart.get() >= 50);
            done.set(true);
            for (Future<?> worker : workers) {
                worker.get(30, TimeUnit.SECONDS);
            }
        } finally {
            done.set(true);
            pool.shutdownNow();
        }

        assertThat(violations).isEmpty();
        assertThat(grants).extracting(g -> g.lease().fencingToken()).doesNotHaveDuplicates();
        assertThat(grants).extracting(g -> g.lease().ownerToken()).doesNotHaveDuplicates();
        long lastBefore = grants.stream().filter(g -> Boolean.TRUE.equals(g.beforeStop()))
                .mapToLong(g -> g.lease().fencingToken()).max().orElseThrow();
        long firstAfter = grants.stream().filter(g -> Boolean.FALSE.equals(g.beforeStop()))
                .mapToLong(g -> g.lease().fencingToken()).min().orElseThrow();
        assertThat(firstAfter).as("first token after the restart vs last before").isGreaterThan(lastBefore);
        for (Boolean incarnation : List.of(Boolean.TRUE, Boolean.FALSE)) {
            List<Grant> sorted = grants.stream().filter(g -> incarnation.equals(g.beforeStop()))
                    .sorted(Comparator.comparingLong(g -> g.lease().fencingToken())).toList();
            for (int i = 1; i < sorted.size(); i++) {
                Grant previous = sorted.get(i - 1);
                Instant nextStart = sorted.get(i).lease().acquiredAt();
                assertThat(nextStart).isAfterOrEqualTo(previous.lease().acquiredAt());
                if (!previous.released()) {
                    assertThat(nextStart).as("grant after a lease that was not released").isAfterOrEqualTo(previous.lease().expiresAt());
                }
            }
        }
    }

    @Test
    void aLeaseWhoseHolderDisconnectedExpiresByTtlAndCanBeTaken() {
        Duration ttl = Duration.ofMillis(500);
        String key = "holder.gone." + Long.toHexString(System.identityHashCode(this));
        Lease abandoned;
        try (TestRedis.Client holder = TestRedis.Client.create(TestRedis.uri())) {
            abandoned = new RedisLockStore(holder.connect()).tryAcquire(key, ttl).orElseThrow();
        }
        RedisLockStore locks = new RedisLockStore(TestRedis.connection());
        // However slow the machine, the key is granted again only at or after the abandoned lease's expiry on
        // Redis's clock (checked below): no assertion here depends on how much real time passed.
        Lease taken = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                .until(() -> locks.tryAcquire(key, ttl), Optional::isPresent).orElseThrow();

        assertThat(taken.acquiredAt()).isAfterOrEqualTo(abandoned.expiresAt());
        assertThat(taken.fencingToken()).isGreaterThan(abandoned.fencingToken());
        assertThat(locks.release(taken)).isTrue();
    }
}
