package dev.hotspare.fleet;

import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;
import dev.hotspare.validation.Suggestions;
import java.util.Objects;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The scaling policies a config may name, as config validation sees them ({@link PolicyType}): the built-ins'
 * declarations live here so that validation needs no policy object, and {@code ScalingPolicies.types()} adds the
 * plug-ins'. Immutable.
 */
public final class PolicyTypes {

    /** {@code roomOccupancy}'s parameters (Maestro 10). */
    public static final List<PolicyParameter> ROOM_OCCUPANCY_PARAMETERS = List.of(
            PolicyParameter.decimal("readyTarget", "the share of match slots to keep free")
                    .above(BigDecimal.ZERO).below(BigDecimal.ONE),
            PolicyParameter.decimal("downThreshold", "scale down only when the share of free slots is at most this")
                    .atLeast(BigDecimal.ZERO).atMost(BigDecimal.ONE).withDefault(BigDecimal.ONE),
            PolicyParameter.whole("maxMatchesPerRoom", "the matches one room hosts at once")
                    .atLeast(1).atMost(RoomProtocol.MAX_RUNNING_MATCHES).withDefault(1));

    /** {@code fixedBuffer}'s parameters (Maestro 10). */
    public static final List<PolicyParameter> FIXED_BUFFER_PARAMETERS = List.of(
            PolicyParameter.whole("amount", "the ready rooms to keep above the occupied ones")
                    .atLeast(0).atMost(RoomProtocol.MAX_RUNNING_MATCHES));

    /** The built-in policies: trigger types room, cpu, mem, legacy; policies roomOccupancy, fixedBuffer. */
    public static final PolicyTypes BUILT_IN = new PolicyTypes(List.of(
            builtInTrigger(TriggerTypes.ROOM), builtInTrigger(TriggerTypes.CPU), builtInTrigger(TriggerTypes.MEM),
            builtInTrigger(TriggerTypes.LEGACY),
            new PolicyType(TriggerTypes.ROOM_OCCUPANCY, PolicyType.Kind.TARGET, ROOM_OCCUPANCY_PARAMETERS, true, null),
            new PolicyType(TriggerTypes.FIXED_BUFFER, PolicyType.Kind.TARGET, FIXED_BUFFER_PARAMETERS, true, null)));

    private final Map<String, PolicyType> byName;

    private PolicyTypes(Collection<PolicyType> types) {
        Map<String, PolicyType> map = new LinkedHashMap<>();
        for (PolicyType type : types) {
            if (map.putIfAbsent(type.name(), type) != null) {
                throw new IllegalArgumentException("type: bad value '" + type.name() + "': declared twice");
            }
        }
        this.byName = Collections.unmodifiableMap(map);
    }

    /**
     * These types.
     *
     * @param types the declarations, names unique
     * @return the set of types
     * @throws IllegalArgumentException when a name is declared twice
     */
    public static PolicyTypes of(Collection<PolicyType> types) {
        return new PolicyTypes(types);
    }

    /**
     * The built-ins plus every other name in {@code triggerTypes} as a trigger type known only by name: what a
     * caller that only has type names (plug-ins it cannot describe) validates against.
     *
     * @param triggerTypes type names
     * @return the set of types
     */
    public static PolicyTypes named(Set<String> triggerTypes) {
        Map<String, PolicyType> all = new LinkedHashMap<>(BUILT_IN.byName);
        new TreeSet<>(triggerTypes).forEach(name -> all.putIfAbsent(name, PolicyType.triggerNamed(name)));
        return new PolicyTypes(all.values());
    }

    /**
     * The declaration of {@code name}.
     *
     * @param name a type name
     * @return its declaration, if known
     */
    public Optional<PolicyType> get(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /**
     * Names of the types of {@code kind}, sorted.
     *
     * @param kind trigger or target
     */
    public Set<String> names(PolicyType.Kind kind) {
        return byName.values().stream().filter(t -> t.kind() == kind).map(PolicyType::name)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * Every declaration, in registration order.
     *
     * @return the declarations
     */
    public Collection<PolicyType> all() {
        return byName.values();
    }

    private static PolicyType builtInTrigger(String name) {
        return new PolicyType(name, PolicyType.Kind.TRIGGER, List.of(), true, null);
    }

    /**
     * What config validation knows of one scaling policy: its name, its kind, the parameters it declares and any rule
     * between them. Scaling policies describe themselves this way ({@code ScalingPolicies.types()}); the built-ins are
     * in {@link PolicyTypes#BUILT_IN}.
     *
     * @param name       the type name used in the config
     * @param kind       whether triggers name it ({@code metricsTrigger[].type}) or {@code autoscaling.policy} does
     * @param parameters the parameters it declares
     * @param declared   false for a type known only by name: its parameters are not checked
     * @param check      rules between parameter values, run once each value is acceptable on its own
     */
    public record PolicyType(String name, Kind kind, List<PolicyParameter> parameters, boolean declared, ParameterCheck check) {

        /** Where a policy goes in the config. */
        public enum Kind {
            /** Maestro 9: a trigger type measuring utilization over a window of points. */
            TRIGGER,
            /** Maestro 10: {@code autoscaling.policy}, which names the number of rooms the fleet should have. */
            TARGET
        }

        /** Rules between the values of one policy's parameters. */
        @FunctionalInterface
        public interface ParameterCheck {
            /** No rules. */
            ParameterCheck NONE = (values, path) -> List.of();

            /**
             * The problems with {@code values}, each at {@code path + "." + name}.
             *
             * @param values the values, each acceptable on its own
             * @param path   where the parameters are in the config
             * @return the problems, empty when none
             */
            List<Problem> check(PolicyParameters values, String path);
        }

        /**
         * Checks the required parts.
         *
         * @throws NullPointerException when a part is missing
         * @param name the type name used in the config
         * @param kind whether triggers name it ({@code metricsTrigger[].type}) or {@code autoscaling.policy} does
         * @param parameters the parameters it declares
         * @param declared false for a type known only by name: its parameters are not checked
         * @param check rules between parameter values, run once each value is acceptable on its own
         */
        public PolicyType {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(kind, "kind");
            parameters = List.copyOf(parameters);
            check = check == null ? ParameterCheck.NONE : check;
        }

        /**
         * A trigger type known only by name (its parameters, if any, are not checked).
         *
         * @param name the type name
         */
        public static PolicyType triggerNamed(String name) {
            return new PolicyType(name, Kind.TRIGGER, List.of(), false, ParameterCheck.NONE);
        }
    }

    /**
     * One parameter a scaling policy declares: its name, whether it is a decimal or a whole number, its bounds and its
     * default. The config validator checks every value given for it against this declaration, so a policy receives
     * only values it accepts, and a bad value is reported with its path ({@code autoscaling.policy.parameters.readyTarget})
     * and the value as written. Values are exact decimals: {@code 0.9} is 9/10, never a double near it.
     *
     * <pre>{@code
     * PolicyParameter.decimal("readyTarget", "share of slots kept free").above(BigDecimal.ZERO).below(BigDecimal.ONE)
     * PolicyParameter.whole("maxMatchesPerRoom", "matches one room hosts").atLeast(1).withDefault(1)
     * }</pre>
     *
     * @param name         the parameter's name in the config
     * @param whole        whether only whole numbers are accepted
     * @param min          the lower bound, if any
     * @param minInclusive whether the lower bound itself is accepted
     * @param max          the upper bound, if any
     * @param maxInclusive whether the upper bound itself is accepted
     * @param defaultValue the value when the config gives none; without one the parameter is required
     * @param meaning      one line for users: what it does
     */
    public record PolicyParameter(String name, boolean whole, Optional<BigDecimal> min, boolean minInclusive,
                                  Optional<BigDecimal> max, boolean maxInclusive, Optional<BigDecimal> defaultValue,
                                  String meaning) {

        /**
         * Checks the required parts.
         *
         * @throws NullPointerException when name or meaning is missing
         * @param name its name
         * @param whole whether only whole numbers are accepted
         * @param min the lower bound, if any
         * @param minInclusive whether the lower bound itself is accepted
         * @param max the upper bound, if any
         * @param maxInclusive whether the upper bound itself is accepted
         * @param defaultValue the value when the config gives none; without one the parameter is required
         * @param meaning what it does
         */
        public PolicyParameter {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(meaning, "meaning");
            min = min == null ? Optional.empty() : min;
            max = max == null ? Optional.empty() : max;
            defaultValue = defaultValue == null ? Optional.empty() : defaultValue;
        }

        /**
         * A required decimal parameter without bounds.
         *
         * @param name    its name
         * @param meaning what it does
         * @return the declaration
         */
        public static PolicyParameter decimal(String name, String meaning) {
            return new PolicyParameter(name, false, Optional.empty(), false, Optional.empty(), false, Optional.empty(), meaning);
        }

        /**
         * A required whole-number parameter without bounds.
         *
         * @param name    its name
         * @param meaning what it does
         * @return the declaration
         */
        public static PolicyParameter whole(String name, String meaning) {
            return new PolicyParameter(name, true, Optional.empty(), false, Optional.empty(), false, Optional.empty(), meaning);
        }

        /**
         * This parameter with values strictly above {@code bound}.
         *
         * @param bound the exclusive lower bound
         * @return the new declaration
         */
        public PolicyParameter above(BigDecimal bound) {
            return new PolicyParameter(name, whole, Optional.of(bound), false, max, maxInclusive, defaultValue, meaning);
        }

        /**
         * This parameter with values at or above {@code bound}.
         *
         * @param bound the inclusive lower bound
         * @return the new declaration
         */
        public PolicyParameter atLeast(BigDecimal bound) {
            return new PolicyParameter(name, whole, Optional.of(bound), true, max, maxInclusive, defaultValue, meaning);
        }

        /**
         * This parameter with values at or above {@code bound}.
         *
         * @param bound the inclusive lower bound
         * @return the new declaration
         */
        public PolicyParameter atLeast(long bound) {
            return atLeast(BigDecimal.valueOf(bound));
        }

        /**
         * This parameter with values strictly below {@code bound}.
         *
         * @param bound the exclusive upper bound
         * @return the new declaration
         */
        public PolicyParameter below(BigDecimal bound) {
            return new PolicyParameter(name, whole, min, minInclusive, Optional.of(bound), false, defaultValue, meaning);
        }

        /**
         * This parameter with values at or below {@code bound}.
         *
         * @param bound the inclusive upper bound
         * @return the new declaration
         */
        public PolicyParameter atMost(BigDecimal bound) {
            return new PolicyParameter(name, whole, min, minInclusive, Optional.of(bound), true, defaultValue, meaning);
        }

        /**
         * This parameter with values at or below {@code bound}.
         *
         * @param bound the inclusive upper bound
         * @return the new declaration
         */
        public PolicyParameter atMost(long bound) {
            return atMost(BigDecimal.valueOf(bound));
        }

        /**
         * This parameter, optional, with {@code value} when the config gives none.
         *
         * @param value the default
         * @return the new declaration
         */
        public PolicyParameter withDefault(BigDecimal value) {
            return new PolicyParameter(name, whole, min, minInclusive, max, maxInclusive, Optional.of(value), meaning);
        }

        /**
         * This parameter, optional, with {@code value} when the config gives none.
         *
         * @param value the default
         * @return the new declaration
         */
        public PolicyParameter withDefault(long value) {
            return withDefault(BigDecimal.valueOf(value));
        }

        /**
         * Whether the config must give a value.
         *
         * @return true when there is no default
         */
        public boolean required() {
            return defaultValue.isEmpty();
        }

        /**
         * The value {@code raw} (as bound from YAML or JSON: a number or a numeric text) stands for, or the problem with
         * it, reported at {@code path}.
         *
         * @param raw  the value as bound
         * @param path where it is in the config
         * @return the exact value, or the problem
         */
        public Result read(Object raw, String path) {
            BigDecimal value;
            if (raw instanceof Number || raw instanceof String) {
                try {
                    // A double's shortest text is what was written (0.9 stays 9/10) for up to 15 significant digits.
                    value = new BigDecimal(raw.toString().trim());
                } catch (NumberFormatException e) {
                    return problem(path, raw, "expected " + (whole ? "a whole number" : "a number"));
                }
            } else {
                return problem(path, raw, "expected " + (whole ? "a whole number" : "a number"));
            }
            if (whole && (value.stripTrailingZeros().scale() > 0 || value.abs().compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0)) {
                return problem(path, raw, "expected a whole number");
            }
            if (min.isPresent() && (minInclusive ? value.compareTo(min.get()) < 0 : value.compareTo(min.get()) <= 0)
                    || max.isPresent() && (maxInclusive ? value.compareTo(max.get()) > 0 : value.compareTo(max.get()) >= 0)) {
                return problem(path, raw, "must be " + range());
            }
            return new Result(Optional.of(value), Optional.empty());
        }

        /**
         * The accepted values in words, e.g. {@code "greater than 0 and less than 1"}.
         *
         * @return the range
         */
        public String range() {
            StringBuilder out = new StringBuilder(whole ? "a whole number" : "a number");
            min.ifPresent(m -> out.append(minInclusive ? " of at least " : " greater than ").append(m.toPlainString()));
            if (min.isPresent() && max.isPresent()) {
                out.append(" and");
            }
            max.ifPresent(m -> out.append(maxInclusive ? " of at most " : " less than ").append(m.toPlainString()));
            return out.toString();
        }

        private static Result problem(String path, Object raw, String why) {
            return new Result(Optional.empty(), Optional.of(Problem.of(path, raw, why)));
        }

        /**
         * The outcome of reading one value: the value or the problem.
         *
         * @param value   the exact value, when it is acceptable
         * @param problem what is wrong with it, otherwise
         */
        public record Result(Optional<BigDecimal> value, Optional<Problem> problem) {
        }
    }

    /**
     * The values of a policy's declared parameters, checked and exact, with defaults filled in: what a scaling policy
     * reads. Built by {@link #read}, which reports every unknown, missing, mistyped or out-of-range value.
     *
     * @param values parameter name → exact value
     */
    public record PolicyParameters(Map<String, BigDecimal> values) {

        /** No parameters. */
        public static final PolicyParameters NONE = new PolicyParameters(Map.of());

        /**
         * Copies the values.
         *
         * @param values parameter name → exact value
         */
        public PolicyParameters {
            values = values == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(values));
        }

        /**
         * The value of {@code name}.
         *
         * @param name a declared parameter
         * @return its exact value
         * @throws IllegalArgumentException when the parameter is not declared (a policy asking for one it did not declare)
         */
        public BigDecimal decimal(String name) {
            BigDecimal value = values.get(name);
            if (value == null) {
                throw new IllegalArgumentException("parameter '" + name + "' is not declared; declared: " + values.keySet());
            }
            return value;
        }

        /**
         * The value of the whole-number parameter {@code name}.
         *
         * @param name a declared whole-number parameter
         * @throws IllegalArgumentException when the parameter is not declared
         */
        public int whole(String name) {
            return decimal(name).intValueExact();
        }

        /**
         * Reads {@code raw} (the parameters as bound from the config) against {@code declared}, adding a problem under
         * {@code path} for each unknown parameter (with "did you mean"), each missing required one and each bad value.
         *
         * @param declared the policy's parameters
         * @param raw      the config's values
         * @param path     where the parameters are in the config, e.g. {@code autoscaling.policy.parameters}
         * @param problems where problems go
         * @return the values read (declared parameters with a bad or missing value are left out)
         */
        public static PolicyParameters read(List<PolicyParameter> declared, Map<String, Object> raw, String path, Problems problems) {
            Map<String, PolicyParameter> byName = new LinkedHashMap<>();
            declared.forEach(p -> byName.put(p.name(), p));
            for (String given : raw.keySet()) {
                if (!byName.containsKey(given)) {
                    String hint = Suggestions.closest(given, byName.keySet()).map(s -> "did you mean '" + s + "'? ").orElse("");
                    problems.add(path + "." + given, given, "unknown parameter; " + hint + (byName.isEmpty()
                            ? "this policy takes no parameters" : "known: " + String.join(", ", new TreeSet<>(byName.keySet()))));
                }
            }
            Map<String, BigDecimal> values = new LinkedHashMap<>();
            for (PolicyParameter parameter : declared) {
                Object value = raw.get(parameter.name());
                if (value == null) {
                    if (parameter.required()) {
                        problems.add(path + "." + parameter.name(), Problem.MISSING, "required: " + parameter.meaning()
                                + ", " + parameter.range());
                    } else {
                        values.put(parameter.name(), parameter.defaultValue().orElseThrow());
                    }
                    continue;
                }
                PolicyParameter.Result result = parameter.read(value, path + "." + parameter.name());
                result.problem().ifPresent(p -> problems.add(p.path(), p.value(), p.message()));
                result.value().ifPresent(v -> values.put(parameter.name(), v));
            }
            return new PolicyParameters(values);
        }

        /**
         * Reads values that were already validated: for policies at decision time.
         *
         * @param declared the policy's parameters
         * @param raw      the config's values
         * @return the values, with defaults
         * @throws dev.hotspare.validation.ValidationException when they were not valid after all
         */
        public static PolicyParameters of(List<PolicyParameter> declared, Map<String, Object> raw) {
            Problems problems = new Problems();
            PolicyParameters read = read(declared, raw, "parameters", problems);
            problems.throwIfAny();
            return read;
        }

        /**
         * The value of {@code name}, if declared.
         *
         * @param name a parameter name
         */
        public Optional<BigDecimal> find(String name) {
            return Optional.ofNullable(values.get(name));
        }
    }

    /** Names of the built-in trigger types and policies. Plug-in policies add their own names at runtime. */
    public static final class TriggerTypes {

        /** Scales on the share of rooms that are occupied. */
        public static final String ROOM = "room";
        /** Scales on cpu usage against requests. */
        public static final String CPU = "cpu";
        /** Scales on memory usage against requests. */
        public static final String MEM = "mem";
        /** Room occupancy with a fixed delta (the older {@code delta} + {@code trigger} form). */
        public static final String LEGACY = "legacy";

        /** Maestro 10: rooms for the running matches plus a share of free match slots ({@code autoscaling.policy}). */
        public static final String ROOM_OCCUPANCY = "roomOccupancy";
        /** Maestro 10: a fixed number of ready rooms above the occupied ones ({@code autoscaling.policy}). */
        public static final String FIXED_BUFFER = "fixedBuffer";

        /** The built-in trigger types ({@code metricsTrigger[].type}). */
        public static final Set<String> BUILT_IN = Set.of(ROOM, CPU, MEM, LEGACY);
        /** The built-in policies of {@code autoscaling.policy}. */
        public static final Set<String> BUILT_IN_POLICIES = Set.of(ROOM_OCCUPANCY, FIXED_BUFFER);

        private TriggerTypes() {
        }
    }
}
