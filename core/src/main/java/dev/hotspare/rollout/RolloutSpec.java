package dev.hotspare.rollout;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import tools.jackson.databind.JsonNode;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.hotspare.rollout.RolloutMachine.RolloutEvent;
import dev.hotspare.rollout.RolloutState.Phase;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;
import dev.hotspare.validation.Suggestions;
import dev.hotspare.validation.ValidationException;
import java.time.Instant;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.TreeMap;
import java.util.Set;
import java.util.Map;
import java.util.Iterator;
import java.util.Comparator;

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

    /** How devices inside one label group are paced. */
    public enum DeviceStrategy {
        /** A worker pool: whenever fewer than {@code maxParallel} devices are active, the next one starts. */
        LINEAR,
        /** Batches of 1, 2, 4, … capped at {@code maxParallel}; a batch starts when the previous one finished; the ramp restarts in each group. */
        EXPONENTIAL
    }

    /**
     * Selects devices by their labels, with Kubernetes' label selector semantics: every requirement must hold.
     * Written either in Kubernetes' string form, parsed with Kubernetes' rules and messages
     * ({@code "tier in (canary,edge),zone!=eu,!legacy"}), or as the object form Kubernetes resources use
     * ({@code {matchLabels: {tier: canary}, matchExpressions: [{key: zone, operator: NotIn, values: [eu]}]}}).
     * Both read into the same requirements; the selector is written back in the string form.
     *
     * <p>An empty selector matches every device; {@link RolloutSpec} refuses one in {@code deviceOrder}, because it
     * would swallow every later group.
     *
     * @param requirements the conditions, all of which must hold; kept sorted by key (as Kubernetes does), so two
     *                     selectors with the same conditions are equal however they were written
     */
    public record LabelSelector(List<LabelRequirement> requirements) {

        private static final Comparator<LabelRequirement> ORDER = Comparator.comparing(LabelRequirement::key)
                .thenComparing(LabelRequirement::operator)
                .thenComparing(r -> String.join(",", r.values()));
        private static final Map<String, LabelRequirement.Operator> OBJECT_OPERATORS = Map.of(
                "In", LabelRequirement.Operator.IN, "NotIn", LabelRequirement.Operator.NOT_IN,
                "Exists", LabelRequirement.Operator.EXISTS, "DoesNotExist", LabelRequirement.Operator.DOES_NOT_EXIST,
                "Gt", LabelRequirement.Operator.GREATER_THAN, "Lt", LabelRequirement.Operator.LESS_THAN);

        /**
         * Copies and sorts the requirements.
         *
         * @param requirements the conditions, all of which must hold; kept sorted by key (as Kubernetes does), so two selectors with the same conditions are equal however they were written
         */
        public LabelSelector {
            requirements = requirements == null ? List.of() : requirements.stream().sorted(ORDER).toList();
        }

        /**
         * Parses Kubernetes' string form ({@code k8s.io/apimachinery/pkg/labels.Parse}): {@code key=value},
         * {@code key==value}, {@code key!=value}, {@code key in (a,b)}, {@code key notin (a,b)}, {@code key},
         * {@code !key}, {@code key>n}, {@code key<n}, separated by commas.
         *
         * @param text the selector
         * @return the selector
         * @throws ValidationException with one problem whose value is {@code text} and whose message names the
         *                             position (0-based) and, in Kubernetes' words, what was found there
         */
        public static LabelSelector parse(String text) {
            if (text == null) {
                throw new ValidationException(Problem.of("", Problem.MISSING, "a selector is required"));
            }
            try {
                return new LabelSelector(SelectorParser.parse(text));
            } catch (SelectorParser.SyntaxError e) {
                throw new ValidationException(Problem.of("", text, "at position " + e.position() + ": " + e.getMessage()));
            }
        }

        /**
         * A selector for one label: {@code key=value}.
         *
         * @param key   label key
         * @param value required value
         */
        public static LabelSelector of(String key, String value) {
            return new LabelSelector(List.of(LabelRequirement.equalTo(key, value)));
        }

        /**
         * Kubernetes' {@code matchLabels}: every label present with the given value.
         *
         * @param labels key to required value
         * @return the selector
         */
        public static LabelSelector matchLabels(Map<String, String> labels) {
            return new LabelSelector(labels.entrySet().stream()
                    .map(e -> LabelRequirement.equalTo(e.getKey(), e.getValue())).toList());
        }

        /**
         * A selector of the given requirements.
         *
         * @param requirements every condition
         */
        public static LabelSelector allOf(LabelRequirement... requirements) {
            return new LabelSelector(List.of(requirements));
        }

        /**
         * Whether a target with {@code labels} is selected: every requirement holds.
         *
         * @param labels the target's labels
         */
        public boolean matches(Map<String, String> labels) {
            for (LabelRequirement r : requirements) {
                if (!r.matches(labels)) {
                    return false;
                }
            }
            return true;
        }

        /**
         * Whether the selector has no requirement (and so matches everything).
         *
         * @return whether it is empty
         */
        public boolean isEmpty() {
            return requirements.isEmpty();
        }

        /**
         * The string form, requirements in key order: {@code tier=canary,zone notin (eu)}. Parsing it gives back an
         * equal selector. Also the JSON form.
         *
         * @return the selector in Kubernetes' syntax
         */
        @JsonValue
        public String describe() {
            return requirements.stream().map(LabelRequirement::describe).collect(Collectors.joining(","));
        }

        @Override
        public String toString() {
            return describe();
        }

        @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
        static LabelSelector fromJson(JsonNode node) {
            Problems problems = new Problems();
            Optional<LabelSelector> selector = read(node, "", problems);
            problems.throwIfAny();
            return selector.orElseThrow();
        }

        /**
         * Reads a selector written as a string or as {@code {matchLabels, matchExpressions}}; records problems
         * under {@code path} instead of throwing, so a spec can report all of its problems at once.
         */
        static Optional<LabelSelector> read(JsonNode node, String path, Problems problems) {
            if (node == null || node.isNull() || node.isMissingNode()) {
                problems.add(path, Problem.MISSING, "a selector is required: a string such as 'tier in (canary)' or {matchLabels: {tier: canary}}");
                return Optional.empty();
            }
            if (node.isString()) {
                try {
                    return Optional.of(parse(node.asString()));
                } catch (ValidationException e) {
                    e.problems().forEach(p -> problems.add(path, p.value(), p.message()));
                    return Optional.empty();
                }
            }
            if (!node.isObject()) {
                problems.add(path, node.toString(), "a selector is a string such as 'tier in (canary)' or {matchLabels: {...}, matchExpressions: [...]}");
                return Optional.empty();
            }
            List<LabelRequirement> requirements = new ArrayList<>();
            int before = problems.list().size();
            for (Iterator<String> it = node.propertyNames().iterator(); it.hasNext(); ) {
                String field = it.next();
                if (!field.equals("matchLabels") && !field.equals("matchExpressions")) {
                    String hint = Suggestions.closest(field, List.of("matchLabels", "matchExpressions"))
                            .map(s -> "; did you mean '" + s + "'?").orElse("; known fields: matchExpressions, matchLabels");
                    problems.add(join(path, field), field, "unknown field" + hint);
                }
            }
            JsonNode labels = node.path("matchLabels");
            if (!labels.isMissingNode() && !labels.isNull()) {
                if (!labels.isObject()) {
                    problems.add(join(path, "matchLabels"), labels.toString(), "expected a map of label key to value");
                } else {
                    for (Map.Entry<String, JsonNode> e : iterable(labels.properties().iterator())) {
                        String at = join(path, "matchLabels") + "." + e.getKey();
                        if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                            problems.add(at, e.getValue().toString(), "expected a label value");
                            continue;
                        }
                        collect(e.getKey(), LabelRequirement.Operator.EQUALS, List.of(e.getValue().asString()), at, requirements, problems);
                    }
                }
            }
            JsonNode expressions = node.path("matchExpressions");
            if (!expressions.isMissingNode() && !expressions.isNull()) {
                if (!expressions.isArray()) {
                    problems.add(join(path, "matchExpressions"), expressions.toString(), "expected a list of {key, operator, values}");
                } else {
                    for (int i = 0; i < expressions.size(); i++) {
                        expression(expressions.get(i), join(path, "matchExpressions") + "[" + i + "]", requirements, problems);
                    }
                }
            }
            return problems.list().size() == before ? Optional.of(new LabelSelector(requirements)) : Optional.empty();
        }

        private static void expression(JsonNode e, String path, List<LabelRequirement> out, Problems problems) {
            if (!e.isObject()) {
                problems.add(path, e.toString(), "expected {key, operator, values}");
                return;
            }
            for (Iterator<String> it = e.propertyNames().iterator(); it.hasNext(); ) {
                String field = it.next();
                if (!Set.of("key", "operator", "values").contains(field)) {
                    String hint = Suggestions.closest(field, List.of("key", "operator", "values"))
                            .map(s -> "; did you mean '" + s + "'?").orElse("; known fields: key, operator, values");
                    problems.add(path + "." + field, field, "unknown field" + hint);
                }
            }
            String key = e.path("key").isString() ? e.path("key").asString() : null;
            String operatorName = e.path("operator").isString() ? e.path("operator").asString() : null;
            LabelRequirement.Operator operator = operatorName == null ? null : OBJECT_OPERATORS.get(operatorName);
            if (operatorName != null && operator == null) {
                String known = new TreeMap<>(OBJECT_OPERATORS).keySet().stream().collect(Collectors.joining(", "));
                String hint = Suggestions.closest(operatorName, OBJECT_OPERATORS.keySet()).map(s -> "; did you mean '" + s + "'?")
                        .orElse("; one of " + known);
                problems.add(path + ".operator", operatorName, "unknown operator" + hint);
                return;
            }
            List<String> values = new ArrayList<>();
            JsonNode valuesNode = e.path("values");
            if (valuesNode.isArray()) {
                valuesNode.forEach(v -> values.add(v.isValueNode() ? v.asString() : v.toString()));
            } else if (!valuesNode.isMissingNode() && !valuesNode.isNull()) {
                problems.add(path + ".values", valuesNode.toString(), "expected a list of label values");
                return;
            }
            collect(key, operator, values, path, out, problems);
        }

        private static void collect(String key, LabelRequirement.Operator operator, List<String> values, String path,
                                    List<LabelRequirement> out, Problems problems) {
            List<Problem> found = LabelRequirement.problems(key, operator, values);
            if (found.isEmpty()) {
                out.add(new LabelRequirement(key, operator, values));
            } else {
                found.forEach(p -> problems.add(operator == LabelRequirement.Operator.EQUALS && values.size() == 1
                        ? path : path + "." + p.path(), p.value(), p.message()));
            }
        }

        private static String join(String path, String field) {
            return path.isEmpty() ? field : path + "." + field;
        }

        private static <T> Iterable<T> iterable(Iterator<T> iterator) {
            return () -> iterator;
        }
    }

    /**
     * One condition of a {@link LabelSelector}, with Kubernetes' meaning ({@code k8s.io/apimachinery/pkg/labels}):
     * {@code key=value}, {@code key!=value}, {@code key in (a,b)}, {@code key notin (a,b)}, {@code key} (exists),
     * {@code !key} (does not exist), {@code key>n}, {@code key<n}. Values are kept as a sorted set, as Kubernetes
     * does. Validated on construction with Kubernetes' rules and messages.
     *
     * @param key      the label key, {@code [prefix/]name}
     * @param operator how the label is compared
     * @param values   the values the operator compares with: one for {@code =}, {@code !=}, {@code >}, {@code <};
     *                 at least one for {@code in} and {@code notin}; none for exists and does-not-exist
     */
    public record LabelRequirement(String key, Operator operator, List<String> values) {

        /** Comparison operators; {@link #symbol()} is how the string form writes them. */
        public enum Operator {
            /** The label is present with this value ({@code =}, also written {@code ==}). */
            EQUALS("="),
            /** The label is absent, or present with another value ({@code !=}). */
            NOT_EQUALS("!="),
            /** The label is present with one of the values ({@code in}). */
            IN("in"),
            /** The label is absent, or present with none of the values ({@code notin}). */
            NOT_IN("notin"),
            /** The label is present, any value (a bare key). */
            EXISTS("exists"),
            /** The label is absent ({@code !key}). */
            DOES_NOT_EXIST("!"),
            /** The label is present and, read as an integer, greater than the value ({@code >}). */
            GREATER_THAN(">"),
            /** The label is present and, read as an integer, less than the value ({@code <}). */
            LESS_THAN("<");

            private final String symbol;

            Operator(String symbol) {
                this.symbol = symbol;
            }

            /**
             * How the selector string writes this operator.
             *
             * @return the symbol or keyword
             */
            public String symbol() {
                return symbol;
            }
        }

        /**
         * * Validates and normalises (values sorted, duplicates removed).      * @throws ValidationException naming {@code key}, {@code operator} or {@code values[i]} with Kubernetes' message
         *
         * @param key      the label key, {@code [prefix/]name}
         * @param operator how the label is compared
         * @param values   the values the operator compares with: one for {@code =}, {@code !=}, {@code >}, {@code <}; at least one for {@code in} and {@code notin}; none for exists and does-not-exist
         */
        public LabelRequirement {
            if (values != null && values.stream().anyMatch(java.util.Objects::isNull)) {
                throw new ValidationException(Problem.of("values", values, "a value must not be null"));
            }
            values = values == null ? List.of() : List.copyOf(new TreeSet<>(values));
            List<Problem> problems = problems(key, operator, values);
            if (!problems.isEmpty()) {
                throw new ValidationException(problems);
            }
        }

        /**
         * Kubernetes' {@code NewRequirement} checks: a valid key, the number of values the operator needs, integer
         * values for {@code >}/{@code <}, valid label values.
         */
        static List<Problem> problems(String key, Operator operator, List<String> values) {
            List<Problem> problems = new ArrayList<>();
            if (key == null) {
                problems.add(Problem.of("key", Problem.MISSING, "required field is missing"));
            } else {
                List<String> keyErrors = Labels.keyProblems(key);
                if (!keyErrors.isEmpty()) {
                    problems.add(Problem.of("key", key, String.join("; ", keyErrors)));
                }
            }
            if (operator == null) {
                problems.add(Problem.of("operator", Problem.MISSING, "required field is missing; one of In, NotIn, Exists, DoesNotExist, Gt, Lt"));
                return problems;
            }
            switch (operator) {
                case IN, NOT_IN -> {
                    if (values.isEmpty()) {
                        problems.add(Problem.of("values", values, "for 'in', 'notin' operators, values set can't be empty"));
                    }
                }
                case EQUALS, NOT_EQUALS -> {
                    if (values.size() != 1) {
                        problems.add(Problem.of("values", values, "exact-match compatibility requires one single value"));
                    }
                }
                case EXISTS, DOES_NOT_EXIST -> {
                    if (!values.isEmpty()) {
                        problems.add(Problem.of("values", values, "values set must be empty for exists and does not exist"));
                    }
                }
                case GREATER_THAN, LESS_THAN -> {
                    if (values.size() != 1) {
                        problems.add(Problem.of("values", values, "for 'Gt', 'Lt' operators, exactly one value is required"));
                    }
                    for (int i = 0; i < values.size(); i++) {
                        if (parseLong(values.get(i)) == null) {
                            problems.add(Problem.of("values[" + i + "]", values.get(i), "for 'Gt', 'Lt' operators, the value must be an integer"));
                        }
                    }
                }
            }
            for (int i = 0; i < values.size(); i++) {
                String value = values.get(i);
                List<String> valueErrors = Labels.valueProblems(value);
                if (!valueErrors.isEmpty()) {
                    problems.add(Problem.of("values[" + i + "]", value, String.join("; ", valueErrors)));
                }
            }
            return problems;
        }

        /**
         * {@code key=value}.
         *
         * @param key   label key
         * @param value required value
         * @return the requirement
         */
        public static LabelRequirement equalTo(String key, String value) {
            return new LabelRequirement(key, Operator.EQUALS, List.of(value));
        }

        /**
         * {@code key in (values)}.
         *
         * @param key    label key
         * @param values accepted values
         * @return the requirement
         */
        public static LabelRequirement in(String key, String... values) {
            return new LabelRequirement(key, Operator.IN, List.of(values));
        }

        /**
         * {@code key notin (values)}.
         *
         * @param key    label key
         * @param values rejected values
         * @return the requirement
         */
        public static LabelRequirement notIn(String key, String... values) {
            return new LabelRequirement(key, Operator.NOT_IN, List.of(values));
        }

        /**
         * {@code key}: the label is present.
         *
         * @param key label key
         * @return the requirement
         */
        public static LabelRequirement exists(String key) {
            return new LabelRequirement(key, Operator.EXISTS, List.of());
        }

        /**
         * {@code !key}: the label is absent.
         *
         * @param key label key
         * @return the requirement
         */
        public static LabelRequirement doesNotExist(String key) {
            return new LabelRequirement(key, Operator.DOES_NOT_EXIST, List.of());
        }

        /**
         * Whether a target with {@code labels} satisfies this requirement (Kubernetes' {@code Requirement.Matches}).
         *
         * @param labels the target's labels
         */
        public boolean matches(Map<String, String> labels) {
            boolean has = labels.containsKey(key);
            String actual = labels.get(key);
            return switch (operator) {
                case EQUALS, IN -> has && values.contains(actual);
                case NOT_EQUALS, NOT_IN -> !has || !values.contains(actual);
                case EXISTS -> has;
                case DOES_NOT_EXIST -> !has;
                case GREATER_THAN, LESS_THAN -> {
                    Long left = has ? parseLong(actual) : null;
                    if (left == null) {
                        yield false;
                    }
                    long right = parseLong(values.get(0));
                    yield operator == Operator.GREATER_THAN ? left > right : left < right;
                }
            };
        }

        /**
         * The string form, as Kubernetes writes it: {@code tier=canary}, {@code tier in (a,b)}, {@code !legacy}.
         *
         * @return the requirement in selector syntax
         */
        public String describe() {
            return switch (operator) {
                case EQUALS, NOT_EQUALS, GREATER_THAN, LESS_THAN -> key + operator.symbol() + values.get(0);
                case IN, NOT_IN -> key + " " + operator.symbol() + " (" + String.join(",", values) + ")";
                case EXISTS -> key;
                case DOES_NOT_EXIST -> "!" + key;
            };
        }

        private static Long parseLong(String text) {
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }

    /**
     * When upgrades may start. Nothing is upgraded before {@code start} (prechecks may run earlier); once
     * {@code end} has passed no new op starts, running ops finish, and a rollout with targets left ends
     * {@link Phase#DEADLINE_EXCEEDED}.
     *
     * @param start first instant upgrades may start
     * @param end   instant after which nothing new starts; empty for an open-ended window
     */
    public record MaintenanceWindow(Instant start, Optional<Instant> end) {

        /**
         * Validates and normalises the components.
         *
         * @param start first instant upgrades may start
         * @param end   instant after which nothing new starts; empty for an open-ended window
         */
        public MaintenanceWindow {
            end = end == null ? Optional.empty() : end;
        }

        @JsonCreator
        static MaintenanceWindow fromJson(@JsonProperty("start") Instant start, @JsonProperty("end") Instant end) {
            return new MaintenanceWindow(start, Optional.ofNullable(end));
        }

        /**
         * A window from {@code start} to {@code end}.
         *
         * @param start first instant upgrades may start
         * @param end   instant after which nothing new starts
         */
        public static MaintenanceWindow between(Instant start, Instant end) {
            return new MaintenanceWindow(start, Optional.of(end));
        }

        /**
         * A window that opens at {@code start} and never closes.
         *
         * @param start first instant upgrades may start
         */
        public static MaintenanceWindow from(Instant start) {
            return new MaintenanceWindow(start, Optional.empty());
        }
    }

    /**
     * How many device ops run at once in a group (the LINEAR pool size, the EXPONENTIAL batch cap): a fixed count
     * ({@code 4}) or a percentage of the group ({@code "25%"}: rounded down, at least 1), as Kubernetes' and Argo
     * Rollouts' {@code maxUnavailable} / {@code maxSurge} accept. In JSON and YAML a number or a string ending in
     * {@code %}.
     *
     * @param value   the count (1..{@link RolloutSpec#LIMIT}) or the percentage (1..100)
     * @param percent whether {@code value} is a percentage of the group
     */
    public record MaxParallel(int value, boolean percent) {

        /**
         * * Validates the range.      * @throws ValidationException naming {@code maxParallel} and the bad value
         *
         * @param value   the count (1..{@link RolloutSpec#LIMIT}) or the percentage (1..100)
         * @param percent whether {@code value} is a percentage of the group
         */
        public MaxParallel {
            Problems problems = new Problems();
            check(problems, "maxParallel", value, percent);
            problems.throwIfAny();
        }

        private static void check(Problems problems, String path, int value, boolean percent) {
            if (percent) {
                problems.require(value >= 1 && value <= 100, path, value + "%", "a percentage must be between 1% and 100%");
            } else {
                problems.require(value >= 1 && value <= RolloutSpec.LIMIT, path, value, "must be between 1 and " + RolloutSpec.LIMIT);
            }
        }

        /**
         * A fixed number of ops at once.
         *
         * @param count ops at once, 1..{@link RolloutSpec#LIMIT}
         * @return the setting
         */
        public static MaxParallel of(int count) {
            return new MaxParallel(count, false);
        }

        /**
         * A percentage of each group's devices, rounded down, at least 1.
         *
         * @param percent 1..100
         * @return the setting
         */
        public static MaxParallel percentOfGroup(int percent) {
            return new MaxParallel(percent, true);
        }

        /**
         * Parses {@code "4"} or {@code "25%"}.
         *
         * @param text the setting
         * @return the setting
         * @throws ValidationException naming {@code maxParallel} when it is neither
         */
        public static MaxParallel parse(String text) {
            Problems problems = new Problems();
            Optional<MaxParallel> parsed = parse(text, "maxParallel", problems);
            problems.throwIfAny();
            return parsed.orElseThrow();
        }

        /**
         * The ops at once for a group of {@code groupSize} devices.
         *
         * @param groupSize devices in the group
         * @return the count, or the percentage of {@code groupSize} rounded down and at least 1
         */
        public int forGroup(int groupSize) {
            return percent ? Math.max(1, (int) ((long) groupSize * value / 100)) : value;
        }

        /**
         * {@code 4} or {@code "25%"}: the JSON form.
         *
         * @return an Integer or a String
         */
        @JsonValue
        public Object json() {
            return percent ? value + "%" : (Object) value;
        }

        @Override
        public String toString() {
            return percent ? value + "%" : String.valueOf(value);
        }

        @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
        static MaxParallel fromJson(JsonNode node) {
            Problems problems = new Problems();
            Optional<MaxParallel> value = read(node, "", problems);
            problems.throwIfAny();
            return value.orElseThrow();
        }

        /** Reads a number or a percentage string; records problems at {@code path} instead of throwing. */
        static Optional<MaxParallel> read(JsonNode node, String path, Problems problems) {
            if (node.isIntegralNumber() && node.canConvertToInt()) {
                int count = node.asInt();
                int before = problems.list().size();
                check(problems, path, count, false);
                return problems.list().size() == before ? Optional.of(of(count)) : Optional.empty();
            }
            if (node.isString()) {
                return parse(node.asString(), path, problems);
            }
            problems.add(path, node.toString(), "expected a whole number such as 4 or a percentage such as \"25%\"");
            return Optional.empty();
        }

        private static Optional<MaxParallel> parse(String text, String path, Problems problems) {
            if (text == null) {
                problems.add(path, Problem.MISSING, "required");
                return Optional.empty();
            }
            String trimmed = text.strip();
            boolean percent = trimmed.endsWith("%");
            String digits = percent ? trimmed.substring(0, trimmed.length() - 1) : trimmed;
            int value;
            try {
                value = Integer.parseInt(digits);
            } catch (NumberFormatException e) {
                problems.add(path, text, "expected a whole number such as 4 or a percentage such as \"25%\"");
                return Optional.empty();
            }
            int before = problems.list().size();
            check(problems, path, value, percent);
            return problems.list().size() == before ? Optional.of(new MaxParallel(value, percent)) : Optional.empty();
        }
    }

    /**
     * How long one op may take before it counts as failed (and is cancelled). Prechecks use the timeout of
     * their target's kind.
     *
     * <p>The device timeout, unless set, grows with the parallelism of the group the device is in, as the Venice
     * rollout controller's does: {@value #DEVICE_BASE_SECONDS} s times {@code floor(parallelism / }{@value #DEVICES_PER_STEP}{@code )},
     * at least once and without a cap — 480 s up to 19 devices at once, 960 s from 20, 1,440 s at 30, 4,800 s at 100
     * (more devices upgrading at once share the same image servers and links, so each takes longer).
     *
     * @param node     per node op; default 30 minutes
     * @param services the services op; default 30 minutes
     * @param device   per device op; empty = scaled with parallelism, see {@link #device(int)}
     */
    public record OpTimeouts(Duration node, Duration services, Optional<Duration> device) {

        /** Default node op timeout. */
        public static final Duration DEFAULT_NODE = Duration.ofMinutes(30);
        /** Default services op timeout. */
        public static final Duration DEFAULT_SERVICES = Duration.ofMinutes(30);
        /** Base of the scaled device timeout, in seconds. */
        public static final int DEVICE_BASE_SECONDS = 480;
        /** Base of the scaled device timeout. */
        public static final Duration DEVICE_BASE = Duration.ofSeconds(DEVICE_BASE_SECONDS);
        /** Each full step of this many devices at once adds one {@link #DEVICE_BASE} to the scaled device timeout. */
        public static final int DEVICES_PER_STEP = 10;

        /**
         * Normalises a null device timeout to empty.
         *
         * @param node     per node op; default 30 minutes
         * @param services the services op; default 30 minutes
         * @param device   per device op; empty = scaled with parallelism, see {@link #device(int)}
         */
        public OpTimeouts {
            device = device == null ? Optional.empty() : device;
        }

        /**
         * Timeouts with an explicit device timeout.
         *
         * @param node     per node op
         * @param services the services op
         * @param device   per device op, whatever the parallelism
         */
        public OpTimeouts(Duration node, Duration services, Duration device) {
            this(node, services, Optional.ofNullable(device));
        }

        /**
         * The defaults: 30 minutes for nodes and the services op, the scaled device timeout.
         */
        public static OpTimeouts defaults() {
            return new OpTimeouts(DEFAULT_NODE, DEFAULT_SERVICES, Optional.empty());
        }

        @JsonCreator
        static OpTimeouts fromJson(@JsonProperty("node") Duration node, @JsonProperty("services") Duration services,
                                   @JsonProperty("device") Duration device) {
            return new OpTimeouts(node == null ? DEFAULT_NODE : node, services == null ? DEFAULT_SERVICES : services,
                    Optional.ofNullable(device));
        }

        /**
         * The scaled device timeout for {@code parallelism} devices at once, as Venice's: 480 s ×
         * {@code max(1, floor(parallelism / 10))}, no cap (30 / 40 / 100 devices: 1,440 / 1,920 / 4,800 s).
         *
         * @param parallelism device ops at once
         */
        public static Duration scaledDevice(int parallelism) {
            // Venice multiplies by the integer quotient; below 10 devices that is 0, where it keeps the base.
            int factor = Math.max(1, parallelism / DEVICES_PER_STEP);
            return DEVICE_BASE.multipliedBy(factor);
        }

        /**
         * The device timeout in effect for a group running {@code parallelism} ops at once: the explicit one if
         * set, else {@link #scaledDevice(int)}.
         *
         * @param parallelism device ops at once in the group
         */
        public Duration device(int parallelism) {
            return device.orElseGet(() -> scaledDevice(parallelism));
        }
    }

    /**
     * How a failed device op is retried: up to {@code attempts} attempts in total, {@code delay} apart, and never
     * when the retry would start outside the maintenance window. Nodes and the services op are not retried.
     *
     * @param attempts total attempts per device, at least 1 (1 = no retry); default 1
     * @param delay    wait between a failure and the next attempt; default 1 minute
     */
    public record RetryPolicy(int attempts, Duration delay) {

        /** Default {@link #delay()}. */
        public static final Duration DEFAULT_DELAY = Duration.ofMinutes(1);

        /**
         * No retries.
         *
         * @return one attempt in total
         */
        public static RetryPolicy none() {
            return new RetryPolicy(1, DEFAULT_DELAY);
        }

        @JsonCreator
        static RetryPolicy fromJson(@JsonProperty("attempts") Integer attempts, @JsonProperty("delay") Duration delay) {
            return new RetryPolicy(attempts == null ? 1 : attempts, delay == null ? DEFAULT_DELAY : delay);
        }
    }

    /** What happens to devices that match none of the spec's selectors. */
    public enum UnmatchedDevices {
        /** They form a last group, after every selector group. */
        UPGRADE_LAST,
        /** They are left alone (recorded as skipped). */
        SKIP
    }
}
