package dev.hotspare.ownership;

import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The division of keys between live members: one owner each, balanced, and little movement when members change. */
class OwnershipTest {

    private static final int CASES = 200;

    private static List<String> keys(Random random, int count) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            keys.add("s" + Long.toHexString(random.nextLong() & 0xffffffffffL) + "-" + i);
        }
        return keys;
    }

    private static List<String> members(Random random, int count) {
        List<String> members = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            members.add("fleet-" + Integer.toHexString(random.nextInt(1 << 20)) + "-" + i);
        }
        return members;
    }

    @Test
    void everyKeyHasExactlyOneOwnerAmongTheLiveMembers() {
        for (int c = 0; c < CASES; c++) {
            long seed = 1000 + c;
            Random random = new Random(seed);
            List<String> members = members(random, 1 + random.nextInt(9));
            List<String> keys = keys(random, random.nextInt(400));
            Ownership.Assignment assignment = Ownership.assign(keys, members);
            assertThat(assignment.ownerByKey().keySet()).as("seed %d", seed).containsExactlyInAnyOrderElementsOf(keys);
            assertThat(assignment.ownerByKey().values()).as("seed %d", seed).allMatch(members::contains);
            int owned = assignment.keysByMember().values().stream().mapToInt(List::size).sum();
            assertThat(owned).as("seed %d: each key counted once", seed).isEqualTo(keys.size());
        }
    }

    @Test
    void withAHundredKeysPerMemberNoMemberOwnsMoreThanOneAndAQuarterTimesTheMean() {
        for (int c = 0; c < CASES; c++) {
            long seed = 2000 + c;
            Random random = new Random(seed);
            int n = 1 + random.nextInt(8);
            List<String> members = members(random, n);
            List<String> keys = keys(random, n * (100 + random.nextInt(50)));
            double mean = (double) keys.size() / n;
            Map<String, List<String>> byMember = Ownership.assign(keys, members).keysByMember();
            for (Map.Entry<String, List<String>> entry : byMember.entrySet()) {
                assertThat(entry.getValue().size()).as("seed %d, member %s", seed, entry.getKey()).isLessThanOrEqualTo((int) (1.25 * mean));
            }
        }
    }

    @Test
    void whenOneMemberLeavesOrJoinsOnlyAboutOneNthOfTheKeysMove() {
        for (int c = 0; c < CASES; c++) {
            long seed = 3000 + c;
            Random random = new Random(seed);
            int n = 2 + random.nextInt(7);
            List<String> members = members(random, n);
            List<String> keys = keys(random, n * 100);
            Map<String, String> before = Ownership.assign(keys, members).ownerByKey();
            String leaving = members.get(random.nextInt(n));
            List<String> fewer = new ArrayList<>(members);
            fewer.remove(leaving);
            Map<String, String> after = Ownership.assign(keys, fewer).ownerByKey();
            long mustMove = before.values().stream().filter(leaving::equals).count();
            long moved = keys.stream().filter(k -> !before.get(k).equals(after.get(k))).count();
            // Every key of the member that left moves; a few more move because every remaining member's room grew.
            assertThat(moved).as("seed %d: leave of 1 of %d", seed, n).isGreaterThanOrEqualTo(mustMove)
                    .isLessThanOrEqualTo((long) Math.ceil(1.5 * keys.size() / n));
            // Joining is the same change seen backwards.
            long movedOnJoin = keys.stream().filter(k -> !after.get(k).equals(before.get(k))).count();
            assertThat(movedOnJoin).as("seed %d: join", seed).isEqualTo(moved);
            assertThat(after.values()).as("seed %d", seed).doesNotContain(leaving);
        }
    }

    @Test
    void theAssignmentDependsOnTheSetsNotOnTheirOrder() {
        Random random = new Random(4);
        List<String> members = members(random, 5);
        List<String> keys = keys(random, 500);
        Ownership.Assignment first = Ownership.assign(keys, members);
        List<String> shuffledKeys = new ArrayList<>(keys);
        List<String> shuffledMembers = new ArrayList<>(members);
        Collections.shuffle(shuffledKeys, random);
        Collections.shuffle(shuffledMembers, random);
        assertThat(Ownership.assign(shuffledKeys, shuffledMembers)).isEqualTo(first);
    }

    @Test
    void pinnedOwnersSoEveryReleaseDividesAlike() {
        // Changing the hash would move every key on upgrade: these owners must stay as they are.
        List<String> members = List.of("fleet-a", "fleet-b", "fleet-c");
        List<String> keys = IntStream.range(0, 6).mapToObj(i -> "pong-" + i).toList();
        assertThat(Ownership.assign(keys, members).ownerByKey()).isEqualTo(Map.of(
                "pong-0", "fleet-b", "pong-1", "fleet-c", "pong-2", "fleet-b",
                "pong-3", "fleet-a", "pong-4", "fleet-c", "pong-5", "fleet-a"));
        assertThat(Ownership.hash("pong")).isEqualTo(Ownership.hash("pong")).isNotEqualTo(Ownership.hash("ping"));
    }

    @Test
    void withNoLiveMemberNoKeyHasAnOwner() {
        Ownership.Assignment assignment = Ownership.assign(List.of("pong"), List.of());
        assertThat(assignment.ownerOf("pong")).isEmpty();
        assertThat(assignment.keysByMember()).isEmpty();
    }

    @Test
    void aBlankNameIsRefusedNamingTheField() {
        assertThatThrownBy(() -> Ownership.assign(List.of("pong", " "), List.of("a")))
                .isInstanceOf(ValidationException.class).hasMessageContaining("keys");
        assertThatThrownBy(() -> Ownership.assign(List.of("pong"), java.util.Arrays.asList("a", null)))
                .isInstanceOf(ValidationException.class).hasMessageContaining("liveMembers");
    }
}
