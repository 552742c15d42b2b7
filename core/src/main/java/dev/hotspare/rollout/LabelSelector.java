package dev.hotspare.rollout;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import tools.jackson.databind.JsonNode;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;
import dev.hotspare.validation.Suggestions;
import dev.hotspare.validation.ValidationException;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

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
