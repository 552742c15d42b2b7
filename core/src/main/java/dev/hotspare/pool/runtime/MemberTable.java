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
 * <p>Slots of members no longer listed are swept out only once they are as many as the listed ones (amortised O(1) per
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

    private final Map<String, Slot> slots = new HashMap<>();
    private long reads;
    private int listed;
    /** Positions (in the current read) of the members naming a claim and not carrying the release mark. */
    private final List<Integer> naming = new ArrayList<>();

    /**
     * Takes one read: returns the members with one record per id (the first of duplicates, each duplicate that
     * differs reported to {@code duplicate}), in the order listed.
     */
    List<Member> read(List<Member> members, BiConsumer<Member, Member> duplicate) {
        long read = ++reads;
        naming.clear();
        List<Member> out = new ArrayList<>(members.size());
        for (Member m : members) {
            Slot slot = slots.get(m.id());
            if (slot == null) {
                slot = new Slot();
                slots.put(m.id(), slot);
            } else if (slot.read == read) {
                if (!slot.member.equals(m)) {
                    duplicate.accept(slot.member, m);
                }
                continue;
            } else {
                slot.previous = slot.read == read - 1 ? slot.member : null;
            }
            slot.member = m;
            slot.index = out.size();
            slot.read = read;
            if (m.claimName().isPresent() && !m.isReleased()) {
                naming.add(out.size());
            }
            out.add(m);
        }
        listed = out.size();
        if (slots.size() > 2 * listed + 64) {
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
