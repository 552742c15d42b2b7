package dev.hotspare.rollout;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import tools.jackson.databind.JsonNode;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;
import dev.hotspare.validation.ValidationException;

import java.util.Optional;

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
