package dev.hotspare.fleet;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import dev.hotspare.fleet.SchedulerConfig.Quantity;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;
import dev.hotspare.validation.Suggestions;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Checks a parsed document tree against the shape of a config record <em>before</em> binding, so that every
 * structural problem (unknown field, wrong type, bad quantity, missing required field) is reported at once
 * instead of Jackson stopping at the first. Offending values are removed from the tree so that binding
 * still succeeds and the semantic checks can run on the rest.
 */
final class ConfigShape {

    private ConfigShape() {
    }

    /** Checks {@code root} against {@code type}, records problems, and returns the cleaned tree. */
    static JsonNode check(JsonNode root, Class<?> type, Problems problems) {
        if (!root.isObject()) {
            problems.add("", render(root), "expected a mapping of fields (an object) at the top of the document");
            return null;
        }
        return checkNode(root, type, "", problems);
    }

    /** Returns the node to keep, or null when it must be dropped. */
    private static JsonNode checkNode(JsonNode node, Type type, String path, Problems problems) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        if (type instanceof ParameterizedType parameterized) {
            Class<?> raw = (Class<?>) parameterized.getRawType();
            Type[] args = parameterized.getActualTypeArguments();
            if (raw == Optional.class) {
                return checkNode(node, args[0], path, problems);
            }
            if (raw == List.class) {
                if (!node.isArray()) {
                    problems.add(path, render(node), "expected a list");
                    return null;
                }
                ArrayNode out = ((ArrayNode) node).arrayNode();
                for (int i = 0; i < node.size(); i++) {
                    JsonNode element = checkNode(node.get(i), args[0], path + "[" + i + "]", problems);
                    if (element != null) {
                        out.add(element);
                    }
                }
                return out;
            }
            if (raw == Map.class) {
                if (!node.isObject()) {
                    problems.add(path, render(node), "expected a mapping of names to values");
                    return null;
                }
                ObjectNode out = ((ObjectNode) node).objectNode();
                for (Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> entry = it.next();
                    JsonNode value = checkNode(entry.getValue(), args[1], join(path, entry.getKey()), problems);
                    if (value != null) {
                        out.set(entry.getKey(), value);
                    }
                }
                return out;
            }
            throw new IllegalStateException("unsupported config type " + type);
        }
        Class<?> cls = (Class<?>) type;
        if (cls.isRecord()) {
            return checkRecord(node, cls, path, problems);
        }
        if (cls == Object.class) {
            return node;
        }
        if (cls == String.class) {
            if (!node.isValueNode()) {
                problems.add(path, render(node), "expected a text value");
                return null;
            }
            return node;
        }
        if (cls == int.class || cls == Integer.class || cls == long.class || cls == Long.class) {
            boolean isInt = cls == int.class || cls == Integer.class;
            Optional<Long> number = wholeNumber(node);
            if (number.isEmpty() || (isInt && (number.get() > Integer.MAX_VALUE || number.get() < Integer.MIN_VALUE))) {
                problems.add(path, render(node), "expected a whole number" + (cls == long.class || cls == Long.class ? " (seconds)" : ""));
                return null;
            }
            return JsonNodeFactory.instance.numberNode(number.get());
        }
        if (cls == boolean.class || cls == Boolean.class) {
            if (node.isBoolean()) {
                return node;
            }
            if (node.isString() && (node.asString().equals("true") || node.asString().equals("false"))) {
                return JsonNodeFactory.instance.booleanNode(Boolean.parseBoolean(node.asString()));
            }
            problems.add(path, render(node), "expected true or false");
            return null;
        }
        if (cls == Quantity.class) {
            if (!(node.isString() || node.isNumber()) || Quantity.tryParse(node.asString()).isEmpty()) {
                problems.add(path, render(node), Quantity.syntaxHelp());
                return null;
            }
            return JsonNodeFactory.instance.textNode(node.asString());
        }
        if (cls.isEnum()) {
            List<String> names = Arrays.stream(cls.getEnumConstants()).map(Object::toString).toList();
            if (!node.isString() || !names.contains(node.asString())) {
                problems.add(path, render(node), "expected one of " + String.join(", ", names));
                return null;
            }
            return node;
        }
        throw new IllegalStateException("unsupported config type " + type);
    }

    private static JsonNode checkRecord(JsonNode node, Class<?> type, String path, Problems problems) {
        if (!node.isObject()) {
            problems.add(path, render(node), "expected a mapping of fields");
            return null;
        }
        Map<String, RecordComponent> components = new LinkedHashMap<>();
        for (RecordComponent c : type.getRecordComponents()) {
            components.put(c.getName(), c);
        }
        ObjectNode out = ((ObjectNode) node).objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            String field = entry.getKey();
            RecordComponent component = components.get(field);
            String fieldPath = join(path, field);
            if (component == null) {
                String hint = Suggestions.closest(field, components.keySet())
                        .map(s -> "; did you mean '" + s + "'?")
                        .orElse("; known fields: " + components.keySet().stream().sorted().collect(Collectors.joining(", ")));
                problems.add(fieldPath, field, "unknown field" + hint);
                continue;
            }
            JsonNode value = checkNode(entry.getValue(), component.getGenericType(), fieldPath, problems);
            if (value != null) {
                out.set(field, value);
            }
        }
        for (RecordComponent c : components.values()) {
            boolean absent = node.get(c.getName()) == null || node.get(c.getName()).isNull();
            if (c.isAnnotationPresent(Required.class) && absent) {
                problems.add(join(path, c.getName()), Problem.MISSING, "required field is missing");
            }
            // The shared mappers refuse null for primitives; an absent primitive means its zero value.
            if (out.get(c.getName()) == null && c.getType().isPrimitive()) {
                out.set(c.getName(), c.getType() == boolean.class
                        ? JsonNodeFactory.instance.booleanNode(false) : JsonNodeFactory.instance.numberNode(0));
            }
        }
        return out;
    }

    private static Optional<Long> wholeNumber(JsonNode node) {
        if (node.isIntegralNumber() && node.canConvertToLong()) {
            return Optional.of(node.longValue());
        }
        if (node.isNumber() && node.decimalValue().stripTrailingZeros().scale() <= 0) {
            try {
                return Optional.of(node.decimalValue().longValueExact());
            } catch (ArithmeticException e) {
                return Optional.empty();
            }
        }
        if (node.isString()) {
            try {
                return Optional.of(Long.parseLong(node.asString().trim()));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    private static String render(JsonNode node) {
        if (node.isValueNode()) {
            return node.asString();
        }
        String text = node.toString();
        return text.length() > 60 ? text.substring(0, 57) + "..." : text;
    }

    private static String join(String path, String field) {
        return path.isEmpty() ? field : path + "." + field;
    }

    /** Keeps only the first problem per path: a structural problem explains any later semantic one. */
    static List<Problem> firstPerPath(List<Problem> structural, List<Problem> semantic) {
        List<Problem> out = new ArrayList<>(structural);
        for (Problem p : semantic) {
            boolean covered = structural.stream().anyMatch(s -> s.path().equals(p.path()));
            if (!covered) {
                out.add(p);
            }
        }
        return out;
    }
}
