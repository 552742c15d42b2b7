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
 * A request for one member of a pool. Claims are served oldest first. A claim records the three moments of its
 * life: when it was made ({@code createdAt}), when a member was recorded for it ({@code assignedAt}) and when
 * that member was handed to the claimer ready to use ({@code readyAt}).
 *
 * @param name           unique within the pool
 * @param createdAt      when it was made; with {@code name} it defines the claims' total order
 * @param lifetime       how long it wants its member (capped by the pool's maximum)
 * @param assignedMember the member it was given
 * @param assignedAt     when it was given one
 * @param readyAt        when its member was confirmed on both records and handed over; never before
 *                       {@code assignedAt}
 */
public record Claim(String name, Instant createdAt, Optional<Duration> lifetime, Optional<String> assignedMember,
                    Optional<Instant> assignedAt, Optional<Instant> readyAt) {

    /** Claims are served in (createdAt, name) order. */
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
                          @JsonProperty("assignedAt") Instant assignedAt, @JsonProperty("readyAt") Instant readyAt) {
        return new Claim(name, createdAt, Optional.ofNullable(lifetime), Optional.ofNullable(assignedMember),
                Optional.ofNullable(assignedAt), Optional.ofNullable(readyAt));
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
        return new Claim(name, createdAt, lifetime, Optional.of(member), Optional.of(at), Optional.empty());
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
        return new Claim(name, createdAt, lifetime, assignedMember, assignedAt, Optional.of(at));
    }
}
