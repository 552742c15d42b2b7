package dev.hotspare.fleet;

import dev.hotspare.validation.Problem;

import java.math.BigDecimal;
import java.util.Objects;
import java.util.Optional;

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
