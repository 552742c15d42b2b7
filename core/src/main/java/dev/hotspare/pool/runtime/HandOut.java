package dev.hotspare.pool.runtime;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolPlanner;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The pool's hand-out index: the members {@link PoolPlanner#plan} would assign (ready, running, unclaimed, named by
 * no claim record, not released, not deleting) in the planner's member order, and the claims it would serve
 * (pending, held by no member), so a claim can be given the member the planner would give it without a pass.
 * {@link #next} pairs them exactly as the planner's assignment step does: pending claims in
 * {@link PoolPlanner#serviceOrder}, a claim whose deadline has come left for the pass to expire, the first claims
 * with the oldest members pairwise.
 *
 * <p>Kept up to date as members and claims change ({@link #memberChanged}, {@link #memberRemoved},
 * {@link #claimPending}, {@link #claimGone}); each pass brings its claims up to the pass's read ({@link #syncClaims},
 * O(live claims)), and a full {@link #rebuild} from a read runs only now and then, for safety (issue 22: pass cost).
 * Not thread-safe: the controller guards it with its hand-out lock. Each update costs O(log n); only {@link #rebuild}
 * walks the pool.
 */
final class HandOut {

    /** One claim and the member it gets. */
    record Pair(Claim claim, Member member) {
    }

    private final TreeSet<Member> ready = new TreeSet<>(Member.TOTAL_ORDER);
    private final Map<String, Member> readyById = new HashMap<>();
    /** Pending claims by name: submitted, no member recorded on the claim. */
    private final Map<String, Claim> pending = new HashMap<>();
    /** claim name → the members naming it that are not released (they may hold a pending claim of that name). */
    private final Map<String, Map<String, Member>> naming = new HashMap<>();
    /** member id → the claim whose record names it: such a member is held by the claim store. */
    private final Map<String, String> namedBy = new HashMap<>();
    /** claim name → the member its record names. */
    private final Map<String, String> assignedTo = new HashMap<>();
    /** member id → the claim name it is kept under in {@link #naming}. */
    private final Map<String, String> lastClaimOf = new HashMap<>();
    /** member id → its latest record (so a member freed by a claim record that went away can come back). */
    private final Map<String, Member> lastKnown = new HashMap<>();

    /**
     * Starts over from one consistent read: {@code members} and {@code live} claims as a pass read them.
     *
     * @param members every member
     * @param live    every live claim
     */
    void rebuild(Collection<Member> members, Collection<Claim> live) {
        ready.clear();
        readyById.clear();
        pending.clear();
        naming.clear();
        namedBy.clear();
        assignedTo.clear();
        lastClaimOf.clear();
        lastKnown.clear();
        for (Claim c : live) {
            claimChanged(c);
        }
        for (Member m : members) {
            memberChanged(m);
        }
    }

    /**
     * Brings the claims of the index up to one pass's read of the live claims, changing only what differs (issue 22,
     * pass cost: O(live claims), no walk of the members, which the index follows by their events). Claims in
     * {@code newer} — changed by the fast path or ended after the read began — keep what the index knows of them.
     *
     * @param live  every live claim, as the pass read them
     * @param newer names of claims whose record in the index is newer than the read
     */
    void syncClaims(Collection<Claim> live, Set<String> newer) {
        Set<String> names = new java.util.HashSet<>(Math.max(16, live.size() * 2));
        for (Claim c : live) {
            names.add(c.name());
            if (newer.contains(c.name())) {
                continue;
            }
            if (c.assignedMember().isPresent()) {
                String member = c.assignedMember().get();
                if (!member.equals(assignedTo.get(c.name())) || pending.containsKey(c.name())
                        || !c.name().equals(namedBy.get(member)) || readyById.containsKey(member)) {
                    claimChanged(c);
                }
            } else if (!c.equals(pending.get(c.name())) || assignedTo.containsKey(c.name())) {
                claimChanged(c);
            }
        }
        List<String> gone = new ArrayList<>();
        for (String name : pending.keySet()) {
            if (!names.contains(name) && !newer.contains(name)) {
                gone.add(name);
            }
        }
        for (String name : assignedTo.keySet()) {
            if (!names.contains(name) && !newer.contains(name)) {
                gone.add(name);
            }
        }
        for (String name : gone) {
            String member = assignedTo.get(name);
            claimGone(name);
            if (member != null) {
                // Held by no claim record now: back in the index if its own record allows (as a rebuild would).
                Member m = lastKnown.get(member);
                if (m != null && !namedBy.containsKey(member) && assignable(m)) {
                    ready.add(m);
                    readyById.put(m.id(), m);
                }
            }
        }
    }

    /**
     * What the index answers with, as comparable values: the ready members in order, the pending claims, and the
     * members naming each claim (what decides whether a pending claim is held). Claim records of served claims are
     * left out: they only keep their members out of the ready list, which is compared.
     */
    List<Object> snapshot() {
        Map<String, Set<String>> namingIds = new java.util.TreeMap<>();
        naming.forEach((claim, of) -> namingIds.put(claim, new java.util.TreeSet<>(of.keySet())));
        return List.of(ready.stream().map(Member::id).toList(), new java.util.TreeMap<>(pending), namingIds);
    }

    /** A member was added or changed; {@code m} is its record now. */
    void memberChanged(Member m) {
        memberRemoved(m.id());
        lastKnown.put(m.id(), m);
        if (m.claimName().isPresent() && !m.isReleased()) {
            naming.computeIfAbsent(m.claimName().get(), k -> new HashMap<>(2)).put(m.id(), m);
            lastClaimOf.put(m.id(), m.claimName().get());
        }
        if (assignable(m) && !namedBy.containsKey(m.id())) {
            ready.add(m);
            readyById.put(m.id(), m);
        }
    }

    /** A member is gone. */
    void memberRemoved(String id) {
        lastKnown.remove(id);
        Member before = readyById.remove(id);
        if (before != null) {
            ready.remove(before);
        }
        String claim = lastClaimOf.remove(id);
        if (claim != null) {
            Map<String, Member> of = naming.get(claim);
            if (of != null) {
                of.remove(id);
                if (of.isEmpty()) {
                    naming.remove(claim);
                }
            }
        }
    }

    /** A live claim was submitted or changed; {@code c} is its record now. */
    void claimChanged(Claim c) {
        claimGone(c.name());
        if (c.assignedMember().isPresent()) {
            String member = c.assignedMember().get();
            assignedTo.put(c.name(), member);
            namedBy.put(member, c.name());
            Member m = readyById.remove(member);
            if (m != null) {
                ready.remove(m);
            }
        } else {
            pending.put(c.name(), c);
        }
    }

    /** A new claim waits. */
    void claimPending(Claim c) {
        claimChanged(c);
    }

    /** A claim ended (released, expired, withdrawn). */
    void claimGone(String name) {
        pending.remove(name);
        String member = assignedTo.remove(name);
        if (member != null && name.equals(namedBy.get(member))) {
            namedBy.remove(member);
        }
    }

    /** Whether a pending claim is waiting (one the planner would serve before or alongside a new one). */
    boolean anyPending() {
        return !pending.isEmpty();
    }

    /** Number of members ready to hand out. */
    int readyCount() {
        return ready.size();
    }

    /**
     * The claims to serve now and their members, as the planner's assignment step would pair them on this state:
     * pending claims held by no member and not past their deadline, in service order, with the oldest ready
     * members. Changes nothing; the caller applies what it writes with {@link #handedOut}.
     *
     * @param agingLimit the pool's aging limit
     * @param now        the decision time
     */
    List<Pair> next(Duration agingLimit, Instant now) {
        if (ready.isEmpty() || pending.isEmpty()) {
            return List.of();
        }
        List<Claim> waiting = new ArrayList<>(pending.size());
        for (Claim c : pending.values()) {
            if (!c.isExpiredAt(now) && !heldByMember(c)) {
                waiting.add(c);
            }
        }
        if (waiting.isEmpty()) {
            return List.of();
        }
        if (waiting.size() > 1) {
            waiting.sort(PoolPlanner.serviceOrder(agingLimit, now));
        }
        List<Pair> out = new ArrayList<>(Math.min(waiting.size(), ready.size()));
        Iterator<Member> members = ready.iterator();
        for (int i = 0; i < waiting.size() && members.hasNext(); i++) {
            out.add(new Pair(waiting.get(i), members.next()));
        }
        return out;
    }

    /** {@code claim} now holds {@code member} (both records written). */
    void handedOut(Claim claim, Member member, Instant claimedAt) {
        claimChanged(claim.assigned(member.id(), claimedAt));
        memberChanged(member.assignedTo(claim.name(), claimedAt));
    }

    /** {@code member} cannot be handed out (another writer took it): out of the index until a newer record says otherwise. */
    void drop(String memberId) {
        Member m = readyById.remove(memberId);
        if (m != null) {
            ready.remove(m);
        }
    }

    /** The planner's rule for a member it may assign: see {@code PoolPlanner}'s classify and assignment steps. */
    static boolean assignable(Member m) {
        return m.phase() == MemberPhase.READY && m.observedPower() == ObservedPower.RUNNING && !m.isClaimed()
                && !m.isReleased();
    }

    /** The planner's rule for a pending claim a member already holds (a deleting member, or one that serves it). */
    private boolean heldByMember(Claim c) {
        Map<String, Member> of = naming.get(c.name());
        if (of == null) {
            return false;
        }
        for (Member m : of.values()) {
            if (m.phase() == MemberPhase.DELETING || m.serves(c)) {
                return true;
            }
        }
        return false;
    }

    /** The assignments of {@code plan} as pairs of names, for comparing with {@link #next}. */
    static List<String> names(List<Pair> pairs) {
        List<String> out = new ArrayList<>(pairs.size());
        pairs.forEach(p -> out.add(p.claim().name() + "->" + p.member().id()));
        return out;
    }

    static List<String> names(PoolPlan plan) {
        List<String> out = new ArrayList<>(plan.assignments().size());
        plan.assignments().forEach(a -> out.add(a.claimName() + "->" + a.memberId()));
        return out;
    }

    /** Whether {@code id} is in the index now. */
    boolean isReady(String id) {
        return readyById.containsKey(id);
    }

    /** The members in the index that are in {@code ids}: taken out (a pass acts on them). */
    void dropAll(Set<String> ids) {
        for (String id : ids) {
            drop(id);
        }
    }
}
