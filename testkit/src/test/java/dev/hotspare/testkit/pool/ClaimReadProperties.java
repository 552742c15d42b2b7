package dev.hotspare.testkit.pool;

import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.testkit.property.Gen;
import dev.hotspare.testkit.property.Property;
import dev.hotspare.time.VirtualTimeScheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.hotspare.testkit.property.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pool whose claim store answers reads with claims missing at random — and now and then with no claim at all —
 * for stretches shorter than the orphan grace period: no member whose claim still exists is ever deleted, and
 * every released claim's member is deleted in the end.
 */
class ClaimReadProperties {

    /** One claim of the trace: when it arrives (minutes from start) and how long its claimer holds the member. */
    record Arrival(int minute, int holdMinutes) {
    }

    /** What a run saw: members deleted while their claim was live, and released members still there at the end. */
    record Outcome(List<String> deletedInUse, List<String> releasedButKept) {
    }

    @Property(tries = 300)
    void noMemberWhoseClaimStillExistsIsEverDeleted() {
        record Args(int size, int running, int maxConcurrent, int graceMinutes, List<Integer> arrivals, int holdMinutes, long seed) {
        }
        forAll(s -> new Args(
                Gen.integers(0, 4).generate(s),
                Gen.integers(0, 4).generate(s),
                Gen.integers(1, 5).generate(s),
                Gen.integers(2, 30).generate(s),
                Gen.integers(0, 180).list(1, 8).generate(s),
                Gen.integers(1, 120).generate(s),
                Gen.longs().generate(s))).check(args -> {
            int size = args.size();
            int running = args.running();
            int maxConcurrent = args.maxConcurrent();
            int graceMinutes = args.graceMinutes();
            List<Integer> arrivals = args.arrivals();
            int holdMinutes = args.holdMinutes();
            long seed = args.seed();
            Outcome outcome = run(size, running, maxConcurrent, graceMinutes, arrivals, holdMinutes, seed);
            assertThat(outcome.deletedInUse()).as("members deleted while their claim was live").isEmpty();
        });
    }

    @Property(tries = 300)
    void everyReleasedClaimsMemberIsDeletedInTheEnd() {
        record Args(int size, int running, int maxConcurrent, int graceMinutes, List<Integer> arrivals, int holdMinutes, long seed) {
        }
        forAll(s -> new Args(
                Gen.integers(0, 4).generate(s),
                Gen.integers(0, 4).generate(s),
                Gen.integers(1, 5).generate(s),
                Gen.integers(2, 30).generate(s),
                Gen.integers(0, 180).list(1, 8).generate(s),
                Gen.integers(1, 120).generate(s),
                Gen.longs().generate(s))).check(args -> {
            int size = args.size();
            int running = args.running();
            int maxConcurrent = args.maxConcurrent();
            int graceMinutes = args.graceMinutes();
            List<Integer> arrivals = args.arrivals();
            int holdMinutes = args.holdMinutes();
            long seed = args.seed();
            Outcome outcome = run(size, running, maxConcurrent, graceMinutes, arrivals, holdMinutes, seed);
            assertThat(outcome.releasedButKept()).as("members of released claims still in the pool").isEmpty();
        });
    }

    private static Outcome run(int size, int running, int maxConcurrent, int graceMinutes, List<Integer> arrivals,
                               int holdMinutes, long seed) {
        VirtualTimeScheduler time = VirtualTimeScheduler.startingAt2026();
        InMemoryMemberDriver memory = InMemoryMemberDriver.builder(time).installTime(Duration.ofMinutes(20))
                .resumeTime(Duration.ofMinutes(3)).hibernateTime(Duration.ofMinutes(1)).deleteTime(Duration.ofMinutes(1)).build();
        InMemoryClaimStore truth = new InMemoryClaimStore();
        Duration grace = Duration.ofMinutes(graceMinutes);
        // Claims vanish from reads for at most a minute less than the grace period.
        DroppingClaimStore lying = new DroppingClaimStore(truth, new Random(seed), time.clock(), 0.3, 0.1,
                grace.minus(Duration.ofMinutes(1)));
        List<String> deletedInUse = new CopyOnWriteArrayList<>();
        MemberDriver watched = new CheckingDriver(memory, truth, deletedInUse);
        PoolSpec spec = PoolSpec.builder("flaky").size(size).runningCount(running).maxConcurrent(maxConcurrent)
                .orphanGracePeriod(grace).build();
        PoolController controller = PoolController.builder(spec).memberDriver(watched).claimStore(lying).scheduler(time)
                .resyncPeriod(Duration.ofMinutes(1)).build().start();

        Map<String, String> releasedMembers = new ConcurrentHashMap<>();
        for (int i = 0; i < arrivals.size(); i++) {
            String name = "job-" + i;
            time.schedule(Duration.ofMinutes(arrivals.get(i)), () -> {
                ClaimHandle handle = controller.claim(name);
                handle.member().thenAccept(member -> time.schedule(Duration.ofMinutes(holdMinutes), () -> {
                    controller.release(handle);
                    releasedMembers.put(name, member.id());
                }));
            });
        }
        time.advanceBy(Duration.ofHours(10));
        controller.close();

        List<String> kept = new ArrayList<>();
        releasedMembers.forEach((claim, member) -> memory.find("flaky", member).ifPresent(m -> kept.add(claim + " -> " + m.id())));
        return new Outcome(deletedInUse, kept);
    }

    /** Records every delete of a member whose claim is live in the real store and belongs to it. */
    private static final class CheckingDriver implements MemberDriver {
        private final MemberDriver delegate;
        private final InMemoryClaimStore truth;
        private final List<String> deletedInUse;

        CheckingDriver(MemberDriver delegate, InMemoryClaimStore truth, List<String> deletedInUse) {
            this.delegate = delegate;
            this.truth = truth;
            this.deletedInUse = deletedInUse;
        }

        @Override
        public void delete(String pool, String memberId) {
            delegate.find(pool, memberId).filter(m -> m.phase() != MemberPhase.DELETING).ifPresent(m -> m.claimName()
                    .flatMap(name -> truth.find(pool, name)).filter(m::serves)
                    .ifPresent(claim -> deletedInUse.add(memberId + " of live claim " + claim.name())));
            delegate.delete(pool, memberId);
        }

        @Override
        public Member create(String pool, String templateVersion, DesiredPower power) {
            return delegate.create(pool, templateVersion, power);
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
        public List<Member> list(String pool) {
            return delegate.list(pool);
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
