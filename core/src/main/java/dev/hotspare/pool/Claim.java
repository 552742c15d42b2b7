package dev.hotspare.pool;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Optional;

/**
 * A request for one member of a pool. Claims of one class are served oldest first. A claim records the three moments of its
 * life: when it was made ({@code createdAt}), when a member was recorded for it ({@code assignedAt}) and when
 * that member was handed to the claimer ready to use ({@code readyAt}). A claim may carry a priority class and a
 * deadline; the order claims are served in is {@link PoolPlanner#serviceOrder}.
 *
 * @param name           unique within the pool
 * @param createdAt      when it was made; with {@code name} it defines the claims' total order
 * @param lifetime       how long it wants its member (capped by the pool's maximum)
 * @param assignedMember the member it was given
 * @param assignedAt     when it was given one
 * @param readyAt        when its member was confirmed on both records and handed over; never before
 *                       {@code assignedAt}
 * @param claimClass     its priority class ({@link ClaimClass#DEFAULT} when it names none)
 * @param deadline       when it must be served by; a claim still pending at that instant expires
 * @param outcome        how it was served, once assigned (one of the served kinds); empty while pending, and for
 *                       claims assigned without the controller judging how
 */
public record Claim(String name, Instant createdAt, Optional<Duration> lifetime, Optional<String> assignedMember,
                    Optional<Instant> assignedAt, Optional<Instant> readyAt, ClaimClass claimClass,
                    Optional<Instant> deadline, Optional<ClaimOutcome> outcome) {

    /** (createdAt, name): the order of a single-class pool, and the order within one class. */
    public static final Comparator<Claim> TOTAL_ORDER = Comparator.comparing(Claim::createdAt).thenComparing(Claim::name);

    /**
     * Validates the claim: name and creation time required, positive lifetime, member and assignment time
     * together, ready only once assigned and not before.
     *
     * @param name unique within the pool
     * @param createdAt when it was made; with {@code name} it defines the claims' total order
     * @param lifetime how long it wants its member (capped by the pool's maximum)
     * @param assignedMember the member it was given
     * @param assignedAt when it was given one
     * @param readyAt when its member was confirmed on both records and handed over; never before
     * @param claimClass its priority class
     * @param deadline when it must be served by
     * @param outcome how it was served, once assigned
     * @throws dev.hotspare.validation.ValidationException with one problem per bad field
     */
    public Claim {
        Problems problems = new Problems();
        problems.require(name != null && !name.isBlank(), "name", name == null ? Problem.MISSING : name, "required");
        problems.require(createdAt != null, "createdAt", Problem.MISSING, "required");
        lifetime = lifetime == null ? Optional.empty() : lifetime;
        assignedMember = assignedMember == null ? Optional.empty() : assignedMember;
        assignedAt = assignedAt == null ? Optional.empty() : assignedAt;
        readyAt = readyAt == null ? Optional.empty() : readyAt;
        claimClass = claimClass == null ? ClaimClass.DEFAULT : claimClass;
        deadline = deadline == null ? Optional.empty() : deadline;
        outcome = outcome == null ? Optional.empty() : outcome;
        boolean assigned = assignedMember.isPresent();
        outcome.ifPresent(o -> problems.require(o.isServed() && assigned, "outcome", o,
                "a live claim's outcome is a served kind, recorded with its assignment"));
        lifetime.ifPresent(l -> problems.require(l.compareTo(Duration.ZERO) > 0, "lifetime", l, "must be a positive duration"));
        problems.require(assignedMember.isPresent() == assignedAt.isPresent(), "assignedAt",
                assignedAt.map(Object::toString).orElse(Problem.MISSING), "assignedMember and assignedAt go together");
        if (readyAt.isPresent()) {
            Instant ready = readyAt.get();
            problems.require(assignedAt.isPresent() && !ready.isBefore(assignedAt.get()), "readyAt", ready,
                    "needs an assignment no later than it");
        }
        problems.throwIfAny();
    }

    /**
     * A default-class claim without deadline or outcome: the field list before claim classes existed.
     *
     * @param name           unique within the pool
     * @param createdAt      when it was made
     * @param lifetime       how long it wants its member
     * @param assignedMember the member it was given
     * @param assignedAt     when it was given one
     * @param readyAt        when its member was handed over
     */
    public Claim(String name, Instant createdAt, Optional<Duration> lifetime, Optional<String> assignedMember,
                 Optional<Instant> assignedAt, Optional<Instant> readyAt) {
        this(name, createdAt, lifetime, assignedMember, assignedAt, readyAt, ClaimClass.DEFAULT, Optional.empty(),
                Optional.empty());
    }

    /**
     * A claim without a ready time: the field list before {@code readyAt} existed.
     *
     * @param name           unique within the pool
     * @param createdAt      when it was made
     * @param lifetime       how long it wants its member
     * @param assignedMember the member it was given
     * @param assignedAt     when it was given one
     */
    public Claim(String name, Instant createdAt, Optional<Duration> lifetime, Optional<String> assignedMember,
                 Optional<Instant> assignedAt) {
        this(name, createdAt, lifetime, assignedMember, assignedAt, Optional.empty());
    }

    @JsonCreator
    static Claim fromJson(@JsonProperty("name") String name, @JsonProperty("createdAt") Instant createdAt,
                          @JsonProperty("lifetime") Duration lifetime, @JsonProperty("assignedMember") String assignedMember,
                          @JsonProperty("assignedAt") Instant assignedAt, @JsonProperty("readyAt") Instant readyAt,
                          @JsonProperty("claimClass") ClaimClass claimClass, @JsonProperty("deadline") Instant deadline,
                          @JsonProperty("outcome") ClaimOutcome outcome) {
        return new Claim(name, createdAt, Optional.ofNullable(lifetime), Optional.ofNullable(assignedMember),
                Optional.ofNullable(assignedAt), Optional.ofNullable(readyAt), claimClass, Optional.ofNullable(deadline),
                Optional.ofNullable(outcome));
    }

    /**
     * A new, unassigned claim.
     *
     * @param name      its name
     * @param createdAt when it was made
     * @param lifetime  the lifetime it asks for
     * @return the pending claim
     */
    public static Claim pending(String name, Instant createdAt, Optional<Duration> lifetime) {
        return new Claim(name, createdAt, lifetime, Optional.empty(), Optional.empty(), Optional.empty());
    }

    /**
     * A new, unassigned claim as {@code request} asks.
     *
     * @param request   what the claimer asked for
     * @param createdAt when it was made
     * @return the pending claim
     */
    public static Claim pending(ClaimRequest request, Instant createdAt) {
        return request.toClaim(createdAt);
    }

    /**
     * Whether it has been given a member.
     *
     * @return true once a member is recorded
     */
    @JsonIgnore
    public boolean isAssigned() {
        return assignedMember.isPresent();
    }

    /**
     * Whether its member was handed over.
     *
     * @return true once {@code readyAt} is set
     */
    @JsonIgnore
    public boolean isReady() {
        return readyAt.isPresent();
    }

    /**
     * This claim given {@code member} at {@code at}, not yet ready.
     *
     * @param member the member id
     * @param at     the assignment time
     * @return an assigned copy
     */
    public Claim assigned(String member, Instant at) {
        return new Claim(name, createdAt, lifetime, Optional.of(member), Optional.of(at), Optional.empty(), claimClass,
                deadline, Optional.empty());
    }

    /**
     * This claim given {@code member} at {@code at}, served as {@code outcome}, not yet ready.
     *
     * @param member  the member id
     * @param at      the assignment time
     * @param outcome how it was served; empty when not judged
     * @return an assigned copy
     */
    public Claim assigned(String member, Instant at, Optional<ClaimOutcome> outcome) {
        return new Claim(name, createdAt, lifetime, Optional.of(member), Optional.of(at), Optional.empty(), claimClass,
                deadline, outcome);
    }

    /**
     * This claim in class {@code claimClass}.
     *
     * @param claimClass the class
     * @return a copy
     */
    public Claim withClass(ClaimClass claimClass) {
        return new Claim(name, createdAt, lifetime, assignedMember, assignedAt, readyAt, claimClass, deadline, outcome);
    }

    /**
     * This claim with {@code deadline}.
     *
     * @param deadline when it must be served by; empty for none
     * @return a copy
     */
    public Claim withDeadline(Optional<Instant> deadline) {
        return new Claim(name, createdAt, lifetime, assignedMember, assignedAt, readyAt, claimClass, deadline, outcome);
    }

    /**
     * Whether it is still pending at {@code now} with its deadline reached: it can no longer be served.
     *
     * @param now the decision time
     * @return true when pending and {@code now >= deadline}
     */
    public boolean isExpiredAt(Instant now) {
        return !isAssigned() && deadline.isPresent() && !now.isBefore(deadline.get());
    }

    /**
     * This claim with its member handed over at {@code at}. The first ready time wins.
     *
     * @param at when the member was handed over
     * @return a ready copy, or this claim when it already was
     * @throws dev.hotspare.validation.ValidationException if it is not assigned, or {@code at} is before its assignment
     */
    public Claim ready(Instant at) {
        if (readyAt.isPresent()) {
            return this;
        }
        return new Claim(name, createdAt, lifetime, assignedMember, assignedAt, Optional.of(at), claimClass, deadline, outcome);
    }
}
