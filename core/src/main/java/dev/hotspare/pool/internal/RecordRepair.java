package dev.hotspare.pool.internal;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberPhase;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Record repair, decided: which member and claim records disagree and the writes that bring them back together,
 * before a pass plans. Pure (no I/O, no clock; {@code now} is an input); the pool controller writes each repair and
 * folds the ones that took into its read with {@link #applied}; when one fails it decides again
 * without it.
 *
 * <p>Assignment writes the member first and the claim second: a crash in between leaves a member naming a claim the
 * store calls pending — {@link OnClaim} records it on the claim, so the claim is not served twice, also when that
 * member is being deleted (as Hive records the deleting cluster on its claim; the claim then shows
 * {@code MemberDeleting} and is never served again). A claim record naming a member that names no claim (a
 * store-side assignment) — {@link OnMember} records it on the member. An assigned claim both records agree on but not
 * marked ready — {@link Ready} marks it. Released members and unclaimed deleting members are left alone, and a
 * member another claim record already names is never recorded on a second claim (the plan settles that conflict).
 */
public final class RecordRepair {

    private RecordRepair() {
    }

    /** One repair write. */
    public sealed interface Repair permits OnClaim, OnMember, Ready {
    }

    /**
     * Record member {@code memberId} on pending claim {@code claimName}, assigned at {@code assignedAt} (the member's
     * claim time, or the pass's time when it has none).
     */
    public record OnClaim(String claimName, String memberId, Instant assignedAt) implements Repair {
    }

    /** Record claim {@code claimName} on member {@code memberId}, claimed at the claim record's assignment time. */
    public record OnMember(String memberId, String claimName, Instant claimedAt) implements Repair {
    }

    /** Mark assigned claim {@code claimName} ready at {@code readyAt} (never before its assignment). */
    public record Ready(String claimName, Instant readyAt) implements Repair {
    }

    /**
     * The repairs {@code members} and {@code claims} need at {@code now}, in the order to write them: the links
     * between the records first (member order), then the ready marks of the records as they are once those links
     * are written.
     *
     * @param members the pool's members, one per id
     * @param claims  the pool's live claims, one per name
     * @param failed  repairs already tried on these records that did not take: not asked for again, and nothing that
     *                needs them is asked for either (the next pass retries them)
     * @return the repairs; empty when the records agree
     */
    public static List<Repair> decide(List<Member> members, List<Claim> claims, Instant now, Set<Repair> failed) {
        Objects.requireNonNull(now, "now");
        Map<String, Claim> byName = new HashMap<>();
        Map<String, String> claimOfMember = new HashMap<>();
        for (Claim c : claims) {
            byName.put(c.name(), c);
            c.assignedMember().ifPresent(m -> claimOfMember.put(m, c.name()));
        }
        List<Repair> out = new ArrayList<>();
        // The links, with each one asked for counted as written, so the ready marks below see the records after them.
        Map<String, Member> linkedMembers = new HashMap<>();
        for (Member m : members) {
            if (m.isReleased() || (m.phase() == MemberPhase.DELETING && m.claimName().isEmpty())) {
                continue;
            }
            if (m.claimName().isPresent()) {
                Claim claim = byName.get(m.claimName().get());
                if (claim != null && !claim.isAssigned() && m.serves(claim) && !claimOfMember.containsKey(m.id())) {
                    OnClaim repair = new OnClaim(claim.name(), m.id(), m.claimedAt().orElse(now));
                    if (!failed.contains(repair)) {
                        out.add(repair);
                        byName.put(claim.name(), claim.assigned(m.id(), repair.assignedAt()));
                        claimOfMember.put(m.id(), claim.name());
                    }
                }
            } else if (claimOfMember.containsKey(m.id())) {
                Claim claim = byName.get(claimOfMember.get(m.id()));
                OnMember repair = new OnMember(m.id(), claim.name(), claim.assignedAt().orElseThrow());
                if (!failed.contains(repair)) {
                    out.add(repair);
                    linkedMembers.put(m.id(), m.assignedTo(claim.name(), repair.claimedAt()));
                }
            }
        }
        for (Member listed : members) {
            Member m = linkedMembers.getOrDefault(listed.id(), listed);
            if (m.claimName().isEmpty() || m.phase() == MemberPhase.DELETING || m.isReleased()) {
                continue;
            }
            Claim claim = byName.get(m.claimName().get());
            if (claim != null && claim.isAssigned() && !claim.isReady() && m.serves(claim)) {
                Ready repair = new Ready(claim.name(), latest(now, claim.assignedAt().get()));
                if (!failed.contains(repair)) {
                    out.add(repair);
                }
            }
        }
        return out;
    }

    /**
     * The records after {@code repairs} were written, in order: each member or claim a repair names changed as the
     * write changes it; a repair naming a record that is not there, or no longer in the state it repairs, changes
     * nothing.
     */
    public static PoolState applied(PoolState records, List<Repair> repairs) {
        if (repairs.isEmpty()) {
            return records;
        }
        Map<String, List<Repair>> byClaim = new HashMap<>();
        Map<String, OnMember> byMember = new HashMap<>();
        for (Repair repair : repairs) {
            if (repair instanceof OnClaim on) {
                byClaim.computeIfAbsent(on.claimName(), k -> new ArrayList<>()).add(on);
            } else if (repair instanceof Ready ready) {
                byClaim.computeIfAbsent(ready.claimName(), k -> new ArrayList<>()).add(ready);
            } else if (repair instanceof OnMember on) {
                byMember.put(on.memberId(), on);
            }
        }
        List<Member> members = new ArrayList<>(records.members().size());
        for (Member m : records.members()) {
            OnMember on = byMember.get(m.id());
            members.add(on != null && m.claimName().isEmpty() ? m.assignedTo(on.claimName(), on.claimedAt()) : m);
        }
        List<Claim> claims = new ArrayList<>(records.claims().size());
        for (Claim listed : records.claims()) {
            Claim c = listed;
            for (Repair repair : byClaim.getOrDefault(c.name(), List.of())) {
                if (repair instanceof OnClaim on && !c.isAssigned()) {
                    c = c.assigned(on.memberId(), on.assignedAt());
                } else if (repair instanceof Ready ready && c.isAssigned()) {
                    c = c.ready(ready.readyAt());
                }
            }
            claims.add(c);
        }
        return new PoolState(members, claims);
    }

    /**
     * The records once every repair {@link #decide} asks for is written (none fails): what a pass plans on when the
     * stores take every write.
     */
    public static PoolState repaired(PoolState records, Instant now) {
        return applied(records, decide(records.members(), records.claims(), now, Set.of()));
    }

    private static Instant latest(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
