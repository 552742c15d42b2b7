package dev.hotspare.pool.runtime;

import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hand-out index rebuilt from a pass's read keeps the changes that reached it after the read: a member deleted
 * while the pass was planning is not handed out.
 */
class FastPathRebuildTest {

    @Test
    void aMemberThatChangedAfterTheReadIsNotLeftAsTheReadSawIt() {
        VirtualTimeScheduler time = VirtualTimeScheduler.startingAt2026();
        InMemoryMemberDriver memory = InMemoryMemberDriver.builder(time).deleteTime(Duration.ofMinutes(10)).build();
        InMemoryClaimStore claims = new InMemoryClaimStore();
        AfterRead driver = new AfterRead(memory);
        PoolController controller = PoolController.builder(PoolSpec.builder("ci").size(3).runningCount(2).build())
                .memberDriver(driver).claimStore(claims).scheduler(time).resyncPeriod(Duration.ofSeconds(1)).build()
                .start();
        time.advanceBy(Duration.ofSeconds(5));
        List<Member> running = memory.list("ci").stream().filter(HandOut::assignable).toList();
        assertThat(running).hasSize(2);
        String taken = running.stream().sorted(Member.TOTAL_ORDER).findFirst().orElseThrow().id();

        // The next pass reads the pool; then, before the pass rebuilds its index from that read, another writer
        // (an operator, say) deletes the member. It stays DELETING for ten minutes and no pass writes it again, so no
        // later event corrects an index that has it as the read saw it.
        driver.afterNextList = () -> memory.delete("ci", taken);
        time.advanceBy(Duration.ofSeconds(1));

        assertThat(driver.afterNextList).as("the hook ran").isNull();
        assertThat(controller.handOutMatchesRebuild()).as("the index equals one rebuilt from the stores now").isTrue();
        ClaimHandle claim = controller.claim("job");
        assertThat(claim.member()).isCompleted();
        assertThat(claim.member().join().id()).as("the member being deleted is not handed out").isNotEqualTo(taken);
        controller.close();
    }

    /** Runs a hook once, right after a list has been read. */
    private static final class AfterRead implements MemberDriver {
        private final MemberDriver delegate;
        volatile Runnable afterNextList;

        AfterRead(MemberDriver delegate) {
            this.delegate = delegate;
        }

        @Override
        public List<Member> list(String pool) {
            List<Member> read = delegate.list(pool);
            Runnable hook = afterNextList;
            if (hook != null) {
                afterNextList = null;
                hook.run();
            }
            return read;
        }

        @Override
        public Member create(String pool, String templateVersion, DesiredPower power) {
            return delegate.create(pool, templateVersion, power);
        }

        @Override
        public void delete(String pool, String memberId) {
            delegate.delete(pool, memberId);
        }

        @Override
        public void setDesiredPower(String pool, String memberId, DesiredPower power) {
            delegate.setDesiredPower(pool, memberId, power);
        }

        @Override
        public void assign(String pool, String memberId, String claimName, Instant claimedAt) {
            delegate.assign(pool, memberId, claimName, claimedAt);
        }

        @Override
        public void markReleased(String pool, String memberId, Instant releasedAt) {
            delegate.markReleased(pool, memberId, releasedAt);
        }

        @Override
        public void markOrphaned(String pool, String memberId, Optional<Instant> since) {
            delegate.markOrphaned(pool, memberId, since);
        }

        @Override
        public Optional<Member> find(String pool, String memberId) {
            return delegate.find(pool, memberId);
        }

        @Override
        public AutoCloseable watch(String pool, MemberListener listener) {
            return delegate.watch(pool, listener);
        }
    }
}
