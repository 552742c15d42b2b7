package dev.hotspare.pool.runtime;

import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.spi.ClaimStore.ClaimExistsException;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

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
    private final ControllableClaims store = new ControllableClaims(new InMemoryClaimStore());
    private final ExecutorService claimers = Executors.newFixedThreadPool(5);
    /** The first submit of "first" waits inside the store until {@link #proceed} opens, holding the hand-out lock. */
    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch proceed = new CountDownLatch(1);
    private final List<List<String>> batches = new CopyOnWriteArrayList<>();
    private PoolController controller;

    @BeforeEach
    void startPool() {
        AtomicBoolean held = new AtomicBoolean();
        store.beforeSubmit = name -> {
            if (name.equals("first") && held.compareAndSet(false, true)) {
                entered.countDown();
                awaitLatch(proceed);
            }
        };
        store.beforeSubmitAll = batches::add;
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
        proceed.countDown();

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
        assertThat(batches).as("one call for everything that queued").hasSize(1);
        assertThat(batches.get(0)).containsExactlyInAnyOrder("b", "c", "d", "first");
        assertThat(store.live("arrivals")).extracting(Claim::name).containsExactlyInAnyOrder("first", "b", "c", "d");
        assertThat(store.live("arrivals")).allMatch(Claim::isAssigned);
    }

    @Test
    void whenTheBatchCallFailsEachQueuedClaimIsSubmittedAloneAndHearsItsOwnAnswer() throws Exception {
        store.beforeSubmitAll = names -> {
            throw new IllegalStateException("store down for the batch");
        };
        Consumer<String> gate = store.beforeSubmit;
        store.beforeSubmit = name -> {
            gate.accept(name);
            if (name.equals("bad")) {
                throw new IllegalStateException("store down for bad");
            }
        };
        Future<ClaimHandle> first = holdFirstClaimInTheStore();
        Future<ClaimHandle> good = claimers.submit(() -> controller.claim("good"));
        Future<ClaimHandle> bad = claimers.submit(() -> controller.claim("bad"));
        await().atMost(30, TimeUnit.SECONDS).until(() -> controller.claimsWaitingToSubmit() == 2);
        proceed.countDown();

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
        proceed.countDown();
        assertThat(first.get(30, TimeUnit.SECONDS).member().get(30, TimeUnit.SECONDS).id()).isNotEqualTo(member);
        assertThat(controller.wouldHandOut()).isEmpty();
    }

    @Test
    void aClaimAnsweredByAnotherThreadReturnsWhileThatThreadStillHoldsTheLock() throws Exception {
        CountDownLatch cProceed = new CountDownLatch(1);
        CountDownLatch cEntered = new CountDownLatch(1);
        List<String> submitters = new CopyOnWriteArrayList<>();
        List<Future<ClaimHandle>> c = new CopyOnWriteArrayList<>();
        Consumer<String> gate = store.beforeSubmit;
        store.beforeSubmit = name -> {
            submitters.add(name + "@" + Thread.currentThread().getName());
            gate.accept(name);
            if (name.equals("b")) {
                // While "b" is being submitted, "c" queues behind the lock ...
                c.add(claimers.submit(() -> controller.claim("c")));
                await().atMost(30, TimeUnit.SECONDS).until(() -> controller.claimsWaitingToSubmit() == 1);
            } else if (name.equals("c")) {
                // ... and its submit then holds the lock until the test lets it go.
                cEntered.countDown();
                awaitLatch(cProceed);
            }
        };
        Future<ClaimHandle> first = holdFirstClaimInTheStore();
        String holder = submitters.get(0).substring("first@".length());
        Future<ClaimHandle> b = claimers.submit(() -> controller.claim("b"));
        await().atMost(30, TimeUnit.SECONDS).until(() -> controller.claimsWaitingToSubmit() == 1);
        proceed.countDown();

        assertThat(cEntered.await(30, TimeUnit.SECONDS)).as("c's submit holds the lock").isTrue();
        assertThat(b.get(30, TimeUnit.SECONDS).member()).as("b answered and served while c's submit holds the lock")
                .isCompleted();
        assertThat(first.isDone()).as("the holder's own caller waits while it submits what queued").isFalse();
        assertThat(submitters).as("the thread holding the lock submits what queued meanwhile, in the same hold")
                .containsExactly("first@" + holder, "b@" + holder, "c@" + holder);
        cProceed.countDown();
        assertThat(first.get(30, TimeUnit.SECONDS).member()).isCompleted();
        assertThat(c.get(0).get(30, TimeUnit.SECONDS).member()).isCompleted();
        assertThat(store.live("arrivals")).extracting(Claim::name).containsExactlyInAnyOrder("first", "b", "c");
    }

    @Test
    void anInterruptedClaimThreadStillHearsItsAnswerAndKeepsItsInterrupt() throws Exception {
        Future<ClaimHandle> first = holdFirstClaimInTheStore();
        CountDownLatch served = new CountDownLatch(1);
        AtomicBoolean stillInterrupted = new AtomicBoolean();
        Thread claimer = new Thread(() -> {
            ClaimHandle handle = controller.claim("patient");
            stillInterrupted.set(Thread.currentThread().isInterrupted());
            if (handle.member().isDone()) {
                served.countDown();
            }
        });
        claimer.start();
        await().atMost(30, TimeUnit.SECONDS).until(() -> controller.claimsWaitingToSubmit() == 1);
        claimer.interrupt();
        proceed.countDown();
        claimer.join(TimeUnit.SECONDS.toMillis(30));

        assertThat(claimer.isAlive()).as("the interrupted claim returned").isFalse();
        assertThat(served.getCount()).as("served, not abandoned").isZero();
        assertThat(stillInterrupted).as("the interrupt is kept for the caller").isTrue();
        assertThat(first.get(30, TimeUnit.SECONDS).member()).isCompleted();
        assertThat(store.find("arrivals", "patient")).isPresent();
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            assertThat(latch.await(30, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Claims "first" on another thread and returns once that claim is inside the store's submit, lock held. */
    private Future<ClaimHandle> holdFirstClaimInTheStore() throws InterruptedException {
        Future<ClaimHandle> first = claimers.submit(() -> controller.claim("first"));
        assertThat(entered.await(30, TimeUnit.SECONDS)).as("the first claim reached the store").isTrue();
        return first;
    }
}
