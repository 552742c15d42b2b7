package dev.hotspare.pool.runtime;

import dev.hotspare.pool.Member;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The pool's members as the passes read them, kept from one pass to the next (issue 22, pass cost): one slot per
 * member id, updated in place by each read, so a pass does not build a new id → member map of the whole pool (or
 * three of them) per read. A read costs one lookup per listed member and allocates only for members new since the
 * last read; it answers, for the current read, the member of an id and its position, the member the previous read
 * listed under that id (what {@link TransitionTimes} compares), and the members that name a claim (what the record
 * repair looks at), so nothing else walks the pool.
 *
 * <p>The read comes back in the planner's member order, kept between reads, so sorting it again costs the planner one
 * pass over a single run. Slots of members no longer listed are swept out only once they are as many as the listed ones (amortised O(1) per
 * removed member). Not thread-safe: the controller uses it inside a pass, under the pass lock.
 */
final class MemberTable {

    private static final class Slot {
        Member member;
        /** The record the read before {@link #read} listed, or null when that read did not list it. */
        Member previous;
        int index;
        long read;
    }

    /** Called every {@link YieldToClaims#READS_BETWEEN} members a read looks at. */
    private final Runnable yieldPoint;
    private final Map<String, Slot> slots = new HashMap<>();
    private long reads;
    /** The current read's slots in the planner's member order ({@link Member#TOTAL_ORDER}). */
    private List<Slot> order = new ArrayList<>();
    /** Positions (in the current read) of the members naming a claim and not carrying the release mark. */
    private final List<Integer> naming = new ArrayList<>();
    /** The members of the current read that the previous read did not list, or listed with another record. */
    private final List<Member> changed = new ArrayList<>();

    MemberTable(Runnable yieldPoint) {
        this.yieldPoint = yieldPoint;
    }

    /** A table whose reads never yield (tests). */
    MemberTable() {
        this(() -> { });
    }

    /**
     * Takes one read: returns the members with one record per id (the first of duplicates, each duplicate that
     * differs reported to {@code duplicate}) in the planner's member order, {@link Member#TOTAL_ORDER}. That order is
     * kept from the previous read (a member's creation time and id never change) and only members new since then
     * are sorted and merged in, so the planner's own sort finds one run: O(n) instead of O(n log n) per pass.
     */
    List<Member> read(List<Member> members, BiConsumer<Member, Member> duplicate) {
        long read = ++reads;
        naming.clear();
        changed.clear();
        List<Slot> fresh = new ArrayList<>();
        int looked = 0;
        for (Member m : members) {
            if (++looked % YieldToClaims.READS_BETWEEN == 0) {
                yieldPoint.run();
            }
            Slot slot = slots.get(m.id());
            if (slot == null) {
                slot = new Slot();
                slots.put(m.id(), slot);
                slot.previous = null;
                fresh.add(slot);
            } else if (slot.read == read) {
                if (!slot.member.equals(m)) {
                    duplicate.accept(slot.member, m);
                }
                continue;
            } else if (slot.read == read - 1) {
                slot.previous = slot.member;
            } else {
                slot.previous = null;
                fresh.add(slot);
            }
            slot.member = m;
            slot.read = read;
        }
        fresh.sort((a, b) -> Member.TOTAL_ORDER.compare(a.member, b.member));
        List<Slot> merged = new ArrayList<>(order.size() + fresh.size());
        int f = 0;
        for (Slot slot : order) {
            if (slot.read != read || slot.previous == null) {
                continue; // gone, or listed again after a gap: then it is among the fresh ones
            }
            while (f < fresh.size() && Member.TOTAL_ORDER.compare(fresh.get(f).member, slot.member) < 0) {
                merged.add(fresh.get(f++));
            }
            merged.add(slot);
        }
        while (f < fresh.size()) {
            merged.add(fresh.get(f++));
        }
        order = merged;
        List<Member> out = new ArrayList<>(merged.size());
        for (Slot slot : merged) {
            Member m = slot.member;
            slot.index = out.size();
            if (m.claimName().isPresent() && !m.isReleased()) {
                naming.add(out.size());
            }
            if (slot.previous != m && (slot.previous == null || !slot.previous.equals(m))) {
                changed.add(m);
            }
            out.add(m);
        }
        if (slots.size() > 2 * out.size() + 64) {
            sweep(read);
        }
        return out;
    }

    /** The member of {@code id} in the current read, or null. */
    Member get(String id) {
        Slot slot = slots.get(id);
        return slot != null && slot.read == reads ? slot.member : null;
    }

    /** The position of {@code id} in the current read's list, or -1. */
    int indexOf(String id) {
        Slot slot = slots.get(id);
        return slot != null && slot.read == reads ? slot.index : -1;
    }

    /** The record the read before the current one listed for {@code id}, or null (new, or not listed then). */
    Member previous(String id) {
        Slot slot = slots.get(id);
        return slot != null && slot.read == reads ? slot.previous : null;
    }

    /** A record of the current read was replaced (a repair wrote it): later lookups see the new one. */
    void replaced(Member m) {
        Slot slot = slots.get(m.id());
        if (slot != null && slot.read == reads) {
            slot.member = m;
        }
    }

    /** The members of the current read that the previous read did not list or listed with another record. */
    List<Member> changed() {
        return changed;
    }

    /** Positions in the current read of the members that named a claim and carried no release mark when read. */
    List<Integer> naming() {
        return naming;
    }

    /** Slots kept, current and stale (for tests). */
    int slots() {
        return slots.size();
    }

    private void sweep(long read) {
        for (Iterator<Slot> it = slots.values().iterator(); it.hasNext(); ) {
            if (it.next().read != read) {
                it.remove();
            }
        }
    }
}
