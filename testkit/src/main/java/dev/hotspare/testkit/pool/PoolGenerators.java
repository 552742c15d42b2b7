package dev.hotspare.testkit.pool;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.PoolSpec.ClaimLifetime;
import dev.hotspare.testkit.property.Gen;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Generators ({@link Gen}, run by {@link dev.hotspare.testkit.property.PropertyCheck}) for pool specs, members,
 * claims and whole scenarios — for hotspare's own properties and for users who want to state properties about their
 * pools; every generated value shrinks. Every timestamp lies in the 200 minutes
 * after {@link #ORIGIN}; scenarios decide at {@code ORIGIN + 200 min}.
 */
public final class PoolGenerators {

    /** The earliest timestamp generated. */
    public static final Instant ORIGIN = Instant.parse("2026-01-01T00:00:00Z");
    /** The decision time of generated scenarios. */
    public static final Instant NOW = ORIGIN.plus(Duration.ofMinutes(200));

    private PoolGenerators() {
    }

    /**
     * Pool specs small enough to exercise every limit: sizes 0..8, runningCount 0..10, optional caps and timers,
     * orphan grace periods of 0..30 minutes, and one pool in ten being deleted.
     *
     * @return the generator
     */
    public static Gen<PoolSpec> specs() {
        Gen<OptionalInt> maxSize = Gen.integers(0, 20).optional().map(o -> o.map(OptionalInt::of).orElse(OptionalInt.empty()));
        Gen<OptionalInt> maxConcurrent = Gen.integers(1, 5).optional().map(o -> o.map(OptionalInt::of).orElse(OptionalInt.empty()));
        Gen<Optional<Duration>> hibernateAfter = minutes(10, 120).optional();
        Gen<Optional<Duration>> resumeTimeout = minutes(5, 60).optional();
        Gen<ClaimLifetime> lifetime = s -> new ClaimLifetime(minutes(30, 240).optional().generate(s), minutes(30, 480).optional().generate(s));
        Gen<Integer> size = Gen.integers(0, 8);
        Gen<Integer> running = Gen.integers(0, 10);
        Gen<String> template = Gen.of("v1", "v2");
        return s -> new PoolSpec("pool", size.generate(s), running.generate(s), maxSize.generate(s), maxConcurrent.generate(s),
                hibernateAfter.generate(s), resumeTimeout.generate(s), lifetime.generate(s), template.generate(s))
                .toBuilder().orphanGracePeriod(minutes(0, 30).generate(s)).deleted(Gen.integers(0, 9).generate(s) == 0).build();
    }

    /**
     * Whole scenarios: a spec, up to 15 members in every phase and power state — some on a stale or an unknown
     * template version, some claimed, some of those carrying a release or an orphan mark, some whose claim is
     * missing — and up to 6 pending claims. Member and claim records agree with each other.
     *
     * @return the generator
     */
    public static Gen<PoolScenario> scenarios() {
        Gen<PoolSpec> specs = specs();
        Gen<List<MemberSeed>> members = memberSeeds().list(0, 15);
        Gen<List<Integer>> pending = Gen.integers(0, 199).list(0, 6);
        Gen<Integer> orphanEvery = Gen.integers(0, 10);
        return s -> build(specs.generate(s), members.generate(s), pending.generate(s), orphanEvery.generate(s));
    }

    /**
     * Members of a settled pool: all READY and observed in their desired state, no claims.
     *
     * @return the generator
     */
    public static Gen<List<Member>> settledMembers() {
        Gen<Integer> minutes = Gen.integers(0, 199);
        Gen<DesiredPower> powers = Gen.of(DesiredPower.RUNNING, DesiredPower.HIBERNATING);
        return ((Gen<int[]>) s -> new int[]{minutes.generate(s), powers.generate(s).ordinal()})
                .list(0, 12)
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

    private static Gen<Duration> minutes(int min, int max) {
        return Gen.integers(min, max).map(Duration::ofMinutes);
    }

    /** The random choices behind one member; turned into a consistent {@link Member} by {@link #build}. */
    private record MemberSeed(int createdMinute, MemberPhase phase, DesiredPower desired, ObservedPower observed,
                              int sinceOffset, boolean claimed, int claimOffset, int template, int mark) {
    }

    private static Gen<MemberSeed> memberSeeds() {
        Gen<Integer> created = Gen.integers(0, 150);
        Gen<MemberPhase> phase = Gen.enums(MemberPhase.class);
        Gen<DesiredPower> desired = Gen.enums(DesiredPower.class);
        Gen<ObservedPower> observed = Gen.enums(ObservedPower.class);
        Gen<Integer> offset = Gen.integers(0, 49);
        Gen<Boolean> claimed = Gen.of(false, false, true);
        Gen<Integer> template = Gen.integers(0, 7);
        Gen<Integer> mark = Gen.integers(0, 5);
        return s -> new MemberSeed(created.generate(s), phase.generate(s), desired.generate(s), observed.generate(s),
                offset.generate(s), claimed.generate(s), offset.generate(s), template.generate(s), mark.generate(s));
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
            // One in eight on a stale template, one in eight with none recorded (unknown).
            String template = s.template() == 0 ? "v0" : s.template() == 1 ? null : spec.templateVersion();
            Optional<String> claimName = claimed ? Optional.of("c-" + i) : Optional.empty();
            Optional<Instant> claimedAt = claimed ? Optional.of(created.plus(Duration.ofMinutes(s.claimOffset()))) : Optional.empty();
            // Claimed members: one in six carries the release mark, one in six an orphan mark.
            Optional<Instant> releasedAt = claimed && s.mark() == 0 ? Optional.of(claimedAt.get().plus(Duration.ofMinutes(1))) : Optional.empty();
            Optional<Instant> orphanedSince = claimed && s.mark() == 1 ? Optional.of(claimedAt.get().plus(Duration.ofMinutes(1))) : Optional.empty();
            members.add(new Member("m-" + i, created, template, s.phase(), s.desired(), observed, since, installedAt,
                    becameRunning, claimName, claimedAt, releasedAt, orphanedSince));
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

    /**
     * Scenarios whose member and claim records disagree in every way a crash, a race or a stray write can leave
     * them: members naming claims that do not exist, that hold other members or that are pending; members with a
     * claim but no claim time; claims naming members that do not exist, that name no claim or another claim;
     * marks on any claimed member. Member ids and claim names are unique (the runtime removes duplicates first).
     *
     * @return the generator
     */
    public static Gen<PoolScenario> inconsistentScenarios() {
        Gen<PoolSpec> specs = specs();
        Gen<List<List<Integer>>> members = Gen.integers(0, 99).list(8).list(0, 10);
        Gen<List<List<Integer>>> claims = Gen.integers(0, 99).list(5).list(0, 8);
        return s -> buildInconsistent(specs.generate(s), members.generate(s), claims.generate(s));
    }

    private static PoolScenario buildInconsistent(PoolSpec spec, List<List<Integer>> memberSeeds, List<List<Integer>> claimSeeds) {
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < memberSeeds.size(); i++) {
            List<Integer> r = memberSeeds.get(i);
            Instant created = ORIGIN.plus(Duration.ofMinutes(r.get(0)));
            MemberPhase phase = MemberPhase.values()[r.get(1) % MemberPhase.values().length];
            ObservedPower observed = ObservedPower.values()[r.get(2) % ObservedPower.values().length];
            DesiredPower desired = DesiredPower.values()[r.get(3) % DesiredPower.values().length];
            Optional<String> claim = r.get(4) < 40 ? Optional.empty() : Optional.of("c-" + r.get(4) % 6);
            Optional<Instant> claimedAt = claim.isPresent() && r.get(5) < 70 ? Optional.of(created.plus(Duration.ofMinutes(r.get(5)))) : Optional.empty();
            Optional<Instant> releasedAt = r.get(6) < 15 ? Optional.of(created.plus(Duration.ofMinutes(r.get(6)))) : Optional.empty();
            Optional<Instant> orphanedSince = r.get(7) < 20 ? Optional.of(created.plus(Duration.ofMinutes(r.get(7)))) : Optional.empty();
            String template = r.get(6) % 5 == 0 ? null : r.get(6) % 5 == 1 ? "v0" : spec.templateVersion();
            Optional<Instant> installedAt = phase == MemberPhase.PROVISIONING ? Optional.empty() : Optional.of(created);
            members.add(new Member("m-" + i, created, template, phase, desired, observed, created, installedAt,
                    observed == ObservedPower.RUNNING ? Optional.of(created) : Optional.empty(), claim, claimedAt, releasedAt,
                    orphanedSince));
        }
        List<Claim> claims = new ArrayList<>();
        for (int j = 0; j < claimSeeds.size() && j < 6; j++) {
            List<Integer> r = claimSeeds.get(j);
            Instant created = ORIGIN.plus(Duration.ofMinutes(r.get(0)));
            Optional<Duration> lifetime = r.get(1) < 30 ? Optional.of(Duration.ofMinutes(1 + r.get(1))) : Optional.empty();
            Claim claim = Claim.pending("c-" + j, created, lifetime);
            if (r.get(2) >= 30) {
                // The member it names may not exist (ids run to m-11, members to at most m-9).
                Instant assignedAt = created.plus(Duration.ofMinutes(r.get(3) % 30));
                claim = claim.assigned("m-" + r.get(2) % 12, assignedAt);
                if (r.get(4) < 50) {
                    claim = claim.ready(assignedAt.plus(Duration.ofMinutes(r.get(4) % 3)));
                }
            }
            claims.add(claim);
        }
        return new PoolScenario(spec, members, claims, NOW);
    }
}
