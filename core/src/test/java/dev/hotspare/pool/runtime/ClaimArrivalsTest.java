package dev.hotspare.pool.runtime;

import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.Claim;
import dev.hotspare.pool.ClaimRequest;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.ClaimStore.ClaimExistsException;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Claims that arrive while the hand-out lock is held are submitted together by the next holder, in one store call,
 * and each is still answered as if it had come alone: served, refused for its name, or failed with the store's error.
 * The first claim is held inside the store's {@code submit} on a latch, so the others are certain to queue behind it;
 * nothing is timed.
 */
class ClaimArrivalsTest {

    private final VirtualTimeScheduler time = VirtualTimeScheduler.startingAt2026();
    private final GatedStore store = new GatedStore(new InMemoryClaimStore());
    private final ExecutorService claimers = Executors.newFixedThreadPool(5);
    private PoolController controller;

    @BeforeEach
    void startPool() {
        InMemoryMemberDriver driver = InMemoryMemberDriver.builder(time).installTime(Duration.ZERO)
                .resumeTime(Duration.ZERO).hibernateTime(Duration.ZERO).build();
        controller = PoolController.builder(PoolSpec.builder("arrivals").size(8).runningCount(8).build())
                .memberDriver(driver).claimStore(store).scheduler(time).resyncPeriod(Duration.ofMinutes(1)).build().start();
        time.advanceBy(Duration.ofSeconds(5));
        assertThat(driver.list("arrivals")).filteredOn(m -> m.observedPower() == Member.ObservedPower.RUNNING).hasSize(8);
    }

    @AfterEach
    void stop() {
        claimers.shutdownNow();
        controller.close();
    }

    @Test
    void claimsQueuedBehindTheLockAreSubmittedInOneCallAndEachServed() throws Exception {
        Future<ClaimHandle> first = holdFirstClaimInTheStore();
        List<Future<ClaimHandle>> queued = new ArrayList<>();
        for (String name : List.of("b", "c", "d")) {
            queued.add(claimers.submit(() -> controller.claim(name)));
        }
        Future<ClaimHandle> taken = claimers.submit(() -> controller.claim("first"));
        await().atMost(30, TimeUnit.SECONDS).until(() -> controller.claimsWaitingToSubmit() == 4);
        store.proceed.countDown();

        Set<String> members = new HashSet<>();
        members.add(first.get(30, TimeUnit.SECONDS).member().get(30, TimeUnit.SECONDS).id());
        for (Future<ClaimHandle> f : queued) {
            ClaimHandle handle = f.get(30, TimeUnit.SECONDS);
            assertThat(handle.member()).as("served at once, without a pass").isCompleted();
            members.add(handle.member().get().id());
        }
        assertThat(members).as("four claims, four members").hasSize(4);
        assertThatThrownBy(() -> taken.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(ClaimExistsException.class).hasMessageContaining("first");
        assertThat(store.batches).as("one call for everything that queued").hasSize(1);
        assertThat(store.batches.get(0)).containsExactlyInAnyOrder("b", "c", "d", "first");
        assertThat(store.live("arrivals")).extracting(Claim::name).containsExactlyInAnyOrder("first", "b", "c", "d");
        assertThat(store.live("arrivals")).allMatch(Claim::isAssigned);
    }

    @Test
    void whenTheBatchCallFailsEachQueuedClaimIsSubmittedAloneAndHearsItsOwnAnswer() throws Exception {
        store.refuseBatches = true;
        store.refuseAlone = Set.of("bad");
        Future<ClaimHandle> first = holdFirstClaimInTheStore();
        Future<ClaimHandle> good = claimers.submit(() -> controller.claim("good"));
        Future<ClaimHandle> bad = claimers.submit(() -> controller.claim("bad"));
        await().atMost(30, TimeUnit.SECONDS).until(() -> controller.claimsWaitingToSubmit() == 2);
        store.proceed.countDown();

        first.get(30, TimeUnit.SECONDS);
        assertThat(good.get(30, TimeUnit.SECONDS).member()).isCompleted();
        assertThatThrownBy(() -> bad.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(IllegalStateException.class).hasMessage("store down for bad");
        assertThat(store.live("arrivals")).extracting(Claim::name).containsExactlyInAnyOrder("first", "good");
    }

    @Test
    void aReleaseDoesNotWaitForTheClaimHoldingTheHandOutLock() throws Exception {
        ClaimHandle earlier = controller.claim("earlier");
        String member = earlier.member().get(30, TimeUnit.SECONDS).id();
        Future<ClaimHandle> first = holdFirstClaimInTheStore();
        Future<Boolean> released = claimers.submit(() -> controller.release("earlier"));
        assertThat(released.get(30, TimeUnit.SECONDS)).as("released while the first claim holds the lock").isTrue();
        assertThat(store.find("arrivals", "earlier")).isEmpty();
        store.proceed.countDown();
        assertThat(first.get(30, TimeUnit.SECONDS).member().get(30, TimeUnit.SECONDS).id()).isNotEqualTo(member);
        assertThat(controller.wouldHandOut()).isEmpty();
    }

    /** Claims "first" on another thread and returns once that claim is inside the store's submit, lock held. */
    private Future<ClaimHandle> holdFirstClaimInTheStore() throws InterruptedException {
        Future<ClaimHandle> first = claimers.submit(() -> controller.claim("first"));
        assertThat(store.entered.await(30, TimeUnit.SECONDS)).as("the first claim reached the store").isTrue();
        return first;
    }

    /**
     * The in-memory store, with the first submit of "first" held until {@link #proceed} opens, every
     * {@link #submitAll} recorded, and failures on demand.
     */
    private static final class GatedStore implements ClaimStore {
        private final ClaimStore delegate;
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch proceed = new CountDownLatch(1);
        final List<List<String>> batches = new CopyOnWriteArrayList<>();
        volatile boolean refuseBatches;
        volatile Set<String> refuseAlone = Set.of();
        private volatile boolean held;

        GatedStore(ClaimStore delegate) {
            this.delegate = delegate;
        }

        @Override
        public Claim submit(String pool, String claimName, Optional<Duration> lifetime, Instant now) {
            if (claimName.equals("first") && !held) {
                held = true;
                entered.countDown();
                try {
                    assertThat(proceed.await(30, TimeUnit.SECONDS)).isTrue();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            if (refuseAlone.contains(claimName)) {
                throw new IllegalStateException("store down for " + claimName);
            }
            return delegate.submit(pool, claimName, lifetime, now);
        }

        @Override
        public List<Optional<Claim>> submitAll(String pool, List<ClaimRequest> requests, Instant now) {
            batches.add(requests.stream().map(ClaimRequest::name).toList());
            if (refuseBatches) {
                throw new IllegalStateException("store down for the batch");
            }
            return ClaimStore.super.submitAll(pool, requests, now);
        }

        @Override
        public Optional<Claim> find(String pool, String claimName) {
            return delegate.find(pool, claimName);
        }

        @Override
        public List<Claim> live(String pool) {
            return delegate.live(pool);
        }

        @Override
        public AssignOutcome assign(String pool, String claimName, String memberId, Instant at) {
            return delegate.assign(pool, claimName, memberId, at);
        }

        @Override
        public boolean markReady(String pool, String claimName, Instant readyAt) {
            return delegate.markReady(pool, claimName, readyAt);
        }

        @Override
        public boolean release(String pool, String claimName) {
            return delegate.release(pool, claimName);
        }

        @Override
        public AutoCloseable watch(String pool, Runnable onChange) {
            return delegate.watch(pool, onChange);
        }
    }
}
