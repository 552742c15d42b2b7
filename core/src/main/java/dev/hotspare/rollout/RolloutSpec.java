package dev.hotspare.rollout;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import tools.jackson.databind.JsonNode;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;
import dev.hotspare.validation.ValidationException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a staged rollout should do. Validated on construction; every problem is reported at once with its
 * field path ({@code timeouts.device}, {@code deviceOrder[1]}, …). Read from JSON/YAML with
 * {@link dev.hotspare.json.Documents#read}; absent optional fields take the defaults below.
 *
 * <p>While a rollout runs, only {@link #SAFE_FIELDS} may change ({@link RolloutEvent.SpecChanged}); see
 * {@link #unsafeChanges}.
 *
 * @param name                rollout name, a DNS-1123 label; part of every op id
 * @param targetVersion       the version every target should end on
 * @param upgradeControlPlane upgrade nodes and then the services op first; default true (false = devices only)
 * @param deviceOrder         device label groups, in upgrade order; a device joins the group of the first selector it
 *                            matches. Kubernetes label selectors: the string form ({@code "tier in (canary)"}) or
 *                            {@code {matchLabels, matchExpressions}}
 * @param unmatchedDevices    devices matching no selector: upgraded last (default) or skipped
 * @param strategy            device pacing inside a group; default LINEAR
 * @param maxParallel         device ops at once in a group (LINEAR pool size, EXPONENTIAL batch cap): a count, or a
 *                            percentage of the group ({@code "25%"}, rounded down, at least 1); default 2
 * @param prechecks           check node health, then run a precheck op on every node, then on the devices group by
 *                            group, before any upgrade; default false
 * @param timeouts            per-op timeouts
 * @param maxFailures         device failures tolerated while continuing (precheck and upgrade failures alike); one
 *                            more halts the rollout (no new work, ends FAILED); default 0
 * @param window              maintenance window; empty = upgrade right away, no deadline
 * @param retry               device retry policy; default no retry
 * @param allowPartialWindow  create the rollout even if its worst case does not fit the window (the rest is left
 *                            for another window: DEADLINE_EXCEEDED lists it); default false
 * @param suspend             the rollout is suspended (work stops at the next batch boundary); default false
 */
public record RolloutSpec(String name, String targetVersion, boolean upgradeControlPlane,
                          List<LabelSelector> deviceOrder, UnmatchedDevices unmatchedDevices,
                          DeviceStrategy strategy, MaxParallel maxParallel, boolean prechecks, OpTimeouts timeouts,
                          int maxFailures, Optional<MaintenanceWindow> window, RetryPolicy retry,
                          boolean allowPartialWindow, boolean suspend) {

    /** Default {@link #maxParallel}. */
    public static final int DEFAULT_MAX_PARALLEL = 2;
    /** Upper bound on {@link #maxParallel}, {@link RetryPolicy#attempts()} and selector count: a guard against typos. */
    public static final int LIMIT = 10_000;
    /** The fields a running rollout's spec may change, as {@link #unsafeChanges} names them. */
    public static final List<String> SAFE_FIELDS = List.of("maxParallel", "window.end", "suspend", "maxFailures");

    /**
     * * Validates every field.      * @throws ValidationException with every problem found, each naming its field
     *
     * @param name                rollout name, a DNS-1123 label; part of every op id
     * @param targetVersion       the version every target should end on
     * @param upgradeControlPlane upgrade nodes and then the services op first; default true (false = devices only)
     * @param deviceOrder         device label groups, in upgrade order; a device joins the group of the first selector it matches. Kubernetes label selectors: the string form ({@code "tier in (canary)"}) or {@code {matchLabels, matchExpressions}}
     * @param unmatchedDevices    devices matching no selector: upgraded last (default) or skipped
     * @param strategy            device pacing inside a group; default LINEAR
     * @param maxParallel         device ops at once in a group (LINEAR pool size, EXPONENTIAL batch cap): a count, or a percentage of the group ({@code "25%"}, rounded down, at least 1); default 2
     * @param prechecks           check node health, then run a precheck op on every node, then on the devices group by group, before any upgrade; default false
     * @param timeouts            per-op timeouts
     * @param maxFailures         device failures tolerated while continuing (precheck and upgrade failures alike); one more halts the rollout (no new work, ends FAILED); default 0
     * @param window              maintenance window; empty = upgrade right away, no deadline
     * @param retry               device retry policy; default no retry
     * @param allowPartialWindow  create the rollout even if its worst case does not fit the window (the rest is left for another window: DEADLINE_EXCEEDED lists it); default false
     * @param suspend             the rollout is suspended (work stops at the next batch boundary); default false
     */
    public RolloutSpec {
        deviceOrder = deviceOrder == null ? List.of() : List.copyOf(deviceOrder);
        window = window == null ? Optional.empty() : window;
        Problems problems = new Problems();
        Names.dns1123LabelProblem(name).ifPresent(why -> problems.add("name", name == null ? Problem.MISSING : name, why));
        Labels.checkVersion(problems, "targetVersion", targetVersion);
        for (int i = 0; i < deviceOrder.size(); i++) {
            LabelSelector selector = deviceOrder.get(i);
            String path = "deviceOrder[" + i + "]";
            if (selector == null || selector.isEmpty()) {
                problems.add(path, "", "a selector needs at least one requirement; an empty one would match every device");
                continue;
            }
            int earlier = deviceOrder.subList(0, i).indexOf(selector);
            if (earlier >= 0) {
                problems.add(path, selector.describe(), "duplicate of deviceOrder[" + earlier + "]; this group would always be empty");
            }
        }
        if (deviceOrder.size() > LIMIT) {
            problems.add("deviceOrder", deviceOrder.size() + " selectors", "at most " + LIMIT + " selectors");
        }
        problems.require(unmatchedDevices != null, "unmatchedDevices", Problem.MISSING, "one of UPGRADE_LAST, SKIP");
        problems.require(strategy != null, "strategy", Problem.MISSING, "one of LINEAR, EXPONENTIAL");
        problems.require(maxParallel != null, "maxParallel", Problem.MISSING, "a count such as 4 or a percentage such as \"25%\"");
        if (timeouts == null) {
            problems.add("timeouts", Problem.MISSING, "required");
        } else {
            requirePositive(problems, "timeouts.node", timeouts.node());
            requirePositive(problems, "timeouts.services", timeouts.services());
            timeouts.device().ifPresent(device -> requirePositive(problems, "timeouts.device", device));
        }
        problems.require(maxFailures >= 0, "maxFailures", maxFailures, "must be 0 or more");
        window.ifPresent(w -> {
            problems.require(w.start() != null, "window.start", Problem.MISSING, "required field is missing");
            w.end().ifPresent(end -> {
                if (w.start() != null && !end.isAfter(w.start())) {
                    problems.add("window.end", end, "must be after window.start " + w.start());
                }
            });
        });
        if (retry == null) {
            problems.add("retry", Problem.MISSING, "required");
        } else {
            problems.require(retry.attempts() >= 1 && retry.attempts() <= 100, "retry.attempts", retry.attempts(),
                    "must be between 1 (no retry) and 100");
            if (retry.delay() == null || retry.delay().isNegative()) {
                problems.add("retry.delay", retry.delay() == null ? Problem.MISSING : retry.delay(), "must be zero or positive");
            }
        }
        problems.throwIfAny();
    }

    private static void requirePositive(Problems problems, String path, Duration value) {
        if (value == null || value.isZero() || value.isNegative()) {
            problems.add(path, value == null ? Problem.MISSING : value, "must be a positive duration such as PT15M");
        }
    }

    /**
     * The device op timeout for a group of {@code groupSize} devices: the explicit one, or the one scaled
     * with the group's parallelism ({@link OpTimeouts#scaledDevice}).
     *
     * @param groupSize devices in the group
     */
    public Duration deviceTimeout(int groupSize) {
        return timeouts.device(maxParallel.forGroup(groupSize));
    }

    /**
     * The changes from {@code running} to {@code next} a running rollout does not accept: every field but
     * {@link #SAFE_FIELDS}. Each problem names the field, the new value and the current one.
     *
     * @param running the spec the rollout runs on
     * @param next    the spec asked for
     * @return the refused changes; empty if {@code next} differs only in safe fields
     */
    public static List<Problem> unsafeChanges(RolloutSpec running, RolloutSpec next) {
        List<Problem> problems = new ArrayList<>();
        unsafe(problems, "name", running.name(), next.name());
        unsafe(problems, "targetVersion", running.targetVersion(), next.targetVersion());
        unsafe(problems, "upgradeControlPlane", running.upgradeControlPlane(), next.upgradeControlPlane());
        unsafe(problems, "deviceOrder", running.deviceOrder(), next.deviceOrder());
        unsafe(problems, "unmatchedDevices", running.unmatchedDevices(), next.unmatchedDevices());
        unsafe(problems, "strategy", running.strategy(), next.strategy());
        unsafe(problems, "prechecks", running.prechecks(), next.prechecks());
        unsafe(problems, "timeouts", running.timeouts(), next.timeouts());
        unsafe(problems, "retry", running.retry(), next.retry());
        unsafe(problems, "allowPartialWindow", running.allowPartialWindow(), next.allowPartialWindow());
        if (running.window().isPresent() != next.window().isPresent()) {
            problems.add(Problem.of("window", next.window().map(Object::toString).orElse("<none>"),
                    "cannot be added or removed while the rollout runs (only window.end can change)"));
        } else if (running.window().isPresent()) {
            unsafe(problems, "window.start", running.window().get().start(), next.window().get().start());
        }
        return problems;
    }

    private static void unsafe(List<Problem> problems, String field, Object running, Object next) {
        if (!Objects.equals(running, next)) {
            problems.add(Problem.of(field, next, "cannot change while the rollout runs (it is " + running
                    + "); only " + String.join(", ", SAFE_FIELDS) + " can"));
        }
    }

    /**
     * This spec with the safe fields of {@code next} except {@code suspend}: the part of a spec change that
     * waits for a batch boundary.
     */
    RolloutSpec withBoundaryFieldsOf(RolloutSpec next) {
        return new RolloutSpec(name, targetVersion, upgradeControlPlane, deviceOrder, unmatchedDevices, strategy,
                next.maxParallel(), prechecks, timeouts, next.maxFailures(), next.window(), retry, allowPartialWindow, suspend);
    }

    /** This spec with {@code suspend} set to {@code value}. */
    RolloutSpec withSuspend(boolean value) {
        return value == suspend ? this : new RolloutSpec(name, targetVersion, upgradeControlPlane, deviceOrder,
                unmatchedDevices, strategy, maxParallel, prechecks, timeouts, maxFailures, window, retry, allowPartialWindow, value);
    }

    @JsonCreator
    static RolloutSpec fromJson(@JsonProperty("name") String name,
                                @JsonProperty("targetVersion") String targetVersion,
                                @JsonProperty("upgradeControlPlane") Boolean upgradeControlPlane,
                                @JsonProperty("deviceOrder") List<JsonNode> deviceOrder,
                                @JsonProperty("unmatchedDevices") UnmatchedDevices unmatchedDevices,
                                @JsonProperty("strategy") DeviceStrategy strategy,
                                @JsonProperty("maxParallel") JsonNode maxParallel,
                                @JsonProperty("prechecks") Boolean prechecks,
                                @JsonProperty("timeouts") OpTimeouts timeouts,
                                @JsonProperty("maxFailures") Integer maxFailures,
                                @JsonProperty("window") MaintenanceWindow window,
                                @JsonProperty("retry") RetryPolicy retry,
                                @JsonProperty("allowPartialWindow") Boolean allowPartialWindow,
                                @JsonProperty("suspend") Boolean suspend) {
        // Selectors and maxParallel are read here rather than by Jackson so that a bad one is reported with its
        // path together with every other problem of the spec, instead of ending the read.
        Problems problems = new Problems();
        List<LabelSelector> selectors = new ArrayList<>();
        List<JsonNode> order = deviceOrder == null ? List.of() : deviceOrder;
        for (int i = 0; i < order.size(); i++) {
            int index = i;
            selectors.add(LabelSelector.read(order.get(i), "deviceOrder[" + i + "]", problems)
                    // A stand-in that validates and never duplicates another, so the other checks still run.
                    .orElseGet(() -> LabelSelector.allOf(LabelRequirement.exists("invalid.hotspare.dev/selector-" + index))));
        }
        MaxParallel parallel = maxParallel == null || maxParallel.isNull()
                ? MaxParallel.of(DEFAULT_MAX_PARALLEL)
                : MaxParallel.read(maxParallel, "maxParallel", problems).orElse(MaxParallel.of(DEFAULT_MAX_PARALLEL));
        try {
            RolloutSpec spec = new RolloutSpec(name, targetVersion, upgradeControlPlane == null || upgradeControlPlane,
                    selectors, unmatchedDevices == null ? UnmatchedDevices.UPGRADE_LAST : unmatchedDevices,
                    strategy == null ? DeviceStrategy.LINEAR : strategy, parallel, prechecks != null && prechecks,
                    timeouts == null ? OpTimeouts.defaults() : timeouts, maxFailures == null ? 0 : maxFailures,
                    Optional.ofNullable(window), retry == null ? RetryPolicy.none() : retry,
                    allowPartialWindow != null && allowPartialWindow, suspend != null && suspend);
            problems.throwIfAny();
            return spec;
        } catch (ValidationException e) {
            List<Problem> all = new ArrayList<>(problems.list());
            all.addAll(e.problems().stream().filter(p -> !all.contains(p)).toList());
            throw new ValidationException(all);
        }
    }

    /**
     * A builder with every default set.
     *
     * @param name          the rollout's name
     * @param targetVersion the version to move to
     */
    public static Builder builder(String name, String targetVersion) {
        return new Builder(name, targetVersion);
    }

    /**
     * A builder starting from this spec.
     */
    public Builder toBuilder() {
        Builder b = new Builder(name, targetVersion);
        b.upgradeControlPlane = upgradeControlPlane;
        b.deviceOrder = new ArrayList<>(deviceOrder);
        b.unmatchedDevices = unmatchedDevices;
        b.strategy = strategy;
        b.maxParallel = maxParallel;
        b.prechecks = prechecks;
        b.timeouts = timeouts;
        b.maxFailures = maxFailures;
        b.window = window;
        b.retry = retry;
        b.allowPartialWindow = allowPartialWindow;
        b.suspend = suspend;
        return b;
    }

    /** Fluent builder for {@link RolloutSpec}; {@link #build()} validates. */
    public static final class Builder {
        private final String name;
        private final String targetVersion;
        private boolean upgradeControlPlane = true;
        private List<LabelSelector> deviceOrder = new ArrayList<>();
        private UnmatchedDevices unmatchedDevices = UnmatchedDevices.UPGRADE_LAST;
        private DeviceStrategy strategy = DeviceStrategy.LINEAR;
        private MaxParallel maxParallel = MaxParallel.of(DEFAULT_MAX_PARALLEL);
        private boolean prechecks;
        private OpTimeouts timeouts = OpTimeouts.defaults();
        private int maxFailures;
        private Optional<MaintenanceWindow> window = Optional.empty();
        private RetryPolicy retry = RetryPolicy.none();
        private boolean allowPartialWindow;
        private boolean suspend;

        private Builder(String name, String targetVersion) {
            this.name = name;
            this.targetVersion = targetVersion;
        }

        /**
         * Whether nodes and the services op are upgraded before the devices.
         *
         * @param value default true
         * @return this builder
         */
        public Builder upgradeControlPlane(boolean value) {
            this.upgradeControlPlane = value;
            return this;
        }

        /**
         * The device groups, in order.
         *
         * @param selectors one selector per group
         * @return this builder
         */
        public Builder deviceOrder(List<LabelSelector> selectors) {
            this.deviceOrder = new ArrayList<>(Objects.requireNonNull(selectors, "selectors"));
            return this;
        }

        /**
         * Adds a group of the devices labelled {@code labelKey=labelValue}.
         *
         * @return this builder
         */
        public Builder deviceGroup(String labelKey, String labelValue) {
            this.deviceOrder.add(LabelSelector.of(labelKey, labelValue));
            return this;
        }

        /**
         * Adds a group of the devices {@code selector} selects, in Kubernetes' string form.
         *
         * @param selector such as {@code "tier in (edge,core),zone!=eu"}
         * @return this builder
         * @throws ValidationException if the selector does not parse
         */
        public Builder deviceGroup(String selector) {
            this.deviceOrder.add(LabelSelector.parse(selector));
            return this;
        }

        /**
         * What happens to devices no selector matches.
         *
         * @param value default UPGRADE_LAST
         * @return this builder
         */
        public Builder unmatchedDevices(UnmatchedDevices value) {
            this.unmatchedDevices = value;
            return this;
        }

        /**
         * How devices are paced inside a group.
         *
         * @param value default LINEAR
         * @return this builder
         */
        public Builder strategy(DeviceStrategy value) {
            this.strategy = value;
            return this;
        }

        /**
         * A fixed number of device ops at once.
         *
         * @param value default 2
         * @return this builder
         */
        public Builder maxParallel(int value) {
            this.maxParallel = new MaxParallel(value, false);
            return this;
        }

        /**
         * Device ops at once, a count or a percentage of the group.
         *
         * @param value the setting
         * @return this builder
         */
        public Builder maxParallel(MaxParallel value) {
            this.maxParallel = value;
            return this;
        }

        /**
         * Whether nodes and devices are prechecked first.
         *
         * @param value default false
         * @return this builder
         */
        public Builder prechecks(boolean value) {
            this.prechecks = value;
            return this;
        }

        /**
         * Per-op timeouts.
         *
         * @param value default {@link OpTimeouts#defaults()}
         * @return this builder
         */
        public Builder timeouts(OpTimeouts value) {
            this.timeouts = value;
            return this;
        }

        /**
         * Device failures tolerated.
         *
         * @param value default 0
         * @return this builder
         */
        public Builder maxFailures(int value) {
            this.maxFailures = value;
            return this;
        }

        /**
         * The maintenance window.
         *
         * @param value the window
         * @return this builder
         */
        public Builder window(MaintenanceWindow value) {
            this.window = Optional.of(value);
            return this;
        }

        /**
         * The maintenance window, or none.
         *
         * @param value the window, or empty for none
         * @return this builder
         */
        public Builder window(Optional<MaintenanceWindow> value) {
            this.window = Objects.requireNonNull(value, "window");
            return this;
        }

        /**
         * Device retries.
         *
         * @param attempts attempts in total, 1 = no retry
         * @param delay    wait between a failure and the next attempt
         * @return this builder
         */
        public Builder retry(int attempts, Duration delay) {
            this.retry = new RetryPolicy(attempts, delay);
            return this;
        }

        /**
         * Whether the rollout may be created although its worst case does not fit the window.
         *
         * @param value default false
         * @return this builder
         */
        public Builder allowPartialWindow(boolean value) {
            this.allowPartialWindow = value;
            return this;
        }

        /**
         * Whether the rollout is suspended.
         *
         * @param value default false
         * @return this builder
         */
        public Builder suspend(boolean value) {
            this.suspend = value;
            return this;
        }

        /**
         * The spec.
         *
         * @return the validated spec
         * @throws ValidationException with every problem found
         */
        public RolloutSpec build() {
            return new RolloutSpec(name, targetVersion, upgradeControlPlane, deviceOrder, unmatchedDevices, strategy,
                    maxParallel, prechecks, timeouts, maxFailures, window, retry, allowPartialWindow, suspend);
        }
    }
}
