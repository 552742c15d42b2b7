package dev.hotspare.pool;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;
import dev.hotspare.validation.ValidationException;
import java.util.Map;
import java.util.Locale;
import java.util.EnumMap;
import java.util.Collections;
import java.util.Collection;

import java.time.Instant;
import java.util.Comparator;
import java.util.Optional;

/**
 * One member of a pool as observed: a cluster, a game room, an appliance node.
 *
 * @param id                  unique within the pool
 * @param createdAt           creation time; with {@code id} it defines the pool's one total order
 * @param templateVersion     the template version it was created from, or {@link #UNKNOWN_TEMPLATE_VERSION}
 *                            (empty) when none was recorded
 * @param phase               lifecycle phase
 * @param desiredPower        the power state last asked of it
 * @param observedPower       the power state it is in
 * @param observedPowerSince  when it entered {@code observedPower}
 * @param installedAt         when provisioning completed
 * @param lastBecameRunningAt when it last entered observed RUNNING
 * @param claimName           the claim holding it
 * @param claimedAt           when it was assigned to its claim; never changes once set
 * @param releasedAt          when its claim was released: the explicit, durable mark that lets the pool delete
 *                            a claimed member (set once, never cleared)
 * @param orphanedSince       since when its claim has been missing from the claim store, as recorded by the pool
 *                            controller; cleared when the claim is seen again
 */
public record Member(
        String id,
        Instant createdAt,
        String templateVersion,
        MemberPhase phase,
        DesiredPower desiredPower,
        ObservedPower observedPower,
        Instant observedPowerSince,
        Optional<Instant> installedAt,
        Optional<Instant> lastBecameRunningAt,
        Optional<String> claimName,
        Optional<Instant> claimedAt,
        Optional<Instant> releasedAt,
        Optional<Instant> orphanedSince) {

    /** The pool's one total order: (createdAt, id). Used for power planning, assignment and deletion alike. */
    public static final Comparator<Member> TOTAL_ORDER =
            Comparator.comparing(Member::createdAt).thenComparing(Member::id);

    /**
     * The template version of a member that has none recorded (the empty string): <em>unknown</em>, never
     * current. Stale rotation replaces unknown members before stale ones.
     */
    public static final String UNKNOWN_TEMPLATE_VERSION = "";

    /**
     * Checks the id and creation time and fills in defaults: unknown template version, PROVISIONING, power
     * UNSET / UNKNOWN, {@code observedPowerSince = createdAt}, absent optionals.
     *
     * @param id unique within the pool
     * @param createdAt creation time; with {@code id} it defines the pool's one total order
     * @param templateVersion the template version it was created from, or {@link #UNKNOWN_TEMPLATE_VERSION}
     * @param phase lifecycle phase
     * @param desiredPower the power state last asked of it
     * @param observedPower the power state it is in
     * @param observedPowerSince when it entered {@code observedPower}
     * @param installedAt when provisioning completed
     * @param lastBecameRunningAt when it last entered observed RUNNING
     * @param claimName the claim holding it
     * @param claimedAt when it was assigned to its claim; never changes once set
     * @param releasedAt when its claim was released: the explicit, durable mark that lets the pool delete
     * @param orphanedSince since when its claim has been missing from the claim store, as recorded by the pool
     * @throws ValidationException when the id or creation time is missing, or a claim time is set without a claim
     */
    public Member {
        Problems problems = new Problems();
        problems.require(id != null && !id.isBlank(), "id", id == null ? Problem.MISSING : id, "required");
        problems.require(createdAt != null, "createdAt", Problem.MISSING, "required");
        problems.throwIfAny();
        templateVersion = templateVersion == null || templateVersion.isBlank() ? UNKNOWN_TEMPLATE_VERSION : templateVersion;
        phase = phase == null ? MemberPhase.PROVISIONING : phase;
        desiredPower = desiredPower == null ? DesiredPower.UNSET : desiredPower;
        observedPower = observedPower == null ? ObservedPower.UNKNOWN : observedPower;
        observedPowerSince = observedPowerSince == null ? createdAt : observedPowerSince;
        installedAt = installedAt == null ? Optional.empty() : installedAt;
        lastBecameRunningAt = lastBecameRunningAt == null ? Optional.empty() : lastBecameRunningAt;
        claimName = claimName == null ? Optional.empty() : claimName;
        claimedAt = claimedAt == null ? Optional.empty() : claimedAt;
        releasedAt = releasedAt == null ? Optional.empty() : releasedAt;
        // An orphan mark only means something while a claim is named; without one it is dropped, not refused,
        // so a stray mark in a backend can never make a member unreadable.
        orphanedSince = orphanedSince == null || claimName.isEmpty() ? Optional.empty() : orphanedSince;
        if (claimedAt.isPresent() && claimName.isEmpty()) {
            throw new ValidationException(Problem.of("claimedAt", claimedAt.get(), "set on member '" + id + "' without a claimName"));
        }
    }

    /**
     * A member with no release or orphan mark: the field list before those marks existed.
     *
     * @param id                  unique within the pool
     * @param createdAt           creation time
     * @param templateVersion     template version, null for unknown
     * @param phase               lifecycle phase
     * @param desiredPower        the power last asked of it
     * @param observedPower       the power it is in
     * @param observedPowerSince  when it entered {@code observedPower}
     * @param installedAt         when provisioning completed
     * @param lastBecameRunningAt when it last entered observed RUNNING
     * @param claimName           the claim holding it
     * @param claimedAt           when it was assigned to its claim
     */
    public Member(String id, Instant createdAt, String templateVersion, MemberPhase phase, DesiredPower desiredPower,
                  ObservedPower observedPower, Instant observedPowerSince, Optional<Instant> installedAt,
                  Optional<Instant> lastBecameRunningAt, Optional<String> claimName, Optional<Instant> claimedAt) {
        this(id, createdAt, templateVersion, phase, desiredPower, observedPower, observedPowerSince, installedAt,
                lastBecameRunningAt, claimName, claimedAt, Optional.empty(), Optional.empty());
    }

    @JsonCreator
    static Member fromJson(
            @JsonProperty("id") String id,
            @JsonProperty("createdAt") Instant createdAt,
            @JsonProperty("templateVersion") String templateVersion,
            @JsonProperty("phase") MemberPhase phase,
            @JsonProperty("desiredPower") DesiredPower desiredPower,
            @JsonProperty("observedPower") ObservedPower observedPower,
            @JsonProperty("observedPowerSince") Instant observedPowerSince,
            @JsonProperty("installedAt") Instant installedAt,
            @JsonProperty("lastBecameRunningAt") Instant lastBecameRunningAt,
            @JsonProperty("claimName") String claimName,
            @JsonProperty("claimedAt") Instant claimedAt,
            @JsonProperty("releasedAt") Instant releasedAt,
            @JsonProperty("orphanedSince") Instant orphanedSince) {
        return new Member(id, createdAt, templateVersion, phase, desiredPower, observedPower, observedPowerSince,
                Optional.ofNullable(installedAt), Optional.ofNullable(lastBecameRunningAt),
                Optional.ofNullable(claimName), Optional.ofNullable(claimedAt), Optional.ofNullable(releasedAt),
                Optional.ofNullable(orphanedSince));
    }

    /**
     * A member just created: provisioning, power as asked, nothing observed yet.
     *
     * @param id              its id
     * @param createdAt       creation time
     * @param templateVersion the template it is made from
     * @param power           the power asked of it at creation
     */
    public static Member provisioning(String id, Instant createdAt, String templateVersion, DesiredPower power) {
        return new Member(id, createdAt, templateVersion, MemberPhase.PROVISIONING, power, ObservedPower.UNKNOWN,
                createdAt, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    /**
     * Whether a claim holds this member (released or not).
     *
     * @return true when a claim name is recorded
     */
    @JsonIgnore
    public boolean isClaimed() {
        return claimName.isPresent();
    }

    /**
     * Whether its claim was released: it carries the release mark and only waits to be deleted.
     *
     * @return true when {@code releasedAt} is set
     */
    @JsonIgnore
    public boolean isReleased() {
        return releasedAt.isPresent();
    }

    /**
     * Whether a template version is recorded; a member without one is never current.
     *
     * @return false for {@link #UNKNOWN_TEMPLATE_VERSION}
     */
    @JsonIgnore
    public boolean isTemplateVersionKnown() {
        return !templateVersion.isEmpty();
    }

    /**
     * Whether this member serves {@code claim}: it names the claim, and either the claim record names this member
     * or, with no member recorded on the claim yet (an assignment cut short between its two writes), the claim
     * was made no later than this member was claimed. A claim made after that is a new claim reusing the name of
     * one this member served before.
     *
     * @param claim a live claim
     * @return whether this member and {@code claim} belong together
     */
    public boolean serves(Claim claim) {
        if (claimName.isEmpty() || !claimName.get().equals(claim.name())) {
            return false;
        }
        if (claim.assignedMember().isPresent()) {
            return claim.assignedMember().get().equals(id);
        }
        return claimedAt.isEmpty() || !claim.createdAt().isAfter(claimedAt.get());
    }

    /**
     * This member in another phase.
     *
     * @param newPhase the phase
     * @return a copy
     */
    public Member withPhase(MemberPhase newPhase) {
        return new Member(id, createdAt, templateVersion, newPhase, desiredPower, observedPower, observedPowerSince,
                installedAt, lastBecameRunningAt, claimName, claimedAt, releasedAt, orphanedSince);
    }

    /**
     * This member asked for another power state.
     *
     * @return a copy
     */
    public Member withDesiredPower(DesiredPower power) {
        return new Member(id, createdAt, templateVersion, phase, power, observedPower, observedPowerSince,
                installedAt, lastBecameRunningAt, claimName, claimedAt, releasedAt, orphanedSince);
    }

    /**
     * Records a new observed power state; entering RUNNING also stamps {@code lastBecameRunningAt}.
     *
     * @param since when it was entered
     * @return a copy, or this member when the power did not change
     */
    public Member withObservedPower(ObservedPower power, Instant since) {
        if (power == observedPower) {
            return this;
        }
        Optional<Instant> running = power == ObservedPower.RUNNING ? Optional.of(since) : lastBecameRunningAt;
        return new Member(id, createdAt, templateVersion, phase, desiredPower, power, since,
                installedAt, running, claimName, claimedAt, releasedAt, orphanedSince);
    }

    /**
     * Marks provisioning complete at {@code at}.
     *
     * @param at installation time
     * @return a READY copy
     */
    public Member installed(Instant at) {
        return new Member(id, createdAt, templateVersion, MemberPhase.READY, desiredPower, observedPower,
                observedPowerSince, Optional.of(at), lastBecameRunningAt, claimName, claimedAt, releasedAt, orphanedSince);
    }

    /**
     * Assigns this member to {@code claim} at {@code at} and asks for it to run. {@code claimedAt} is set once:
     * assigning an already-claimed member is refused.
     *
     * @param claim the claim name
     * @param at    the claim time
     * @return a claimed copy
     * @throws IllegalStateException if a claim already holds it
     */
    public Member assignedTo(String claim, Instant at) {
        if (claimName.isPresent()) {
            throw new IllegalStateException("member '" + id + "' is already claimed by '" + claimName.get() + "'");
        }
        return new Member(id, createdAt, templateVersion, phase, DesiredPower.RUNNING, observedPower, observedPowerSince,
                installedAt, lastBecameRunningAt, Optional.of(claim), Optional.of(at), releasedAt, Optional.empty());
    }

    /**
     * This member carrying the release mark. The first mark wins: marking a released member again keeps its time.
     *
     * @param at when the claim was released
     * @return a copy with {@code releasedAt} set, or this member when it was already set
     */
    public Member released(Instant at) {
        if (releasedAt.isPresent()) {
            return this;
        }
        return new Member(id, createdAt, templateVersion, phase, desiredPower, observedPower, observedPowerSince,
                installedAt, lastBecameRunningAt, claimName, claimedAt, Optional.of(at), orphanedSince);
    }

    /**
     * This member with its orphan mark set (since {@code since}) or cleared (empty).
     *
     * @param since since when its claim is missing, or empty to clear the mark
     * @return a copy
     */
    public Member withOrphanedSince(Optional<Instant> since) {
        return new Member(id, createdAt, templateVersion, phase, desiredPower, observedPower, observedPowerSince,
                installedAt, lastBecameRunningAt, claimName, claimedAt, releasedAt, since);
    }

    /** The power state the pool wants a member in ({@code spec.powerState} in Hive). */
    public enum DesiredPower {
        /** Never set (Hive creates members with power unset and lets the pool decide). */
        UNSET,
        RUNNING,
        HIBERNATING
    }

    /** The power state a member is actually observed in. */
    public enum ObservedPower {
        RUNNING,
        HIBERNATING,
        /** Waking up from hibernation; a member stuck here past {@code resumeTimeout} while unclaimed is broken. */
        RESUMING,
        HIBERNATING_IN_PROGRESS,
        /** Not known yet (e.g. still provisioning). */
        UNKNOWN
    }

    /** Lifecycle phase of a pool member. */
    public enum MemberPhase {
        /** Being installed / created; not usable yet. */
        PROVISIONING,
        /** Installed and usable (its power state says whether it is running). */
        READY,
        /** Installation or the member itself failed; the pool replaces it. */
        FAILED,
        /** Being deleted; counts against {@code maxSize} and {@code maxConcurrent} until gone. */
        DELETING
    }

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
            // Counted in an array: this runs after every pass over the whole pool, and boxing each step was garbage.
            MemberState[] states = values();
            int[] tally = new int[states.length];
            for (Member member : members) {
                tally[of(member).ordinal()]++;
            }
            Map<MemberState, Integer> counts = new EnumMap<>(MemberState.class);
            for (MemberState state : states) {
                counts.put(state, tally[state.ordinal()]);
            }
            return Collections.unmodifiableMap(counts);
        }

        /** Lower-case name, as used in metric tags. */
        public String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
