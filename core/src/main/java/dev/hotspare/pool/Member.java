package dev.hotspare.pool;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;
import dev.hotspare.validation.ValidationException;

import java.time.Instant;
import java.util.Comparator;
import java.util.Optional;

/**
 * One member of a pool as observed: a cluster, a game room, an appliance node.
 *
 * @param id                  unique within the pool
 * @param createdAt           creation time; with {@code id} it defines the pool's one total order
 * @param templateVersion     the template version it was created from
 * @param phase               lifecycle phase
 * @param desiredPower        the power state last asked of it
 * @param observedPower       the power state it is in
 * @param observedPowerSince  when it entered {@code observedPower}
 * @param installedAt         when provisioning completed
 * @param lastBecameRunningAt when it last entered observed RUNNING
 * @param claimName           the claim holding it
 * @param claimedAt           when it was assigned to its claim; never changes once set
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
        Optional<Instant> claimedAt) {

    /** The pool's one total order: (createdAt, id). Used for power planning, assignment and deletion alike. */
    public static final Comparator<Member> TOTAL_ORDER =
            Comparator.comparing(Member::createdAt).thenComparing(Member::id);

    public Member {
        Problems problems = new Problems();
        problems.require(id != null && !id.isBlank(), "id", id == null ? Problem.MISSING : id, "required");
        problems.require(createdAt != null, "createdAt", Problem.MISSING, "required");
        problems.throwIfAny();
        templateVersion = templateVersion == null ? PoolSpec.DEFAULT_TEMPLATE_VERSION : templateVersion;
        phase = phase == null ? MemberPhase.PROVISIONING : phase;
        desiredPower = desiredPower == null ? DesiredPower.UNSET : desiredPower;
        observedPower = observedPower == null ? ObservedPower.UNKNOWN : observedPower;
        observedPowerSince = observedPowerSince == null ? createdAt : observedPowerSince;
        installedAt = installedAt == null ? Optional.empty() : installedAt;
        lastBecameRunningAt = lastBecameRunningAt == null ? Optional.empty() : lastBecameRunningAt;
        claimName = claimName == null ? Optional.empty() : claimName;
        claimedAt = claimedAt == null ? Optional.empty() : claimedAt;
        if (claimedAt.isPresent() && claimName.isEmpty()) {
            throw new ValidationException(Problem.of("claimedAt", claimedAt.get(), "set on member '" + id + "' without a claimName"));
        }
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
            @JsonProperty("claimedAt") Instant claimedAt) {
        return new Member(id, createdAt, templateVersion, phase, desiredPower, observedPower, observedPowerSince,
                Optional.ofNullable(installedAt), Optional.ofNullable(lastBecameRunningAt),
                Optional.ofNullable(claimName), Optional.ofNullable(claimedAt));
    }

    /** A member just created: provisioning, power as asked, nothing observed yet. */
    public static Member provisioning(String id, Instant createdAt, String templateVersion, DesiredPower power) {
        return new Member(id, createdAt, templateVersion, MemberPhase.PROVISIONING, power, ObservedPower.UNKNOWN,
                createdAt, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** Whether a claim holds this member. */
    @JsonIgnore
    public boolean isClaimed() {
        return claimName.isPresent();
    }

    public Member withPhase(MemberPhase newPhase) {
        return new Member(id, createdAt, templateVersion, newPhase, desiredPower, observedPower, observedPowerSince,
                installedAt, lastBecameRunningAt, claimName, claimedAt);
    }

    public Member withDesiredPower(DesiredPower power) {
        return new Member(id, createdAt, templateVersion, phase, power, observedPower, observedPowerSince,
                installedAt, lastBecameRunningAt, claimName, claimedAt);
    }

    /** Records a new observed power state; entering RUNNING also stamps {@code lastBecameRunningAt}. */
    public Member withObservedPower(ObservedPower power, Instant since) {
        if (power == observedPower) {
            return this;
        }
        Optional<Instant> running = power == ObservedPower.RUNNING ? Optional.of(since) : lastBecameRunningAt;
        return new Member(id, createdAt, templateVersion, phase, desiredPower, power, since,
                installedAt, running, claimName, claimedAt);
    }

    /** Marks provisioning complete at {@code at}. */
    public Member installed(Instant at) {
        return new Member(id, createdAt, templateVersion, MemberPhase.READY, desiredPower, observedPower,
                observedPowerSince, Optional.of(at), lastBecameRunningAt, claimName, claimedAt);
    }

    /**
     * Assigns this member to {@code claim} at {@code at} and asks for it to run. {@code claimedAt} is set once:
     * assigning an already-claimed member is refused.
     */
    public Member assignedTo(String claim, Instant at) {
        if (claimName.isPresent()) {
            throw new IllegalStateException("member '" + id + "' is already claimed by '" + claimName.get() + "'");
        }
        return new Member(id, createdAt, templateVersion, phase, DesiredPower.RUNNING, observedPower, observedPowerSince,
                installedAt, lastBecameRunningAt, Optional.of(claim), Optional.of(at));
    }
}
