package dev.hotspare.fleet;

import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;
import dev.hotspare.validation.Suggestions;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

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
