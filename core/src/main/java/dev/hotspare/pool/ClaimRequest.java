package dev.hotspare.pool;

import dev.hotspare.pool.Claim.ClaimClass;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything a claimer can ask for: a name, and optionally a lifetime, a priority class and a deadline. Start
 * with {@link #of(String)} and add what you need with the {@code with...} methods.
 *
 * @param name       a DNS-1123 label, unique among the pool's live claims
 * @param lifetime   how long it wants its member (capped by the pool's maximum); empty for the pool's default
 * @param claimClass its priority class ({@link ClaimClass#DEFAULT} when it names none)
 * @param deadline   the instant by which it must be served; at that instant a still pending claim expires
 */
public record ClaimRequest(String name, Optional<Duration> lifetime, ClaimClass claimClass, Optional<Instant> deadline) {

    /**
     * Validates the request.
     *
     * @param name       a DNS-1123 label
     * @param lifetime   positive when present
     * @param claimClass its class
     * @param deadline   when it must be served by
     * @throws dev.hotspare.validation.ValidationException naming every bad field
     */
    public ClaimRequest {
        lifetime = lifetime == null ? Optional.empty() : lifetime;
        claimClass = claimClass == null ? ClaimClass.DEFAULT : claimClass;
        deadline = deadline == null ? Optional.empty() : deadline;
        Problems problems = new Problems();
        Names.dns1123LabelProblem(name).ifPresent(why -> problems.add("name", name == null ? Problem.MISSING : name, why));
        lifetime.ifPresent(l -> problems.require(l.compareTo(Duration.ZERO) > 0, "lifetime", l, "must be a positive duration"));
        problems.throwIfAny();
    }

    /**
     * A request for claim {@code name} in the default class, with the pool's default lifetime and no deadline.
     *
     * @param name a DNS-1123 label
     */
    public static ClaimRequest of(String name) {
        return new ClaimRequest(name, Optional.empty(), ClaimClass.DEFAULT, Optional.empty());
    }

    /**
     * This request asking for {@code lifetime}.
     *
     * @param lifetime a positive duration
     * @return a copy
     */
    public ClaimRequest withLifetime(Duration lifetime) {
        return new ClaimRequest(name, Optional.of(Objects.requireNonNull(lifetime, "lifetime")), claimClass, deadline);
    }

    /**
     * This request in class {@code claimClass}.
     *
     * @param claimClass the class
     * @return a copy
     */
    public ClaimRequest withClass(ClaimClass claimClass) {
        return new ClaimRequest(name, lifetime, Objects.requireNonNull(claimClass, "claimClass"), deadline);
    }

    /**
     * This request with a deadline.
     *
     * @param deadline the instant by which it must be served
     * @return a copy
     */
    public ClaimRequest withDeadline(Instant deadline) {
        return new ClaimRequest(name, lifetime, claimClass, Optional.of(Objects.requireNonNull(deadline, "deadline")));
    }

    /**
     * The pending claim this request makes at {@code now}.
     *
     * @param now its creation time
     */
    public Claim toClaim(Instant now) {
        return Claim.pending(name, now, lifetime).withClass(claimClass).withDeadline(deadline);
    }
}
