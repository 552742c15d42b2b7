package dev.hotspare.pool;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;
import dev.hotspare.validation.ValidationException;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What a pool should look like. Immutable; build one with {@link #builder(String)} or read it from YAML/JSON
 * with {@link dev.hotspare.json.Documents#read}.
 *
 * @param name            pool name, a DNS-1123 label (it becomes a Kubernetes label value, a key, a row)
 * @param size            target number of <em>unclaimed</em> members
 * @param runningCount    hot spares: how many unclaimed members to keep running. Not clamped to size:
 *                        a larger value simply means every unclaimed member runs
 * @param maxSize         cap on all members: unclaimed + claimed + broken + deleting
 * @param maxConcurrent   cap on members provisioning + deleting at once
 * @param hibernateAfter  claimed members are hibernated this long after they last became running
 * @param resumeTimeout   an unclaimed member resuming for longer than this is broken and replaced
 * @param claimLifetime   default and maximum claim lifetime
 * @param templateVersion hash of whatever defines a member; members on another version are replaced gradually
 */
public record PoolSpec(
        String name,
        int size,
        int runningCount,
        OptionalInt maxSize,
        OptionalInt maxConcurrent,
        Optional<Duration> hibernateAfter,
        Optional<Duration> resumeTimeout,
        ClaimLifetime claimLifetime,
        String templateVersion) {

    /** Template version used when none is given. */
    public static final String DEFAULT_TEMPLATE_VERSION = "v1";

    public PoolSpec {
        maxSize = maxSize == null ? OptionalInt.empty() : maxSize;
        maxConcurrent = maxConcurrent == null ? OptionalInt.empty() : maxConcurrent;
        hibernateAfter = hibernateAfter == null ? Optional.empty() : hibernateAfter;
        resumeTimeout = resumeTimeout == null ? Optional.empty() : resumeTimeout;
        claimLifetime = claimLifetime == null ? ClaimLifetime.UNLIMITED : claimLifetime;
        templateVersion = templateVersion == null ? DEFAULT_TEMPLATE_VERSION : templateVersion;
        Problems problems = new Problems();
        Names.dns1123LabelProblem(name).ifPresent(why -> problems.add("name", name == null ? Problem.MISSING : name, why));
        problems.require(size >= 0, "size", size, "must be >= 0");
        problems.require(runningCount >= 0, "runningCount", runningCount, "must be >= 0");
        maxSize.ifPresent(m -> problems.require(m >= 0, "maxSize", m, "must be >= 0"));
        maxConcurrent.ifPresent(m -> problems.require(m >= 1, "maxConcurrent", m, "must be >= 1 (omit it for no limit)"));
        hibernateAfter.ifPresent(d -> problems.require(d.compareTo(Duration.ZERO) > 0, "hibernateAfter", d, "must be a positive duration"));
        resumeTimeout.ifPresent(d -> problems.require(d.compareTo(Duration.ZERO) > 0, "resumeTimeout", d, "must be a positive duration"));
        problems.require(!templateVersion.isBlank(), "templateVersion", templateVersion, "must not be blank");
        problems.throwIfAny();
    }

    @JsonCreator
    static PoolSpec fromJson(
            @JsonProperty("name") String name,
            @JsonProperty("size") Integer size,
            @JsonProperty("runningCount") Integer runningCount,
            @JsonProperty("maxSize") Integer maxSize,
            @JsonProperty("maxConcurrent") Integer maxConcurrent,
            @JsonProperty("hibernateAfter") Duration hibernateAfter,
            @JsonProperty("resumeTimeout") Duration resumeTimeout,
            @JsonProperty("claimLifetime") ClaimLifetime claimLifetime,
            @JsonProperty("templateVersion") String templateVersion) {
        Problems problems = new Problems();
        problems.require(name != null, "name", Problem.MISSING, "required");
        problems.require(size != null, "size", Problem.MISSING, "required");
        PoolSpec spec = null;
        try {
            // Validate the rest even when required fields are missing, so every problem is reported at once.
            spec = new PoolSpec(name == null ? "placeholder" : name, size == null ? 0 : size,
                    runningCount == null ? 0 : runningCount,
                    maxSize == null ? OptionalInt.empty() : OptionalInt.of(maxSize),
                    maxConcurrent == null ? OptionalInt.empty() : OptionalInt.of(maxConcurrent),
                    Optional.ofNullable(hibernateAfter), Optional.ofNullable(resumeTimeout), claimLifetime, templateVersion);
        } catch (ValidationException e) {
            problems.addAll(e.problems());
        }
        problems.throwIfAny();
        return spec;
    }

    /** Starts a builder for a pool called {@code name}. */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** A builder seeded with this spec's values. */
    public Builder toBuilder() {
        Builder b = new Builder(name).size(size).runningCount(runningCount).templateVersion(templateVersion)
                .claimLifetime(claimLifetime);
        maxSize.ifPresent(b::maxSize);
        maxConcurrent.ifPresent(b::maxConcurrent);
        hibernateAfter.ifPresent(b::hibernateAfter);
        resumeTimeout.ifPresent(b::resumeTimeout);
        return b;
    }

    /** Fluent builder for {@link PoolSpec}; {@link #build()} validates everything at once. */
    public static final class Builder {
        private final String name;
        private int size;
        private int runningCount;
        private OptionalInt maxSize = OptionalInt.empty();
        private OptionalInt maxConcurrent = OptionalInt.empty();
        private Optional<Duration> hibernateAfter = Optional.empty();
        private Optional<Duration> resumeTimeout = Optional.empty();
        private ClaimLifetime claimLifetime = ClaimLifetime.UNLIMITED;
        private String templateVersion = DEFAULT_TEMPLATE_VERSION;

        private Builder(String name) {
            this.name = name;
        }

        public Builder size(int size) {
            this.size = size;
            return this;
        }

        public Builder runningCount(int runningCount) {
            this.runningCount = runningCount;
            return this;
        }

        public Builder maxSize(int maxSize) {
            this.maxSize = OptionalInt.of(maxSize);
            return this;
        }

        public Builder maxConcurrent(int maxConcurrent) {
            this.maxConcurrent = OptionalInt.of(maxConcurrent);
            return this;
        }

        public Builder hibernateAfter(Duration hibernateAfter) {
            this.hibernateAfter = Optional.of(Objects.requireNonNull(hibernateAfter, "hibernateAfter"));
            return this;
        }

        public Builder resumeTimeout(Duration resumeTimeout) {
            this.resumeTimeout = Optional.of(Objects.requireNonNull(resumeTimeout, "resumeTimeout"));
            return this;
        }

        public Builder claimLifetime(ClaimLifetime claimLifetime) {
            this.claimLifetime = Objects.requireNonNull(claimLifetime, "claimLifetime");
            return this;
        }

        public Builder templateVersion(String templateVersion) {
            this.templateVersion = Objects.requireNonNull(templateVersion, "templateVersion");
            return this;
        }

        public PoolSpec build() {
            return new PoolSpec(name, size, runningCount, maxSize, maxConcurrent, hibernateAfter, resumeTimeout,
                    claimLifetime, templateVersion);
        }
    }
}
