package dev.hotspare.testkit.lock;

import dev.hotspare.fleet.lock.spi.Lease;
import dev.hotspare.fleet.lock.spi.LockStore;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The contract every {@link LockStore} passes (the in-memory store here; Redis, PostgreSQL and Kubernetes
 * in their modules). A backend subclasses it in a few lines:
 *
 * <pre>{@code
 * class RedisLockStoreTest extends LockStoreContract {
 *     protected LockStore createStore() { return new RedisLockStore(client); }
 * }
 * }</pre>
 *
 * <p>Time: by default the suite lets real time pass ({@link #advanceStoreTime} waits with Awaitility) and
 * uses a short {@link #ttl()} of 400 ms, so a real server finishes the suite in seconds. A store on a
 * {@link dev.hotspare.time.VirtualTimeScheduler.VirtualClock} overrides {@link #advanceStoreTime} to move the clock instead. A
 * backend whose TTL has a coarser granularity (Kubernetes Lease durations are whole seconds) overrides
 * {@link #ttl()}. No test depends on how fast the machine is: the short TTL is only ever waited <em>past</em>
 * (a slow machine waits longer, and the lease is only more expired), and a lease a test expects to be still held
 * has {@link #longTtl()}, which no test outlives.
 *
 * <p>Every test uses keys under a fresh random namespace, so the suite can run against a shared server.
 */
public abstract class LockStoreContract {

    /** Threads in the concurrency test. */
    protected static final int THREADS = 4;
    /** Acquisitions per thread in the concurrency test. */
    protected static final int ACQUISITIONS_PER_THREAD = 15;

    /** The store under test: a fresh one (or a fresh view of a shared server) per test. */
    protected LockStore store;
    /** A random key namespace for this test, e.g. {@code c1a2b3c4}. */
    protected String ns;

    /**
     * Creates the store under test; called before every test.
     */
    protected abstract LockStore createStore();

    /**
     * The TTL used for leases in this suite. Short, so expiry tests finish quickly on real servers.
     */
    protected Duration ttl() {
        return Duration.ofMillis(400);
    }

    /**
     * The TTL of leases a test expects to be still held when it checks them: far longer than any test runs, so a
     * busy machine cannot let them expire early (a 400 ms lease checked after a 200 ms wait could).
     *
     * @return ten minutes by default
     */
    protected Duration longTtl() {
        return Duration.ofMinutes(10);
    }

    /**
     * Makes at least {@code duration} pass on the store's clock. The default waits in real time (without
     * reading the wall clock); stores on a virtual clock advance it instead.
     */
    protected void advanceStoreTime(Duration duration) {
        await().pollDelay(duration).atMost(duration.plusSeconds(10)).until(() -> true);
    }

    @BeforeEach
    void createStoreAndNamespace() {
        store = createStore();
        ns = "c" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);
    }

    /**
     * A key in this test's namespace.
     */
    protected String key(String name) {
        return ns + "." + name;
    }

    private Duration pastTtl() {
        return ttl().plus(ttl().dividedBy(2));
    }

    // --- acquisition and exclusion ---------------------------------------------------------------------

    @Test
    void acquireGrantsALeaseWithOwnerTokenFencingTokenAndExpiry() {
        Lease lease = store.tryAcquire(key("config"), ttl()).orElseThrow();

        assertThat(lease.key()).isEqualTo(key("config"));
        assertThat(lease.ownerToken()).isNotBlank();
        assertThat(lease.expiresAt()).isAfterOrEqualTo(lease.acquiredAt().plus(ttl()));
        // Backends may round a TTL up to their granularity, but not by more than a second.
        assertThat(lease.expiresAt()).isBeforeOrEqualTo(lease.acquiredAt().plus(ttl()).plusSeconds(1));
    }

    @Test
    void aHeldKeyCannotBeAcquiredAgainEvenByTheSameCaller() {
        store.tryAcquire(key("config"), ttl()).orElseThrow();

        assertThat(store.tryAcquire(key("config"), ttl())).isEmpty();
        assertThat(store.tryAcquire(key("config"), ttl())).isEmpty();
    }

    @Test
    void differentKeysAreIndependent() {
        assertThat(store.tryAcquire(key("config"), ttl())).isPresent();
        assertThat(store.tryAcquire(key("scale"), ttl())).isPresent();
        assertThat(store.tryAcquire(ns + "x.config", ttl())).isPresent();
    }

    @Test
    void everyAcquisitionGetsItsOwnOwnerTokenAndALargerFencingToken() {
        List<Lease> leases = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Lease lease = store.tryAcquire(key("config"), ttl()).orElseThrow();
            leases.add(lease);
            assertThat(store.release(lease)).isTrue();
        }

        assertThat(leases).extracting(Lease::ownerToken).doesNotHaveDuplicates();
        for (int i = 1; i < leases.size(); i++) {
            assertThat(leases.get(i).fencingToken()).isGreaterThan(leases.get(i - 1).fencingToken());
        }
    }

    @Test
    void aLeaseIsNotGrantedAgainBeforeItExpires() {
        // Time passes (more than the short TTL), but far less than this lease's own TTL.
        Lease lease = store.tryAcquire(key("config"), longTtl()).orElseThrow();
        advanceStoreTime(pastTtl());

        assertThat(store.tryAcquire(key("config"), ttl())).isEmpty();
        assertThat(store.inspect(key("config"))).map(Lease::ownerToken).contains(lease.ownerToken());
    }

    // --- release -------------------------------------------------------------------------------------------

    @Test
    void releaseIsIdempotentAndSaysWhetherTheLeaseWasStillHeld() {
        Lease lease = store.tryAcquire(key("config"), ttl()).orElseThrow();

        assertThat(store.release(lease)).isTrue();
        assertThat(store.release(lease)).isFalse();
        assertThat(store.inspect(key("config"))).isEmpty();
        assertThat(store.tryAcquire(key("config"), ttl())).isPresent();
    }

    @Test
    void releasingAnExpiredLeaseSaysItWasNotHeld() {
        Lease lease = store.tryAcquire(key("config"), ttl()).orElseThrow();
        advanceStoreTime(pastTtl());

        assertThat(store.release(lease)).isFalse();
    }

    @Test
    void aStaleLeaseCanNeitherReleaseNorRenewTheNewHolders() {
        Lease first = store.tryAcquire(key("config"), ttl()).orElseThrow();
        advanceStoreTime(pastTtl());
        Lease second = store.tryAcquire(key("config"), longTtl()).orElseThrow();

        assertThat(store.release(first)).isFalse();
        assertThat(store.renew(first, ttl())).isEmpty();
        assertThat(store.inspect(key("config"))).map(Lease::ownerToken).contains(second.ownerToken());
        assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
    }

    // --- renewal -------------------------------------------------------------------------------------------

    @Test
    void renewalByTheOwnerExtendsTheLease() {
        Lease lease = store.tryAcquire(key("config"), ttl()).orElseThrow();

        // Past the lease's first TTL, well within the renewed one.
        Lease renewed = store.renew(lease, longTtl()).orElseThrow();
        advanceStoreTime(pastTtl());

        assertThat(renewed.ownerToken()).isEqualTo(lease.ownerToken());
        assertThat(renewed.fencingToken()).isEqualTo(lease.fencingToken());
        assertThat(renewed.acquiredAt()).isEqualTo(lease.acquiredAt());
        assertThat(renewed.expiresAt()).isAfter(lease.expiresAt());
        assertThat(store.inspect(key("config"))).map(Lease::ownerToken).contains(lease.ownerToken());
        assertThat(store.tryAcquire(key("config"), ttl())).isEmpty();
        assertThat(store.release(renewed)).isTrue();
    }

    @Test
    void aLapsedLeaseCannotBeRenewedEvenIfNobodyTookIt() {
        Lease lease = store.tryAcquire(key("config"), ttl()).orElseThrow();
        advanceStoreTime(pastTtl());

        assertThat(store.renew(lease, ttl())).isEmpty();
        assertThat(store.inspect(key("config"))).isEmpty();
    }

    @Test
    void aReleasedLeaseCannotBeRenewed() {
        Lease lease = store.tryAcquire(key("config"), ttl()).orElseThrow();
        store.release(lease);

        assertThat(store.renew(lease, ttl())).isEmpty();
        assertThat(store.inspect(key("config"))).isEmpty();
    }

    // --- expiry --------------------------------------------------------------------------------------------

    @Test
    void anExpiredLeaseFreesTheKeyAndTheNextTokenIsLarger() {
        Lease first = store.tryAcquire(key("config"), ttl()).orElseThrow();
        advanceStoreTime(pastTtl());

        assertThat(store.inspect(key("config"))).isEmpty();
        Lease second = store.tryAcquire(key("config"), ttl()).orElseThrow();
        assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
        assertThat(second.acquiredAt()).isAfterOrEqualTo(first.expiresAt());
    }

    // --- inspect, list, forceRelease -----------------------------------------------------------------------

    @Test
    void inspectShowsTheLiveHolder() {
        assertThat(store.inspect(key("config"))).isEmpty();
        Lease lease = store.tryAcquire(key("config"), longTtl()).orElseThrow();

        Lease seen = store.inspect(key("config")).orElseThrow();
        assertThat(seen.key()).isEqualTo(lease.key());
        assertThat(seen.ownerToken()).isEqualTo(lease.ownerToken());
        assertThat(seen.fencingToken()).isEqualTo(lease.fencingToken());
        assertThat(seen.acquiredAt()).isEqualTo(lease.acquiredAt());
        assertThat(seen.expiresAt()).isEqualTo(lease.expiresAt());
    }

    @Test
    void listShowsLiveLeasesUnderThePrefixOrderedByKey() {
        Duration longTtl = longTtl();
        Lease scale = store.tryAcquire(key("pong.scale"), longTtl).orElseThrow();
        Lease config = store.tryAcquire(key("pong.config"), longTtl).orElseThrow();
        Lease other = store.tryAcquire(key("pongx.config"), longTtl).orElseThrow();
        store.tryAcquire(key("pong.panic"), ttl()).orElseThrow();
        advanceStoreTime(pastTtl());

        assertThat(store.list(key("pong.")))
                .extracting(Lease::key, Lease::ownerToken, Lease::fencingToken)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(config.key(), config.ownerToken(), config.fencingToken()),
                        org.assertj.core.groups.Tuple.tuple(scale.key(), scale.ownerToken(), scale.fencingToken()));
        assertThat(store.list(ns + ".")).extracting(Lease::key)
                .containsExactly(config.key(), scale.key(), other.key());
        assertThat(store.list("")).extracting(Lease::key).contains(config.key(), scale.key(), other.key());
    }

    @Test
    void forceReleaseRemovesAnyHolderAndTheNextTokenIsLarger() {
        Lease stuck = store.tryAcquire(key("config"), longTtl()).orElseThrow();

        assertThat(store.forceRelease(key("config"))).isTrue();
        assertThat(store.forceRelease(key("config"))).isFalse();
        assertThat(store.release(stuck)).isFalse();
        assertThat(store.renew(stuck, ttl())).isEmpty();
        Lease next = store.tryAcquire(key("config"), ttl()).orElseThrow();
        assertThat(next.fencingToken()).isGreaterThan(stuck.fencingToken());
    }

    // --- validation ----------------------------------------------------------------------------------------

    @Test
    void keysThatCouldInjectOrAreNotPortableAreRejectedBeforeAnyIo() {
        for (String bad : List.of("", "Upper", "a:b", "a{b}", "a*b", "a b", "a\nb", ".a", "a..b", "a.", "-a",
                "a/b", "x".repeat(254))) {
            assertThatThrownBy(() -> store.tryAcquire(bad, ttl())).as("key %s", bad)
                    .isInstanceOf(ValidationException.class).hasMessageContaining("key");
            assertThatThrownBy(() -> store.inspect(bad)).as("key %s", bad).isInstanceOf(ValidationException.class);
            assertThatThrownBy(() -> store.forceRelease(bad)).as("key %s", bad).isInstanceOf(ValidationException.class);
        }
        for (String bad : List.of("a:b", "a*", "A.", "a b.")) {
            assertThatThrownBy(() -> store.list(bad)).as("prefix %s", bad)
                    .isInstanceOf(ValidationException.class).hasMessageContaining("prefix");
        }
    }

    @Test
    void nonPositiveTtlsAreRejected() {
        assertThatThrownBy(() -> store.tryAcquire(key("config"), Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ttl");
        assertThatThrownBy(() -> store.tryAcquire(key("config"), Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
        Lease lease = store.tryAcquire(key("config"), ttl()).orElseThrow();
        assertThatThrownBy(() -> store.renew(lease, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }

    // --- concurrency ---------------------------------------------------------------------------------------

    /** What one holder saw: the lease as last renewed, and whether its release found it still held. */
    private record Hold(Lease lease, boolean releasedWhileHeld) {
    }

    /**
     * {@value #THREADS} threads each take the same key {@value #ACQUISITIONS_PER_THREAD} times; some holders
     * renew, some pause past the TTL before releasing (so their lease lapses and someone else takes it).
     * In the store's view no two leases overlap, and fencing tokens never go backwards.
     */
    @Test
    void concurrentHoldersNeverOverlapInTheStoresViewAndTokensNeverGoBackwards() throws Exception {
        String key = key("contended");
        List<Hold> holds = Collections.synchronizedList(new ArrayList<>());
        List<String> violations = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                long seed = ThreadLocalRandom.current().nextLong();
                futures.add(pool.submit((Callable<Void>) () -> {
                    Random random = new Random(seed);
                    start.await();
                    long lastToken = Long.MIN_VALUE;
                    for (int i = 0; i < ACQUISITIONS_PER_THREAD; i++) {
                        Optional<Lease> got = store.tryAcquire(key, ttl());
                        while (got.isEmpty()) {
                            Thread.onSpinWait();
                            got = store.tryAcquire(key, ttl());
                        }
                        Lease lease = got.get();
                        if (lease.fencingToken() <= lastToken) {
                            violations.add("thread saw token " + lease.fencingToken() + " after " + lastToken);
                        }
                        lastToken = lease.fencingToken();
                        int action = random.nextInt(6);
                        if (action == 0) {
                            // Pause past the TTL: the lease lapses and another thread may take the key.
                            advanceStoreTime(pastTtl());
                        } else if (action == 1) {
                            lease = store.renew(lease, ttl()).orElse(lease);
                        } else if (action == 2) {
                            // A pause shorter than the TTL: on its own it must not let anyone else in.
                            advanceStoreTime(ttl().dividedBy(2));
                        }
                        Optional<Lease> seen = store.inspect(key);
                        if (seen.isPresent() && !seen.get().ownerToken().equals(lease.ownerToken())
                                && seen.get().acquiredAt().isBefore(lease.expiresAt())) {
                            violations.add("lease " + seen.get() + " granted while " + lease + " was live");
                        }
                        holds.add(new Hold(lease, store.release(lease)));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : futures) {
                future.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(violations).isEmpty();
        List<Hold> byToken = new ArrayList<>(holds);
        byToken.sort(Comparator.comparingLong(h -> h.lease().fencingToken()));
        assertThat(byToken).hasSize(THREADS * ACQUISITIONS_PER_THREAD);
        assertThat(byToken).extracting(h -> h.lease().fencingToken()).doesNotHaveDuplicates();
        for (int i = 1; i < byToken.size(); i++) {
            Hold previous = byToken.get(i - 1);
            Hold next = byToken.get(i);
            Instant nextStart = next.lease().acquiredAt();
            // A larger token is never granted before a smaller one.
            assertThat(nextStart).as("token %d vs %d", next.lease().fencingToken(), previous.lease().fencingToken())
                    .isAfterOrEqualTo(previous.lease().acquiredAt());
            if (!previous.releasedWhileHeld()) {
                // The previous lease lapsed instead of being released: the next grant came after its expiry.
                assertThat(nextStart).as("grant after a lapsed lease %s", previous.lease())
                        .isAfterOrEqualTo(previous.lease().expiresAt());
            }
        }
    }
}
