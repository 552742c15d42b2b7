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
 * A request for one member of a pool. Claims are served oldest first.
 *
 * @param name           unique within the pool
 * @param createdAt      when it was made; with {@code name} it defines the claims' total order
 * @param lifetime       how long it wants its member (capped by the pool's maximum)
 * @param assignedMember the member it was given
 * @param assignedAt     when it was given one
 */
public record Claim(String name, Instant createdAt, Optional<Duration> lifetime, Optional<String> assignedMember,
                    Optional<Instant> assignedAt) {

    /** Claims are served in (createdAt, name) order. */
    public static final Comparator<Claim> TOTAL_ORDER = Comparator.comparing(Claim::createdAt).thenComparing(Claim::name);

    public Claim {
        Problems problems = new Problems();
        problems.require(name != null && !name.isBlank(), "name", name == null ? Problem.MISSING : name, "required");
        problems.require(createdAt != null, "createdAt", Problem.MISSING, "required");
        lifetime = lifetime == null ? Optional.empty() : lifetime;
        assignedMember = assignedMember == null ? Optional.empty() : assignedMember;
        assignedAt = assignedAt == null ? Optional.empty() : assignedAt;
        lifetime.ifPresent(l -> problems.require(l.compareTo(Duration.ZERO) > 0, "lifetime", l, "must be a positive duration"));
        problems.require(assignedMember.isPresent() == assignedAt.isPresent(), "assignedAt",
                assignedAt.map(Object::toString).orElse(Problem.MISSING), "assignedMember and assignedAt go together");
        problems.throwIfAny();
    }

    @JsonCreator
    static Claim fromJson(@JsonProperty("name") String name, @JsonProperty("createdAt") Instant createdAt,
                          @JsonProperty("lifetime") Duration lifetime, @JsonProperty("assignedMember") String assignedMember,
                          @JsonProperty("assignedAt") Instant assignedAt) {
        return new Claim(name, createdAt, Optional.ofNullable(lifetime), Optional.ofNullable(assignedMember),
                Optional.ofNullable(assignedAt));
    }

    /** A new, unassigned claim. */
    public static Claim pending(String name, Instant createdAt, Optional<Duration> lifetime) {
        return new Claim(name, createdAt, lifetime, Optional.empty(), Optional.empty());
    }

    /** Whether it has been given a member. */
    @JsonIgnore
    public boolean isAssigned() {
        return assignedMember.isPresent();
    }

    /** This claim given {@code member} at {@code at}. */
    public Claim assigned(String member, Instant at) {
        return new Claim(name, createdAt, lifetime, Optional.of(member), Optional.of(at));
    }
}
