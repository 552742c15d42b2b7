package dev.hotspare.pool.internal;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.internal.RecordRepair.OnClaim;
import dev.hotspare.pool.internal.RecordRepair.Ready;
import dev.hotspare.pool.internal.RecordRepair.Repair;
import dev.hotspare.testkit.property.Gen;
import dev.hotspare.testkit.property.Property;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static dev.hotspare.pool.internal.Records.NOW;
import static dev.hotspare.testkit.property.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Record repair over random disagreeing records: the repaired records agree, repairing again changes nothing, no
 * repair gives a member to a second claim, and a repair that failed is never asked for again nor built on.
 */
class RecordRepairProperties {

    @Property(tries = 300)
    void repairedRecordsAgreeAndRepairingAgainChangesNothing() {
        forAll(Gen.longs()).check(seed -> {
            PoolState records = Records.random(new Random(seed));
            PoolState repaired = RecordRepair.repaired(records, NOW);
            String why = "seed " + seed + ", records " + records;

            assertThat(RecordRepair.decide(repaired.members(), repaired.claims(), NOW, Set.of())).as(why).isEmpty();
            assertThat(RecordRepair.repaired(repaired, NOW)).as(why).isEqualTo(repaired);

            Map<String, Member> members = new HashMap<>();
            repaired.members().forEach(m -> members.put(m.id(), m));
            for (Claim c : repaired.claims()) {
                Member m = c.assignedMember().map(members::get).orElse(null);
                if (m != null && !m.isReleased() && !(m.phase() == MemberPhase.DELETING && m.claimName().isEmpty())) {
                    assertThat(m.claimName()).as("every claimed member's record names a claim: %s, %s", c, why).isPresent();
                }
                if (m != null && m.serves(c) && m.phase() != MemberPhase.DELETING && !m.isReleased()) {
                    assertThat(c.isReady()).as("a claim both records agree on is ready: %s, %s", c, why).isTrue();
                }
            }
            Set<String> named = claimedMembers(records.claims());
            for (Member m : repaired.members()) {
                if (m.isReleased() || named.contains(m.id())) {
                    continue;
                }
                for (Claim c : repaired.claims()) {
                    assertThat(!c.isAssigned() && m.serves(c))
                            .as("a member no other claim record names and the pending claim it names are joined: %s, %s, %s", m, c, why)
                            .isFalse();
                }
            }
            for (String member : claimedMembers(repaired.claims())) {
                assertThat(claimsNaming(repaired.claims(), member))
                        .as("no repair names a member on a second claim: %s, %s", member, why)
                        .isLessThanOrEqualTo(Math.max(1, claimsNaming(records.claims(), member)));
            }
        });
    }

    @Property(tries = 300)
    void aFailedRepairIsNeitherAskedForAgainNorBuiltOn() {
        forAll(Gen.longs()).check(seed -> {
            Random random = new Random(seed);
            PoolState records = Records.random(random);
            Set<Repair> failed = new HashSet<>();
            for (Repair r : RecordRepair.decide(records.members(), records.claims(), NOW, Set.of())) {
                if (random.nextInt(3) == 0) {
                    failed.add(r);
                }
            }
            List<Repair> repairs = RecordRepair.decide(records.members(), records.claims(), NOW, failed);
            String why = "seed " + seed + ", failed " + failed + ", records " + records;

            assertThat(repairs).as(why).noneMatch(failed::contains);
            Set<String> recorded = new HashSet<>();
            for (Repair r : repairs) {
                if (r instanceof OnClaim on) {
                    assertThat(recorded.add(on.claimName())).as("one member recorded per claim: %s", why).isTrue();
                } else if (r instanceof Ready ready) {
                    Claim claim = records.claims().stream().filter(c -> c.name().equals(ready.claimName())).findFirst().orElseThrow();
                    assertThat(claim.isAssigned() || recorded.contains(ready.claimName()))
                            .as("a ready mark only for a claim assigned, or recorded before it in this list: %s", why).isTrue();
                }
            }
        });
    }

    private static Set<String> claimedMembers(List<Claim> claims) {
        Set<String> out = new HashSet<>();
        claims.forEach(c -> c.assignedMember().ifPresent(out::add));
        return out;
    }

    private static int claimsNaming(List<Claim> claims, String member) {
        return (int) claims.stream().filter(c -> c.assignedMember().filter(member::equals).isPresent()).count();
    }
}
