package dev.hotspare.rollout;

import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

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
