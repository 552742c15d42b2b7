package dev.hotspare.pool;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.hotspare.validation.Problems;

import java.time.Duration;
import java.util.Optional;

/**
 * How long a claim may hold its member. A claim's effective lifetime is
 * {@code min(claim's own lifetime, or defaultLifetime when it has none; maximum)}; with neither set a claim
 * lives until released.
 *
 * @param defaultLifetime lifetime of claims that do not ask for one
 * @param maximum         upper bound on any claim's lifetime
 */
public record ClaimLifetime(@JsonProperty("default") Optional<Duration> defaultLifetime, Optional<Duration> maximum) {

    /** No default and no maximum: claims live until released. */
    public static final ClaimLifetime UNLIMITED = new ClaimLifetime(Optional.empty(), Optional.empty());

    public ClaimLifetime {
        defaultLifetime = defaultLifetime == null ? Optional.empty() : defaultLifetime;
        maximum = maximum == null ? Optional.empty() : maximum;
        Problems problems = new Problems();
        defaultLifetime.ifPresent(d -> problems.require(d.compareTo(Duration.ZERO) > 0, "default", d, "must be a positive duration"));
        maximum.ifPresent(m -> problems.require(m.compareTo(Duration.ZERO) > 0, "maximum", m, "must be a positive duration"));
        problems.throwIfAny();
    }

    @JsonCreator
    static ClaimLifetime fromJson(@JsonProperty("default") Duration defaultLifetime, @JsonProperty("maximum") Duration maximum) {
        return new ClaimLifetime(Optional.ofNullable(defaultLifetime), Optional.ofNullable(maximum));
    }

    /** The effective lifetime of a claim that asked for {@code requested}, or empty when unlimited. */
    public Optional<Duration> effective(Optional<Duration> requested) {
        Optional<Duration> wanted = requested.isPresent() ? requested : defaultLifetime;
        if (wanted.isEmpty()) {
            return maximum;
        }
        return Optional.of(maximum.filter(m -> m.compareTo(wanted.get()) < 0).orElse(wanted.get()));
    }
}
