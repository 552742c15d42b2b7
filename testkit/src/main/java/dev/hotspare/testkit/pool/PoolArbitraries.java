package dev.hotspare.testkit.pool;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.ClaimLifetime;
import dev.hotspare.pool.DesiredPower;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.MemberPhase;
import dev.hotspare.pool.ObservedPower;
import dev.hotspare.pool.PoolSpec;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * jqwik arbitraries for pool specs, members, claims and whole scenarios — for hotspare's own properties
 * and for users who want to state properties about their pools. Every timestamp lies in the 200 minutes
 * after {@link #ORIGIN}; scenarios decide at {@code ORIGIN + 200 min}.
 */
public final class PoolArbitraries {

    /** The earliest timestamp generated. */
    public static final Instant ORIGIN = Instant.parse("2026-01-01T00:00:00Z");
    /** The decision time of generated scenarios. */
    public static final Instant NOW = ORIGIN.plus(Duration.ofMinutes(200));

    private PoolArbitraries() {
    }

    /** Pool specs small enough to exercise every limit: sizes 0..8, runningCount 0..10, optional caps and timers. */
    public static Arbitrary<PoolSpec> specs() {
        Arbitrary<OptionalInt> maxSize = Arbitraries.integers().between(0, 20).optional().map(o -> o.map(OptionalInt::of).orElse(OptionalInt.empty()));
        Arbitrary<OptionalInt> maxConcurrent = Arbitraries.integers().between(1, 5).optional().map(o -> o.map(OptionalInt::of).orElse(OptionalInt.empty()));
        Arbitrary<Optional<Duration>> hibernateAfter = minutes(10, 120).optional();
        Arbitrary<Optional<Duration>> resumeTimeout = minutes(5, 60).optional();
        Arbitrary<ClaimLifetime> lifetime = Combinators.combine(minutes(30, 240).optional(), minutes(30, 480).optional())
                .as(ClaimLifetime::new);
        return Combinators.combine(Arbitraries.integers().between(0, 8), Arbitraries.integers().between(0, 10),
                        maxSize, maxConcurrent, hibernateAfter, resumeTimeout, lifetime, Arbitraries.of("v1", "v2"))
                .as((size, running, max, concurrent, hibernate, resume, life, template) -> new PoolSpec("pool", size, running,
                        max, concurrent, hibernate, resume, life, template));
    }

    /** Whole scenarios: a spec, up to 15 members in every phase and power state, and up to 6 pending claims. */
    public static Arbitrary<PoolScenario> scenarios() {
        Arbitrary<List<MemberSeed>> members = memberSeeds().list().ofMaxSize(15);
        Arbitrary<List<Integer>> pending = Arbitraries.integers().between(0, 199).list().ofMaxSize(6);
        Arbitrary<Integer> orphanEvery = Arbitraries.integers().between(0, 10);
        return Combinators.combine(specs(), members, pending, orphanEvery).as(PoolArbitraries::build);
    }

    /** Members of a settled pool: all READY and observed in their desired state, no claims. */
    public static Arbitrary<List<Member>> settledMembers() {
        return Combinators.combine(Arbitraries.integers().between(0, 199), Arbitraries.of(DesiredPower.RUNNING, DesiredPower.HIBERNATING))
                .as((minute, power) -> new int[]{minute, power.ordinal()})
                .list().ofMaxSize(12)
                .map(seeds -> {
                    List<Member> out = new ArrayList<>();
                    for (int i = 0; i < seeds.size(); i++) {
                        Instant created = ORIGIN.plus(Duration.ofMinutes(seeds.get(i)[0]));
                        DesiredPower power = DesiredPower.values()[seeds.get(i)[1]];
                        ObservedPower observed = power == DesiredPower.RUNNING ? ObservedPower.RUNNING : ObservedPower.HIBERNATING;
                        out.add(new Member("m-" + i, created, "v1", MemberPhase.READY, power, observed, created,
                                Optional.of(created), Optional.of(created), Optional.empty(), Optional.empty()));
                    }
                    return out;
                });
    }

    private static Arbitrary<Duration> minutes(int min, int max) {
        return Arbitraries.integers().between(min, max).map(Duration::ofMinutes);
    }

    /** The random choices behind one member; turned into a consistent {@link Member} by {@link #build}. */
    private record MemberSeed(int createdMinute, MemberPhase phase, DesiredPower desired, ObservedPower observed,
                              int sinceOffset, boolean claimed, int claimOffset, boolean stale) {
    }

    private static Arbitrary<MemberSeed> memberSeeds() {
        return Combinators.combine(Arbitraries.integers().between(0, 150), Arbitraries.of(MemberPhase.class),
                Arbitraries.of(DesiredPower.class), Arbitraries.of(ObservedPower.class), Arbitraries.integers().between(0, 49),
                Arbitraries.of(true, false, false), Arbitraries.integers().between(0, 49),
                Arbitraries.of(true, false, false, false)).as(MemberSeed::new);
    }

    private static PoolScenario build(PoolSpec spec, List<MemberSeed> seeds, List<Integer> pendingMinutes, int orphanEvery) {
        List<Member> members = new ArrayList<>();
        List<Claim> claims = new ArrayList<>();
        for (int i = 0; i < seeds.size(); i++) {
            MemberSeed s = seeds.get(i);
            Instant created = ORIGIN.plus(Duration.ofMinutes(s.createdMinute()));
            Instant since = created.plus(Duration.ofMinutes(s.sinceOffset()));
            boolean installed = s.phase() != MemberPhase.PROVISIONING;
            ObservedPower observed = installed ? s.observed() : ObservedPower.UNKNOWN;
            boolean claimed = s.claimed() && s.phase() == MemberPhase.READY;
            Optional<Instant> installedAt = installed ? Optional.of(created) : Optional.empty();
            Optional<Instant> becameRunning = installed && observed == ObservedPower.RUNNING ? Optional.of(since) : Optional.empty();
            String template = s.stale() ? "v0" : spec.templateVersion();
            Optional<String> claimName = claimed ? Optional.of("c-" + i) : Optional.empty();
            Optional<Instant> claimedAt = claimed ? Optional.of(created.plus(Duration.ofMinutes(s.claimOffset()))) : Optional.empty();
            members.add(new Member("m-" + i, created, template, s.phase(), s.desired(), observed, since, installedAt,
                    becameRunning, claimName, claimedAt));
            boolean orphan = orphanEvery > 0 && i % orphanEvery == orphanEvery - 1;
            if (claimed && !orphan) {
                claims.add(Claim.pending("c-" + i, created, Optional.empty()).assigned("m-" + i, claimedAt.get()));
            }
        }
        for (int j = 0; j < pendingMinutes.size(); j++) {
            claims.add(Claim.pending("p-" + j, ORIGIN.plus(Duration.ofMinutes(pendingMinutes.get(j))), Optional.empty()));
        }
        return new PoolScenario(spec, members, claims, NOW);
    }
}
