package dev.hotspare.pool;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import tools.jackson.databind.annotation.JsonDeserialize;
import dev.hotspare.pool.sizing.SizerSettings;
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
 * @param name              pool name, a DNS-1123 label (it becomes a Kubernetes label value, a key, a row)
 * @param size              target number of <em>unclaimed</em> members
 * @param runningCount      hot spares: how many unclaimed members to keep running. Not clamped to size:
 *                          a larger value simply means every unclaimed member runs
 * @param maxSize           cap on all members: unclaimed + claimed + broken + deleting
 * @param maxConcurrent     cap on unclaimed members provisioning + members deleting at once
 * @param hibernateAfter    claimed members are hibernated this long after they last became running
 * @param resumeTimeout     an unclaimed member the pool wants running that has been resuming for at least this
 *                          long is broken and replaced
 * @param claimLifetime     default and maximum claim lifetime
 * @param templateVersion   hash of whatever defines a member; members on another version are replaced gradually
 * @param orphanGracePeriod how long a claimed member whose claim is missing from the claim store must stay
 *                          missing before the member is deleted; zero deletes it on the first pass that misses it
 * @param deleted           the pool is being deleted: it takes no new claims and serves no pending one, deletes its
 *                          unclaimed members and keeps claimed ones until they are released
 * @param agingLimit        a pending claim that has waited this long is served before every younger claim,
 *                          whatever their classes: the bound on how long a higher class can hold a lower one back
 * @param autoSizing        when present, the pool sizes its hot spares itself ({@code runningCount: auto}): the
 *                          controller sets the running count each interval from the claims it has seen, the resume
 *                          and install times it measured and these settings; {@code runningCount} is then only the
 *                          count it starts from (within the settings' min..max). Empty: {@code runningCount} as given
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
        String templateVersion,
        Duration orphanGracePeriod,
        boolean deleted,
        Duration agingLimit,
        Optional<SizerSettings> autoSizing) {

    /** Template version used when none is given. */
    public static final String DEFAULT_TEMPLATE_VERSION = "v1";

    /** Orphan grace period used when none is given: 10 minutes. */
    public static final Duration DEFAULT_ORPHAN_GRACE_PERIOD = Duration.ofMinutes(10);

    /** Aging limit used when none is given: 10 minutes. */
    public static final Duration DEFAULT_AGING_LIMIT = Duration.ofMinutes(10);

    /**
     * Validates every field at once; absent optionals, lifetime, template version and grace period take their
     * defaults.
     *
     * @param name pool name, a DNS-1123 label (it becomes a Kubernetes label value, a key, a row)
     * @param size target number of <em>unclaimed</em> members
     * @param runningCount hot spares: how many unclaimed members to keep running. Not clamped to size:
     * @param maxSize cap on all members: unclaimed + claimed + broken + deleting
     * @param maxConcurrent cap on unclaimed members provisioning + members deleting at once
     * @param hibernateAfter claimed members are hibernated this long after they last became running
     * @param resumeTimeout an unclaimed member the pool wants running that has been resuming for at least this
     * @param claimLifetime default and maximum claim lifetime
     * @param templateVersion hash of whatever defines a member; members on another version are replaced gradually
     * @param orphanGracePeriod how long a claimed member whose claim is missing from the claim store must stay
     * @param deleted the pool is being deleted: it takes no new claims and serves no pending one, deletes its
     * @param agingLimit a pending claim that has waited this long is served before every younger claim
     * @param autoSizing when present, the running count is sized by the controller, starting from {@code runningCount}
     * @throws ValidationException with one problem per bad field
     */
    public PoolSpec {
        maxSize = maxSize == null ? OptionalInt.empty() : maxSize;
        maxConcurrent = maxConcurrent == null ? OptionalInt.empty() : maxConcurrent;
        hibernateAfter = hibernateAfter == null ? Optional.empty() : hibernateAfter;
        resumeTimeout = resumeTimeout == null ? Optional.empty() : resumeTimeout;
        claimLifetime = claimLifetime == null ? ClaimLifetime.UNLIMITED : claimLifetime;
        templateVersion = templateVersion == null ? DEFAULT_TEMPLATE_VERSION : templateVersion;
        orphanGracePeriod = orphanGracePeriod == null ? DEFAULT_ORPHAN_GRACE_PERIOD : orphanGracePeriod;
        agingLimit = agingLimit == null ? DEFAULT_AGING_LIMIT : agingLimit;
        autoSizing = autoSizing == null ? Optional.empty() : autoSizing;
        Problems problems = new Problems();
        Names.dns1123LabelProblem(name).ifPresent(why -> problems.add("name", name == null ? Problem.MISSING : name, why));
        problems.require(size >= 0, "size", size, "must be >= 0");
        problems.require(runningCount >= 0, "runningCount", runningCount, "must be >= 0");
        maxSize.ifPresent(m -> problems.require(m >= 0, "maxSize", m, "must be >= 0"));
        maxConcurrent.ifPresent(m -> problems.require(m >= 1, "maxConcurrent", m, "must be >= 1 (omit it for no limit)"));
        hibernateAfter.ifPresent(d -> problems.require(d.compareTo(Duration.ZERO) > 0, "hibernateAfter", d, "must be a positive duration"));
        resumeTimeout.ifPresent(d -> problems.require(d.compareTo(Duration.ZERO) > 0, "resumeTimeout", d, "must be a positive duration"));
        problems.require(!templateVersion.isBlank(), "templateVersion", templateVersion, "must not be blank");
        problems.require(!orphanGracePeriod.isNegative(), "orphanGracePeriod", orphanGracePeriod,
                "must not be negative (PT0S deletes an orphaned member at once)");
        problems.require(!agingLimit.isNegative(), "agingLimit", agingLimit,
                "must not be negative (PT0S serves every claim oldest first, ignoring classes)");
        int start = runningCount;
        autoSizing.ifPresent(auto -> problems.require(start < 0 || (start >= auto.min() && start <= auto.max()),
                "runningCount", start, "with autoSizing it is the count the pool starts from and must lie within "
                        + "autoSizing.min..max (" + auto.min() + ".." + auto.max() + ")"));
        problems.throwIfAny();
    }

    /**
     * A pool with a fixed running count: the field list before {@code autoSizing} existed.
     *
     * @param name              pool name
     * @param size              target number of unclaimed members
     * @param runningCount      hot spares
     * @param maxSize           cap on all members
     * @param maxConcurrent     cap on provisioning + deleting
     * @param hibernateAfter    hibernation delay of claimed members
     * @param resumeTimeout     resume time after which an unclaimed member is broken
     * @param claimLifetime     default and maximum claim lifetime
     * @param templateVersion   the members' template version
     * @param orphanGracePeriod how long a claimed member's claim must be missing before the member is deleted
     * @param deleted           whether the pool is being deleted
     * @param agingLimit        how long a pending claim waits before it goes ahead of every younger one
     */
    public PoolSpec(String name, int size, int runningCount, OptionalInt maxSize, OptionalInt maxConcurrent,
                    Optional<Duration> hibernateAfter, Optional<Duration> resumeTimeout, ClaimLifetime claimLifetime,
                    String templateVersion, Duration orphanGracePeriod, boolean deleted, Duration agingLimit) {
        this(name, size, runningCount, maxSize, maxConcurrent, hibernateAfter, resumeTimeout, claimLifetime,
                templateVersion, orphanGracePeriod, deleted, agingLimit, Optional.empty());
    }

    /**
     * A pool with the default aging limit: the field list before {@code agingLimit} existed.
     *
     * @param name              pool name
     * @param size              target number of unclaimed members
     * @param runningCount      hot spares
     * @param maxSize           cap on all members
     * @param maxConcurrent     cap on provisioning + deleting
     * @param hibernateAfter    hibernation delay of claimed members
     * @param resumeTimeout     resume time after which an unclaimed member is broken
     * @param claimLifetime     default and maximum claim lifetime
     * @param templateVersion   the members' template version
     * @param orphanGracePeriod how long a claimed member's claim must be missing before the member is deleted
     * @param deleted           whether the pool is being deleted
     */
    public PoolSpec(String name, int size, int runningCount, OptionalInt maxSize, OptionalInt maxConcurrent,
                    Optional<Duration> hibernateAfter, Optional<Duration> resumeTimeout, ClaimLifetime claimLifetime,
                    String templateVersion, Duration orphanGracePeriod, boolean deleted) {
        this(name, size, runningCount, maxSize, maxConcurrent, hibernateAfter, resumeTimeout, claimLifetime,
                templateVersion, orphanGracePeriod, deleted, DEFAULT_AGING_LIMIT);
    }

    /**
     * A live pool with the default orphan grace period: the field list before {@code orphanGracePeriod} and
     * {@code deleted} existed.
     *
     * @param name            pool name
     * @param size            target number of unclaimed members
     * @param runningCount    hot spares
     * @param maxSize         cap on all members
     * @param maxConcurrent   cap on provisioning + deleting
     * @param hibernateAfter  hibernation delay of claimed members
     * @param resumeTimeout   resume time after which an unclaimed member is broken
     * @param claimLifetime   default and maximum claim lifetime
     * @param templateVersion the members' template version
     */
    public PoolSpec(String name, int size, int runningCount, OptionalInt maxSize, OptionalInt maxConcurrent,
                    Optional<Duration> hibernateAfter, Optional<Duration> resumeTimeout, ClaimLifetime claimLifetime,
                    String templateVersion) {
        this(name, size, runningCount, maxSize, maxConcurrent, hibernateAfter, resumeTimeout, claimLifetime,
                templateVersion, DEFAULT_ORPHAN_GRACE_PERIOD, false, DEFAULT_AGING_LIMIT);
    }

    @JsonCreator
    static PoolSpec fromJson(
            @JsonProperty("name") String name,
            @JsonProperty("size") Integer size,
            @JsonProperty("runningCount") @JsonDeserialize(using = RunningCountDeserializer.class) Object runningCount,
            @JsonProperty("maxSize") Integer maxSize,
            @JsonProperty("maxConcurrent") Integer maxConcurrent,
            @JsonProperty("hibernateAfter") Duration hibernateAfter,
            @JsonProperty("resumeTimeout") Duration resumeTimeout,
            @JsonProperty("claimLifetime") ClaimLifetime claimLifetime,
            @JsonProperty("templateVersion") String templateVersion,
            @JsonProperty("orphanGracePeriod") Duration orphanGracePeriod,
            @JsonProperty("deleted") Boolean deleted,
            @JsonProperty("agingLimit") Duration agingLimit,
            @JsonProperty("autoSizing") AutoSizingDocument autoSizing) {
        Problems problems = new Problems();
        problems.require(name != null, "name", Problem.MISSING, "required");
        problems.require(size != null, "size", Problem.MISSING, "required");
        boolean auto = RunningCountDeserializer.AUTO.equals(runningCount);
        problems.require(!auto || autoSizing != null, "runningCount", RunningCountDeserializer.AUTO,
                "needs an autoSizing block with at least targetWait and max");
        Optional<SizerSettings> sizing = Optional.empty();
        if (autoSizing != null) {
            try {
                sizing = Optional.of(autoSizing.settings());
            } catch (ValidationException e) {
                e.problems().forEach(p -> problems.add("autoSizing." + p.path(), p.value(), p.message()));
            }
        }
        // With autoSizing and no number, the pool starts from the fewest hot spares allowed.
        int running = runningCount instanceof Integer n ? n : sizing.map(SizerSettings::min).orElse(0);
        PoolSpec spec = null;
        try {
            // Validate the rest even when required fields are missing, so every problem is reported at once.
            spec = new PoolSpec(name == null ? "placeholder" : name, size == null ? 0 : size,
                    running,
                    maxSize == null ? OptionalInt.empty() : OptionalInt.of(maxSize),
                    maxConcurrent == null ? OptionalInt.empty() : OptionalInt.of(maxConcurrent),
                    Optional.ofNullable(hibernateAfter), Optional.ofNullable(resumeTimeout), claimLifetime, templateVersion,
                    orphanGracePeriod, Boolean.TRUE.equals(deleted), agingLimit, sizing);
        } catch (ValidationException e) {
            problems.addAll(e.problems());
        }
        problems.throwIfAny();
        return spec;
    }

    /**
     * Starts a builder for a pool called {@code name}.
     *
     * @param name the pool name (validated by {@link Builder#build()})
     * @return a builder with every default set
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /**
     * A builder seeded with this spec's values.
     *
     * @return a builder that builds an equal spec until changed
     */
    public Builder toBuilder() {
        Builder b = new Builder(name).size(size).runningCount(runningCount).templateVersion(templateVersion)
                .claimLifetime(claimLifetime).orphanGracePeriod(orphanGracePeriod).deleted(deleted)
                .agingLimit(agingLimit);
        autoSizing.ifPresent(b::autoSizing);
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
        private Duration orphanGracePeriod = DEFAULT_ORPHAN_GRACE_PERIOD;
        private boolean deleted;
        private Duration agingLimit = DEFAULT_AGING_LIMIT;
        private Optional<SizerSettings> autoSizing = Optional.empty();

        private Builder(String name) {
            this.name = name;
        }

        /**
         * Target number of unclaimed members.
         *
         * @param size at least 0
         * @return this builder
         */
        public Builder size(int size) {
            this.size = size;
            return this;
        }

        /**
         * Unclaimed members kept running (hot spares).
         *
         * @param runningCount at least 0
         * @return this builder
         */
        public Builder runningCount(int runningCount) {
            this.runningCount = runningCount;
            return this;
        }

        /**
         * Cap on all members.
         *
         * @param maxSize at least 0
         * @return this builder
         */
        public Builder maxSize(int maxSize) {
            this.maxSize = OptionalInt.of(maxSize);
            return this;
        }

        /**
         * Cap on unclaimed members provisioning plus members deleting.
         *
         * @param maxConcurrent at least 1
         * @return this builder
         */
        public Builder maxConcurrent(int maxConcurrent) {
            this.maxConcurrent = OptionalInt.of(maxConcurrent);
            return this;
        }

        /**
         * Hibernate claimed members this long after they last became running or were claimed.
         *
         * @param hibernateAfter a positive duration
         * @return this builder
         */
        public Builder hibernateAfter(Duration hibernateAfter) {
            this.hibernateAfter = Optional.of(Objects.requireNonNull(hibernateAfter, "hibernateAfter"));
            return this;
        }

        /**
         * An unclaimed member the pool wants running that has been resuming this long is broken.
         *
         * @param resumeTimeout a positive duration
         * @return this builder
         */
        public Builder resumeTimeout(Duration resumeTimeout) {
            this.resumeTimeout = Optional.of(Objects.requireNonNull(resumeTimeout, "resumeTimeout"));
            return this;
        }

        /**
         * Default and maximum claim lifetime.
         *
         * @param claimLifetime the lifetimes
         * @return this builder
         */
        public Builder claimLifetime(ClaimLifetime claimLifetime) {
            this.claimLifetime = Objects.requireNonNull(claimLifetime, "claimLifetime");
            return this;
        }

        /**
         * The template version new members are made from.
         *
         * @param templateVersion not blank
         * @return this builder
         */
        public Builder templateVersion(String templateVersion) {
            this.templateVersion = Objects.requireNonNull(templateVersion, "templateVersion");
            return this;
        }

        /**
         * How long a claimed member's claim must be missing from the claim store before the member is deleted
         * (default 10 minutes).
         *
         * @param orphanGracePeriod zero or more; zero deletes an orphaned member on the first pass that misses its claim
         * @return this builder
         */
        public Builder orphanGracePeriod(Duration orphanGracePeriod) {
            this.orphanGracePeriod = Objects.requireNonNull(orphanGracePeriod, "orphanGracePeriod");
            return this;
        }

        /**
         * Whether the pool is being deleted (default false).
         *
         * @param deleted true to wind the pool down
         * @return this builder
         */
        public Builder deleted(boolean deleted) {
            this.deleted = deleted;
            return this;
        }

        /**
         * How long a pending claim waits before it is served ahead of every younger claim, whatever their classes
         * (default 10 minutes).
         *
         * @param agingLimit zero or more; zero ignores classes (every claim is served oldest first)
         * @return this builder
         */
        public Builder agingLimit(Duration agingLimit) {
            this.agingLimit = Objects.requireNonNull(agingLimit, "agingLimit");
            return this;
        }

        /**
         * Lets the controller size the hot spares itself ({@code runningCount: auto}); {@link #runningCount(int)}
         * is then the count it starts from, within the settings' min..max.
         *
         * @param autoSizing the target, bounds and pace (with {@code apply = false}: shadow mode, decisions only
         *                   reported)
         * @return this builder
         */
        public Builder autoSizing(SizerSettings autoSizing) {
            this.autoSizing = Optional.of(Objects.requireNonNull(autoSizing, "autoSizing"));
            return this;
        }

        /**
         * Back to a fixed running count (no auto-sizing).
         *
         * @return this builder
         */
        public Builder fixedRunningCount() {
            this.autoSizing = Optional.empty();
            return this;
        }

        /**
         * Validates every field at once.
         *
         * @return the spec
         * @throws ValidationException with one problem per bad field
         */
        public PoolSpec build() {
            return new PoolSpec(name, size, runningCount, maxSize, maxConcurrent, hibernateAfter, resumeTimeout,
                    claimLifetime, templateVersion, orphanGracePeriod, deleted, agingLimit, autoSizing);
        }
    }

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
}
