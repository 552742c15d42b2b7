package dev.hotspare.pool.runtime;

import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.testkit.property.Gen;
import dev.hotspare.testkit.property.Property;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.hotspare.testkit.property.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 22, pass cost: the member table kept between passes answers, after any sequence of reads (members added,
 * changed, claimed, released, removed, listed twice), exactly what a table built from scratch from the last two reads
 * answers: the deduplicated list in the planner's member order, each id's record and position, the record the read
 * before listed, the members new or changed since then, the members naming a claim — and it never keeps more than
 * about twice the listed members.
 */
class MemberTableProperties {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Property(tries = 100)
    void theTableKeptBetweenReadsAnswersLikeOneBuiltFromScratch() {
        forAll(Gen.longs()).check(seed -> {
            Random random = new Random(seed);
            MemberTable table = new MemberTable();
            Map<String, Member> pool = new LinkedHashMap<>();
            Map<String, Member> previousRead = Map.of();
            List<Member> removed = new ArrayList<>();
            int next = 0;
            for (int read = 0; read < 40; read++) {
                int changes = random.nextInt(30);
                for (int k = 0; k < changes; k++) {
                    List<String> ids = new ArrayList<>(pool.keySet());
                    int op = random.nextInt(6);
                    if (op == 5 && !removed.isEmpty()) {
                        // Listed again after a gap (a read that missed it).
                        Member back = removed.remove(random.nextInt(removed.size()));
                        pool.put(back.id(), back);
                    } else if (op == 0 || op == 5 || ids.isEmpty()) {
                        String id = "m-" + next++;
                        pool.put(id, Member.provisioning(id, T0.plusSeconds(next), "v1", DesiredPower.RUNNING));
                    } else {
                        String id = ids.get(random.nextInt(ids.size()));
                        Member m = pool.get(id);
                        switch (op) {
                            case 1 -> removed.add(pool.remove(id));
                            case 2 -> {
                                if (m.claimName().isEmpty()) {
                                    pool.put(id, m.assignedTo("c-" + random.nextInt(10), T0.plusSeconds(read)));
                                }
                            }
                            case 3 -> {
                                if (m.claimName().isPresent() && !m.isReleased()) {
                                    pool.put(id, m.released(T0.plusSeconds(read)));
                                }
                            }
                            default -> pool.put(id, m.withDesiredPower(random.nextBoolean() ? DesiredPower.RUNNING : DesiredPower.HIBERNATING));
                        }
                    }
                }
                List<Member> listed = new ArrayList<>(pool.values());
                java.util.Collections.shuffle(listed, random);
                if (!listed.isEmpty() && random.nextInt(4) == 0) {
                    // A backend listing one member twice, once with another record: the first is used.
                    Member twice = listed.get(random.nextInt(listed.size()));
                    listed.add(random.nextInt(listed.size() + 1), twice.withDesiredPower(DesiredPower.HIBERNATING));
                }
                List<String> duplicates = new ArrayList<>();
                List<Member> got = table.read(listed, (first, other) -> duplicates.add(first.id()));

                Map<String, Member> scratch = new LinkedHashMap<>();
                List<String> expectedDuplicates = new ArrayList<>();
                for (Member m : listed) {
                    Member first = scratch.putIfAbsent(m.id(), m);
                    if (first != null && !first.equals(m)) {
                        expectedDuplicates.add(m.id());
                    }
                }
                List<Member> expected = new ArrayList<>(scratch.values());
                expected.sort(Member.TOTAL_ORDER);
                List<Member> expectedChanged = new ArrayList<>();
                for (Member m : expected) {
                    if (!m.equals(previousRead.get(m.id()))) {
                        expectedChanged.add(m);
                    }
                }
                String where = "seed " + seed + ", read " + read;
                assertThat(got).as(where).isEqualTo(expected);
                assertThat(duplicates).as(where).isEqualTo(expectedDuplicates);
                List<Integer> naming = new ArrayList<>();
                for (int i = 0; i < expected.size(); i++) {
                    Member m = expected.get(i);
                    assertThat(table.get(m.id())).as(where).isSameAs(m);
                    assertThat(table.indexOf(m.id())).as(where).isEqualTo(i);
                    assertThat(table.previous(m.id())).as(where + ", previous of " + m.id()).isEqualTo(previousRead.get(m.id()));
                    if (m.claimName().isPresent() && !m.isReleased()) {
                        naming.add(i);
                    }
                }
                assertThat(table.naming()).as(where).isEqualTo(naming);
                assertThat(table.changed()).as(where + ": changed since the read before").isEqualTo(expectedChanged);
                for (String gone : previousRead.keySet()) {
                    if (!scratch.containsKey(gone)) {
                        assertThat(table.get(gone)).as(where + ": " + gone + " is gone").isNull();
                        assertThat(table.indexOf(gone)).as(where).isEqualTo(-1);
                    }
                }
                assertThat(table.slots()).as(where + ": stale slots are swept").isLessThanOrEqualTo(2 * expected.size() + 64);
                previousRead = new HashMap<>(scratch);
            }
        });
    }
}
