package dev.hotspare.pool.runtime;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.pool.internal.RecordRepair;
import dev.hotspare.testkit.property.Gen;
import dev.hotspare.testkit.property.Property;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import static dev.hotspare.testkit.property.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 22, pass cost, on the split controller: record repair is decided on the members the member table names as
 * candidates (those naming a claim, those a live claim names) only, and that asks for exactly the repairs, in the same
 * order, that deciding on the whole read asks for — also with some repairs failed, and over reads of one kept table.
 */
class RepairCandidatesProperties {

    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

    @Property(tries = 300)
    void repairsOfTheCandidatesAreTheRepairsOfTheWholeRead() {
        forAll(Gen.longs()).check(seed -> {
            Random random = new Random(seed);
            MemberTable table = new MemberTable();
            for (int read = 0; read < 3; read++) {
                List<Member> listed = members(random);
                List<Claim> live = claims(random, listed.size());
                List<Member> members = table.read(listed, (a, b) -> { });
                List<Member> candidates = new ArrayList<>();
                for (int i : PlanApplier.repairCandidates(table, live)) {
                    candidates.add(members.get(i));
                }
                List<RecordRepair.Repair> whole = RecordRepair.decide(members, live, NOW, Set.of());
                String why = "seed " + seed + ", read " + read + ", members " + members + ", claims " + live;
                assertThat(RecordRepair.decide(candidates, live, NOW, Set.of())).as(why).isEqualTo(whole);
                Set<RecordRepair.Repair> failed = new HashSet<>();
                for (RecordRepair.Repair r : whole) {
                    if (random.nextInt(3) == 0) {
                        failed.add(r);
                    }
                }
                assertThat(RecordRepair.decide(candidates, live, NOW, failed)).as("%s, failed %s", why, failed)
                        .isEqualTo(RecordRepair.decide(members, live, NOW, failed));
            }
        });
    }

    /** Members over a few claim names, some released or deleting, created at random times, listed in random order. */
    private static List<Member> members(Random random) {
        int count = random.nextInt(9);
        List<Member> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Instant created = NOW.minus(Duration.ofMinutes(30 + random.nextInt(60)));
            Optional<String> claim = random.nextInt(3) == 0 ? Optional.empty() : Optional.of("c" + random.nextInt(6));
            Optional<Instant> claimedAt = claim.isEmpty() || random.nextInt(4) == 0 ? Optional.empty()
                    : Optional.of(NOW.minus(Duration.ofMinutes(random.nextInt(20))));
            Member m = new Member("m" + random.nextInt(12), created, "v1", MemberPhase.READY, DesiredPower.RUNNING,
                    ObservedPower.RUNNING, created, Optional.of(created), Optional.of(created), claim, claimedAt);
            if (random.nextInt(6) == 0) {
                m = m.withPhase(MemberPhase.DELETING);
            }
            if (random.nextInt(6) == 0) {
                m = m.released(NOW.minus(Duration.ofMinutes(1)));
            }
            out.add(m);
        }
        Collections.shuffle(out, random);
        return out;
    }

    /** Live claims c0..c4, pending or naming a member (maybe one not listed), some ready. */
    private static List<Claim> claims(Random random, int members) {
        List<Claim> out = new ArrayList<>();
        for (int i = 0; i < random.nextInt(6); i++) {
            Claim c = Claim.pending("c" + i, NOW.minus(Duration.ofMinutes(random.nextInt(30))), Optional.empty());
            if (random.nextBoolean()) {
                Instant at = c.createdAt().plus(Duration.ofMinutes(random.nextInt(5)));
                c = c.assigned("m" + random.nextInt(12), at);
                if (random.nextBoolean()) {
                    c = c.ready(at.plus(Duration.ofMinutes(random.nextInt(3))));
                }
            }
            out.add(c);
        }
        return out;
    }
}
