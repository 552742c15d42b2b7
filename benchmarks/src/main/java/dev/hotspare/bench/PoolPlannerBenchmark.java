package dev.hotspare.bench;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolPlanner;
import dev.hotspare.pool.PoolSpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * {@link PoolPlanner#plan} on pools of 1k, 10k and 100k members (10% claimed, a few pending claims), against
 * the baseline of sorting the same members by (createdAt, id) — the least any planner using one total order
 * must do. Target (issue 22): plan ≤ 1.5× the sort at 10k and 100k members. The pair runs interleaved (plan, then
 * the sort, then the sort, then plan, ...) so a change of load on a shared machine falls on both.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar dev.hotspare.bench.PoolPlannerBenchmark [ROUNDS [SIZES]]}
 * (default 4 rounds, sizes {@code 10000,100000})
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PoolPlannerBenchmark {

    @Param({"1000", "10000", "100000"})
    public int members;

    private PoolSpec spec;
    private List<Member> pool;
    private List<Claim> claims;
    private Instant now;

    @Setup
    public void setUp() {
        Random random = new Random(42);
        Instant origin = Instant.parse("2026-01-01T00:00:00Z");
        now = origin.plus(Duration.ofDays(30));
        pool = new ArrayList<>(members);
        claims = new ArrayList<>();
        int claimed = members / 10;
        for (int i = 0; i < members; i++) {
            String id = "m-" + i;
            Instant created = origin.plusSeconds(random.nextInt(30 * 24 * 3600));
            boolean running = random.nextInt(4) == 0;
            Optional<String> claim = i < claimed ? Optional.of("claim-" + i) : Optional.empty();
            Optional<Instant> claimedAt = claim.map(c -> created.plusSeconds(3600));
            pool.add(new Member(id, created, "v1", MemberPhase.READY,
                    running ? DesiredPower.RUNNING : DesiredPower.HIBERNATING,
                    running ? ObservedPower.RUNNING : ObservedPower.HIBERNATING, created, Optional.of(created),
                    running ? Optional.of(created) : Optional.empty(), claim, claimedAt));
            claim.ifPresent(c -> claims.add(Claim.pending(c, created, Optional.empty()).assigned(id, claimedAt.get())));
        }
        for (int j = 0; j < 5; j++) {
            claims.add(Claim.pending("pending-" + j, now.minusSeconds(60 - j), Optional.empty()));
        }
        Collections.shuffle(pool, random);
        int unclaimed = members - claimed;
        spec = PoolSpec.builder("bench").size(unclaimed).runningCount(unclaimed / 4).maxConcurrent(50).build();
    }

    @Benchmark
    public PoolPlan plan() {
        return PoolPlanner.plan(spec, pool, claims, now);
    }

    @Benchmark
    public Member[] sortBaseline() {
        Member[] sorted = pool.toArray(new Member[0]);
        Arrays.sort(sorted, Member.TOTAL_ORDER);
        return sorted;
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        String[] sizes = (args.length > 1 ? args[1] : "10000,100000").split(",");
        Comparisons.interleaved(PoolPlannerBenchmark.class, "plan", "sortBaseline", rounds, java.util.Map.of("members", sizes));
    }
}
