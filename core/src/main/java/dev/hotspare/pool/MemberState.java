package dev.hotspare.pool;

import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * The state a pool member is counted in by {@code PoolListener.membersPerState}: one bucket per member, from
 * its phase, its claim and its observed power.
 */
public enum MemberState {
    /** Being created / installed. */
    INSTALLING,
    /** Unclaimed and running: a hot spare. */
    RUNNING,
    /** Unclaimed and waking up from hibernation. */
    RESUMING,
    /** Unclaimed and on its way into hibernation. */
    HIBERNATING,
    /** Unclaimed and hibernated: a warm spare. */
    HIBERNATED,
    /** Installed, unclaimed, power not observed yet. */
    UNKNOWN,
    /** Held by a claim, whatever its power. */
    CLAIMED,
    /** Failed; the pool replaces it. */
    FAILED,
    /** Being deleted. */
    DELETING;

    /** The bucket {@code member} is counted in. */
    public static MemberState of(Member member) {
        if (member.phase() == MemberPhase.DELETING) {
            return DELETING;
        }
        if (member.phase() == MemberPhase.FAILED) {
            return FAILED;
        }
        if (member.phase() == MemberPhase.PROVISIONING) {
            return INSTALLING;
        }
        if (member.isClaimed()) {
            return CLAIMED;
        }
        return switch (member.observedPower()) {
            case RUNNING -> RUNNING;
            case RESUMING -> RESUMING;
            case HIBERNATING_IN_PROGRESS -> HIBERNATING;
            case HIBERNATING -> HIBERNATED;
            case UNKNOWN -> UNKNOWN;
        };
    }

    /**
     * Counts {@code members} per state. Every state is present (zero when no member is in it), so a gauge
     * bound to the map drops to zero instead of keeping its last value. Unmodifiable, in declaration order.
     */
    public static Map<MemberState, Integer> count(Collection<Member> members) {
        Map<MemberState, Integer> counts = new EnumMap<>(MemberState.class);
        for (MemberState state : values()) {
            counts.put(state, 0);
        }
        for (Member member : members) {
            counts.merge(of(member), 1, Integer::sum);
        }
        return Collections.unmodifiableMap(counts);
    }

    /** Lower-case name, as used in metric tags. */
    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
