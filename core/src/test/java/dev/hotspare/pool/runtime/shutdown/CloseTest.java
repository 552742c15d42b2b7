package dev.hotspare.pool.runtime.shutdown;

import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.CapturedLogs;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.pool.runtime.PoolListener;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.TaskScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link PoolController#close()} on real threads: it waits for a pass already running (for at most its close
 * timeout), and no pass starts after it, so shutting the executor down next logs no rejected task.
 */
class CloseTest {

    final ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
    final TaskScheduler tasks = TaskScheduler.system(executor, Clock.systemUTC());
    final InMemoryMemberDriver memory = InMemoryMemberDriver.builder(tasks).build();
    final CountDownLatch passEntered = new CountDownLatch(1);
    final CountDownLatch letPassGo = new CountDownLatch(1);
    final List<String> order = Collections.synchronizedList(new ArrayList<>());

    @AfterEach
    void stopExecutor() throws InterruptedException {
        letPassGo.countDown();
        executor.shutdownNow();
        assertThat(executor.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
    }

    /**
     * The in-memory driver, except that the first list blocks until {@code letPassGo}; with {@code closeOpens},
     * closing a watch (which close() does first) opens it.
     */
    MemberDriver blockingOnce(boolean closeOpens) {
        AtomicBoolean first = new AtomicBoolean(true);
        return new MemberDriver() {
            @Override
            public Member create(String pool, String templateVersion, DesiredPower power) {
                return memory.create(pool, templateVersion, power);
            }

            @Override
            public void delete(String pool, String memberId) {
                memory.delete(pool, memberId);
            }

            @Override
            public void setDesiredPower(String pool, String memberId, DesiredPower power) {
                memory.setDesiredPower(pool, memberId, power);
            }

            @Override
            public void assign(String pool, String memberId, String claimName, Instant claimedAt) {
                memory.assign(pool, memberId, claimName, claimedAt);
            }

            @Override
            public void markReleased(String pool, String memberId, Instant releasedAt) {
                memory.markReleased(pool, memberId, releasedAt);
            }

            @Override
            public void markOrphaned(String pool, String memberId, Optional<Instant> since) {
                memory.markOrphaned(pool, memberId, since);
            }

            @Override
            public List<Member> list(String pool) {
                if (first.compareAndSet(true, false)) {
                    passEntered.countDown();
                    try {
                        letPassGo.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return memory.list(pool);
            }

            @Override
            public Optional<Member> find(String pool, String memberId) {
                return memory.find(pool, memberId);
            }

            @Override
            public AutoCloseable watch(String pool, MemberListener listener) {
                AutoCloseable watch = memory.watch(pool, listener);
                return () -> {
                    watch.close();
                    if (closeOpens) {
                        letPassGo.countDown(); // close() is under way: let the blocked pass finish now
                    }
                };
            }
        };
    }

    PoolController controller(String pool, Duration closeTimeout, boolean closeOpens) {
        return PoolController.builder(PoolSpec.builder(pool).size(1).runningCount(1).build())
                .memberDriver(blockingOnce(closeOpens)).claimStore(new InMemoryClaimStore())
                .scheduler(tasks).closeTimeout(closeTimeout).listener(new PoolListener() {
                    @Override
                    public void onPlanApplied(String p, PoolPlan plan, Instant now) {
                        order.add("pass");
                    }
                }).build().start();
    }

    @Test
    void closeReturnsAfterThePassRunningAtThatMomentAndNoPassStartsAfterIt() throws Exception {
        PoolController controller = controller("close-waits", Duration.ofSeconds(60), true);
        assertThat(passEntered.await(60, TimeUnit.SECONDS)).isTrue();

        Thread closer = new Thread(() -> {
            controller.close();
            order.add("closed");
        });
        closer.start();
        closer.join(TimeUnit.SECONDS.toMillis(120));

        assertThat(order).containsExactly("pass", "closed");
        controller.requestReconcile();
        memory.create("close-waits", "v1", DesiredPower.RUNNING);
        executor.shutdown();
        assertThat(executor.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        assertThat(order).as("no pass after close").containsExactly("pass", "closed");
        assertThat(CapturedLogs.mentioning("close-waits")).noneMatch(e -> e.mentions("RejectedExecutionException"));
    }

    @Test
    void aPassThatNeverEndsHoldsCloseOnlyForTheCloseTimeout() throws Exception {
        PoolController controller = controller("stuck-pass", Duration.ofMillis(50), false);
        assertThat(passEntered.await(60, TimeUnit.SECONDS)).isTrue();
        // The pass stays stuck until the test ends (@AfterEach opens the latch).
        Thread closer = new Thread(controller::close);
        closer.start();
        closer.join(TimeUnit.SECONDS.toMillis(120));
        assertThat(closer.isAlive()).isFalse();
        assertThat(CapturedLogs.mentioning("stuck-pass")).filteredOn(e -> e.level() == Level.WARN)
                .extracting(CapturedLogs.Event::message).anyMatch(m -> m.contains("still running"));
    }
}
