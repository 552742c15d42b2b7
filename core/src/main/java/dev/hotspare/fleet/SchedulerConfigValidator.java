package dev.hotspare.fleet;

import dev.hotspare.fleet.PolicyTypes.PolicyType;
import dev.hotspare.fleet.PolicyTypes.TriggerTypes;
import dev.hotspare.fleet.SchedulerConfig.Autoscaling;
import dev.hotspare.fleet.SchedulerConfig.EnvVar;
import dev.hotspare.fleet.SchedulerConfig.FleetLimits;
import dev.hotspare.fleet.SchedulerConfig.LegacyTrigger;
import dev.hotspare.fleet.SchedulerConfig.MetricsTrigger;
import dev.hotspare.fleet.SchedulerConfig.Port;
import dev.hotspare.fleet.SchedulerConfig.Quantity;
import dev.hotspare.fleet.SchedulerConfig.Resources;
import dev.hotspare.fleet.SchedulerConfig.ScalingSpec;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;
import dev.hotspare.validation.Suggestions;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** The semantic rules of a scheduler config; collects every problem rather than stopping at the first. */
final class SchedulerConfigValidator {

    private static final int MAX_PORT = 65535;

    private SchedulerConfigValidator() {
    }

    static List<Problem> problems(SchedulerConfig config, PolicyTypes triggerTypes) {
        return problems(config, triggerTypes, FleetLimits.DEFAULT);
    }

    static List<Problem> problems(SchedulerConfig config, PolicyTypes triggerTypes, FleetLimits limits) {
        Problems p = new Problems();
        Names.dns1123LabelProblem(config.name()).ifPresent(why -> p.add("name", valueOrMissing(config.name()), why));
        p.require(!config.game().isBlank(), "game", valueOrMissing(config.game()), "must not be empty");
        p.require(!config.image().isBlank(), "image", valueOrMissing(config.image()), "must not be empty");
        config.occupiedTimeout().ifPresent(t -> p.require(t > 0, "occupiedTimeout", t, "must be a positive number of seconds"));
        config.shutdownTimeout().ifPresent(t -> p.require(t >= 0, "shutdownTimeout", t, "must be zero or more seconds"));
        config.occupiedTimeout().ifPresent(t -> atMostSeconds("occupiedTimeout", t, limits.maxDurationSeconds(), p));
        config.shutdownTimeout().ifPresent(t -> atMostSeconds("shutdownTimeout", t, limits.maxDurationSeconds(), p));
        ports(config.ports(), p);
        resources("requests", config.requests(), p);
        resources("limits", config.limits(), p);
        env(config.env(), p);
        autoscaling(config, triggerTypes, p);
        bounds(config.autoscaling(), limits, p);
        config.forwarders().forEach((plugin, byName) -> byName.forEach((name, settings) ->
                p.require(!name.isBlank(), "forwarders." + plugin, name, "forwarder name must not be empty")));
        PolicyRules.forwarders(config, p);
        PolicyRules.maxSurge(config, p);
        return p.list();
    }

    private static void ports(List<Port> ports, Problems p) {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < ports.size(); i++) {
            Port port = ports.get(i);
            String path = "ports[" + i + "]";
            p.require(port.containerPort() >= 1 && port.containerPort() <= MAX_PORT, path + ".containerPort",
                    port.containerPort(), "must be between 1 and " + MAX_PORT);
            if (port.name().isBlank()) {
                p.add(path + ".name", Problem.MISSING, "must not be empty");
            } else if (!names.add(port.name())) {
                p.add(path + ".name", port.name(), "duplicate port name; port names must be unique within a config");
            }
        }
    }

    private static void resources(String path, Resources resources, Problems p) {
        resources.cpu().ifPresent(q -> p.require(!q.isNegative(), path + ".cpu", q, "must not be negative"));
        resources.memory().ifPresent(q -> p.require(!q.isNegative(), path + ".memory", q, "must not be negative"));
        resources.cpu().filter(Quantity::isPositive).ifPresent(q -> within(path + ".cpu", q, FleetLimits.MIN_CPU, FleetLimits.MAX_CPU,
                "cores (1m to 10000)", p));
        resources.memory().filter(Quantity::isPositive).ifPresent(q -> within(path + ".memory", q, FleetLimits.MIN_MEMORY,
                FleetLimits.MAX_MEMORY, "bytes (1 to 1Pi)", p));
    }

    private static void within(String path, Quantity q, java.math.BigDecimal min, java.math.BigDecimal max, String unit, Problems p) {
        if (q.value().compareTo(min) < 0 || q.value().compareTo(max) > 0) {
            p.add(path, q, "must be 0 or between " + min.toPlainString() + " and " + max.toPlainString() + " " + unit);
        }
    }

    private static void atMostSeconds(String path, long seconds, long limit, Problems p) {
        if (seconds > limit) {
            p.add(path, seconds, "must be at most " + limit + " seconds (the limit of durations)");
        }
    }

    /** The limits on counts and durations (FleetLimits): what one config may ask the fleet to hold or do. */
    private static void bounds(Autoscaling a, FleetLimits limits, Problems p) {
        limits.roomsProblem("autoscaling.min", a.min()).ifPresent(pr -> p.addAll(List.of(pr)));
        limits.roomsProblem("autoscaling.max", a.max()).ifPresent(pr -> p.addAll(List.of(pr)));
        for (String direction : List.of("up", "down")) {
            ScalingSpec spec = direction.equals("up") ? a.up() : a.down();
            String path = "autoscaling." + direction;
            atMostSeconds(path + ".cooldown", spec.cooldown(), limits.maxDurationSeconds(), p);
            spec.delta().ifPresent(d -> limits.stepProblem(path + ".delta", d).ifPresent(pr -> p.addAll(List.of(pr))));
            spec.trigger().ifPresent(t -> triggerTime(path + ".trigger.time", t.time(), limits, p));
            for (int i = 0; i < spec.metricsTrigger().size(); i++) {
                MetricsTrigger t = spec.metricsTrigger().get(i);
                String tp = path + ".metricsTrigger[" + i + "]";
                triggerTime(tp + ".time", t.time(), limits, p);
                t.delta().ifPresent(d -> limits.stepProblem(tp + ".delta", d).ifPresent(pr -> p.addAll(List.of(pr))));
            }
        }
    }

    private static void triggerTime(String path, long seconds, FleetLimits limits, Problems p) {
        if (seconds > limits.maxTriggerTimeSeconds()) {
            p.add(path, seconds, "must be at most " + limits.maxTriggerTimeSeconds() + " seconds (the limit of a trigger's window)");
        }
    }

    private static void env(List<EnvVar> env, Problems p) {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < env.size(); i++) {
            EnvVar var = env.get(i);
            if (var.name().isBlank()) {
                p.add("env[" + i + "].name", Problem.MISSING, "must not be empty");
            } else if (!names.add(var.name())) {
                p.add("env[" + i + "].name", var.name(), "duplicate environment variable");
            }
        }
    }

    private static void autoscaling(SchedulerConfig config, PolicyTypes triggerTypes, Problems p) {
        Autoscaling a = config.autoscaling();
        p.require(a.min() >= 0, "autoscaling.min", a.min(), "must be zero or more");
        if (a.max() < 0) {
            p.add("autoscaling.max", a.max(), "must be 0 (unbounded) or at least min");
        } else if (a.max() > 0 && a.max() < a.min()) {
            p.add("autoscaling.max", a.max(), "must be 0 (unbounded) or at least min (" + a.min() + ")");
        }
        direction("autoscaling.up", a.up(), true, config, triggerTypes, p);
        direction("autoscaling.down", a.down(), false, config, triggerTypes, p);
        PolicyRules.policy(a, triggerTypes, p);
    }

    private static void direction(String path, ScalingSpec spec, boolean up, SchedulerConfig config,
                                  PolicyTypes types, Problems p) {
        Set<String> triggerTypes = types.names(PolicyType.Kind.TRIGGER);
        p.require(spec.cooldown() >= 0, path + ".cooldown", spec.cooldown(), "must be zero or more seconds");
        if (!spec.metricsTrigger().isEmpty() && spec.trigger().isPresent()) {
            p.add(path + ".trigger", "<present>", "use either metricsTrigger or the older delta + trigger form, not both");
        }
        if (spec.trigger().isPresent() && spec.metricsTrigger().isEmpty()) {
            // The older form is one room trigger; its delta is optional and unused, as in Maestro 9.6.1.
            LegacyTrigger t = spec.trigger().get();
            spec.delta().ifPresent(d -> p.require(d >= 1, path + ".delta", d, "must be a positive number of rooms"));
            common(path + ".trigger", t.usage(), t.threshold(), t.time(), t.limit(), up, p);
        } else if (spec.delta().isPresent() && spec.trigger().isEmpty()) {
            p.add(path + ".delta", spec.delta().get(), "delta without trigger: add a trigger, or move delta into a legacy metricsTrigger");
        }
        List<MetricsTrigger> triggers = spec.metricsTrigger();
        for (int i = 0; i < triggers.size(); i++) {
            MetricsTrigger t = triggers.get(i);
            String tp = path + ".metricsTrigger[" + i + "]";
            if (t.type().isBlank()) {
                p.add(tp + ".type", Problem.MISSING, "must name a trigger type; known types: " + known(triggerTypes));
            } else if (types.get(t.type()).filter(known -> known.kind() == PolicyType.Kind.TARGET).isPresent()) {
                p.add(tp + ".type", t.type(), "'" + t.type() + "' is a policy, not a trigger type: name it in "
                        + "autoscaling.policy.type; trigger types: " + known(triggerTypes));
            } else if (!triggerTypes.contains(t.type())) {
                // "memory" for "mem": a known name that the unknown one starts with is the likeliest intent
                String hint = Suggestions.closest(t.type(), triggerTypes)
                        .or(() -> triggerTypes.stream().filter(known -> t.type().startsWith(known)).sorted().findFirst())
                        .map(s -> "did you mean '" + s + "'? ").orElse("");
                p.add(tp + ".type", t.type(), "unknown trigger type; " + hint + "known types: " + known(triggerTypes));
            }
            common(tp, t.usage(), t.threshold(), t.time(), t.limit(), up, p);
            PolicyRules.triggerParameters(tp, t, types, p);
            t.delta().ifPresent(d -> p.require(d >= 1, tp + ".delta", d, "must be a positive number of rooms"));
            if (t.type().equals(TriggerTypes.LEGACY) && t.delta().isEmpty()) {
                p.add(tp + ".delta", Problem.MISSING, "a legacy trigger needs a fixed delta");
            }
            if (t.type().equals(TriggerTypes.CPU) && !config.requests().cpu().map(Quantity::isPositive).orElse(false)) {
                p.add(tp + ".type", t.type(), "a cpu trigger needs requests.cpu (usage is measured against it)");
            }
            if (t.type().equals(TriggerTypes.MEM) && !config.requests().memory().map(Quantity::isPositive).orElse(false)) {
                p.add(tp + ".type", t.type(), "a mem trigger needs requests.memory (usage is measured against it)");
            }
        }
    }

    private static void common(String path, int usage, int threshold, long time, Optional<Integer> limit, boolean up,
                               Problems p) {
        p.require(usage >= 1 && usage <= 100, path + ".usage", usage, "must be a percentage between 1 and 100");
        p.require(threshold >= 1 && threshold <= 100, path + ".threshold", threshold, "must be a percentage between 1 and 100");
        p.require(time >= 0, path + ".time", time, "must be zero or more seconds");
        if (limit.isPresent()) {
            int l = limit.get();
            if (!up) {
                p.add(path + ".limit", l, "limit applies to up triggers only");
            } else if (l < 1 || l > 100) {
                p.add(path + ".limit", l, "must be a percentage between 1 and 100");
            } else if (l < usage) {
                p.add(path + ".limit", l, "must not be below usage (" + usage + "): a limit scales up at once, below usage it would fight the trigger");
            }
        }
    }

    private static String known(Set<String> types) {
        return String.join(", ", new TreeSet<>(types));
    }

    private static String valueOrMissing(String value) {
        return value.isEmpty() ? Problem.MISSING : value;
    }
}
