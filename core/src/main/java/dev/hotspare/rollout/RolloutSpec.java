package dev.hotspare.rollout;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a staged rollout should do. Validated on construction; every problem is reported at once with its
 * field path ({@code timeouts.device}, {@code deviceOrder[1].matchLabels}, …). Read from JSON/YAML with
 * {@link dev.hotspare.json.Documents#read}; absent optional fields take the defaults below.
 *
 * @param name                rollout name, a DNS-1123 label; part of every op id
 * @param targetVersion       the version every target should end on
 * @param upgradeControlPlane upgrade nodes and then the services op first; default true (false = devices only)
 * @param deviceOrder         device label groups, in upgrade order; a device joins the group of the first selector it matches
 * @param unmatchedDevices    devices matching no selector: upgraded last (default) or skipped
 * @param strategy            device pacing inside a group; default LINEAR
 * @param maxParallel         device ops at once (LINEAR pool size, EXPONENTIAL batch cap); default 2
 * @param prechecks           run a precheck op on every node, then every device, before any upgrade; default false
 * @param timeouts            per-op timeouts
 * @param maxFailures         device failures tolerated while continuing; one more halts the rollout (no new work, ends FAILED); default 0
 * @param window              maintenance window; empty = upgrade right away, no deadline
 * @param retry               device retry policy; default no retry
 */
public record RolloutSpec(String name, String targetVersion, boolean upgradeControlPlane,
                          List<LabelSelector> deviceOrder, UnmatchedDevices unmatchedDevices,
                          DeviceStrategy strategy, int maxParallel, boolean prechecks, OpTimeouts timeouts,
                          int maxFailures, Optional<MaintenanceWindow> window, RetryPolicy retry) {

    /** Default {@link #maxParallel}. */
    public static final int DEFAULT_MAX_PARALLEL = 2;
    /** Upper bound on {@link #maxParallel}, {@link RetryPolicy#attempts()} and selector count: a guard against typos. */
    public static final int LIMIT = 10_000;

    public RolloutSpec {
        deviceOrder = deviceOrder == null ? List.of() : List.copyOf(deviceOrder);
        window = window == null ? Optional.empty() : window;
        Problems problems = new Problems();
        Names.dns1123LabelProblem(name).ifPresent(why -> problems.add("name", name == null ? Problem.MISSING : name, why));
        Labels.checkVersion(problems, "targetVersion", targetVersion);
        for (int i = 0; i < deviceOrder.size(); i++) {
            LabelSelector selector = deviceOrder.get(i);
            String path = "deviceOrder[" + i + "].matchLabels";
            if (selector == null || selector.matchLabels().isEmpty()) {
                problems.add(path, "{}", "a selector needs at least one label; an empty one would match every device");
                continue;
            }
            Labels.check(problems, path, selector.matchLabels());
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
        problems.require(maxParallel >= 1 && maxParallel <= LIMIT, "maxParallel", maxParallel, "must be between 1 and " + LIMIT);
        if (timeouts == null) {
            problems.add("timeouts", Problem.MISSING, "required");
        } else {
            requirePositive(problems, "timeouts.node", timeouts.node());
            requirePositive(problems, "timeouts.services", timeouts.services());
            requirePositive(problems, "timeouts.device", timeouts.device());
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

    @JsonCreator
    static RolloutSpec fromJson(@JsonProperty("name") String name,
                                @JsonProperty("targetVersion") String targetVersion,
                                @JsonProperty("upgradeControlPlane") Boolean upgradeControlPlane,
                                @JsonProperty("deviceOrder") List<LabelSelector> deviceOrder,
                                @JsonProperty("unmatchedDevices") UnmatchedDevices unmatchedDevices,
                                @JsonProperty("strategy") DeviceStrategy strategy,
                                @JsonProperty("maxParallel") Integer maxParallel,
                                @JsonProperty("prechecks") Boolean prechecks,
                                @JsonProperty("timeouts") OpTimeouts timeouts,
                                @JsonProperty("maxFailures") Integer maxFailures,
                                @JsonProperty("window") MaintenanceWindow window,
                                @JsonProperty("retry") RetryPolicy retry) {
        return new RolloutSpec(name, targetVersion, upgradeControlPlane == null || upgradeControlPlane,
                deviceOrder == null ? List.of() : deviceOrder,
                unmatchedDevices == null ? UnmatchedDevices.UPGRADE_LAST : unmatchedDevices,
                strategy == null ? DeviceStrategy.LINEAR : strategy,
                maxParallel == null ? DEFAULT_MAX_PARALLEL : maxParallel,
                prechecks != null && prechecks,
                timeouts == null ? OpTimeouts.defaults() : timeouts,
                maxFailures == null ? 0 : maxFailures,
                Optional.ofNullable(window),
                retry == null ? RetryPolicy.none() : retry);
    }

    /** A builder with every default set; {@code name} and {@code targetVersion} are required. */
    public static Builder builder(String name, String targetVersion) {
        return new Builder(name, targetVersion);
    }

    /** A builder starting from this spec. */
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
        private int maxParallel = DEFAULT_MAX_PARALLEL;
        private boolean prechecks;
        private OpTimeouts timeouts = OpTimeouts.defaults();
        private int maxFailures;
        private Optional<MaintenanceWindow> window = Optional.empty();
        private RetryPolicy retry = RetryPolicy.none();

        private Builder(String name, String targetVersion) {
            this.name = name;
            this.targetVersion = targetVersion;
        }

        public Builder upgradeControlPlane(boolean value) {
            this.upgradeControlPlane = value;
            return this;
        }

        public Builder deviceOrder(List<LabelSelector> selectors) {
            this.deviceOrder = new ArrayList<>(Objects.requireNonNull(selectors, "selectors"));
            return this;
        }

        public Builder deviceGroup(String labelKey, String labelValue) {
            this.deviceOrder.add(LabelSelector.of(labelKey, labelValue));
            return this;
        }

        public Builder unmatchedDevices(UnmatchedDevices value) {
            this.unmatchedDevices = value;
            return this;
        }

        public Builder strategy(DeviceStrategy value) {
            this.strategy = value;
            return this;
        }

        public Builder maxParallel(int value) {
            this.maxParallel = value;
            return this;
        }

        public Builder prechecks(boolean value) {
            this.prechecks = value;
            return this;
        }

        public Builder timeouts(OpTimeouts value) {
            this.timeouts = value;
            return this;
        }

        public Builder maxFailures(int value) {
            this.maxFailures = value;
            return this;
        }

        public Builder window(MaintenanceWindow value) {
            this.window = Optional.of(value);
            return this;
        }

        public Builder retry(int attempts, Duration delay) {
            this.retry = new RetryPolicy(attempts, delay);
            return this;
        }

        public RolloutSpec build() {
            return new RolloutSpec(name, targetVersion, upgradeControlPlane, deviceOrder, unmatchedDevices, strategy,
                    maxParallel, prechecks, timeouts, maxFailures, window, retry);
        }
    }
}
