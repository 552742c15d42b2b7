package dev.hotspare.fleet.versions;

import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The field-level difference between two scheduler configurations and what it means for the rooms.
 * Works on the JSON form of a configuration (as stored in a {@link dev.hotspare.fleet.ConfigDocument}), so it
 * needs no knowledge of every config field: a change under one of the {@link #ROOM_DEFINING_FIELDS} makes a
 * major release (rooms are replaced); any other change is minor. Pure.
 *
 * <p>Objects are compared field by field, lists element by element by index (a reordered env list is a
 * change, as it is for the pod), and an explicit {@code null} is the same as an absent field.
 *
 * @param kind    NONE, MINOR or MAJOR
 * @param changes every differing field, ordered by path
 */
public record ConfigDiff(ChangeKind kind, List<FieldChange> changes) {

    /** Top-level fields that define the room itself; changing any of them replaces the rooms. */
    public static final Set<String> ROOM_DEFINING_FIELDS = Set.of(
            "image", "ports", "requests", "limits", "cmd", "env", "affinity", "toleration", "shutdownTimeout");

    public ConfigDiff {
        Objects.requireNonNull(kind, "kind");
        changes = List.copyOf(changes);
    }

    /**
     * The difference from {@code before} to {@code after}. Neither tree is modified.
     */
    public static ConfigDiff between(JsonNode before, JsonNode after) {
        List<FieldChange> changes = new ArrayList<>();
        compare("", before, after, changes);
        changes.sort(java.util.Comparator.comparing(FieldChange::path));
        ChangeKind kind = changes.isEmpty() ? ChangeKind.NONE
                : changes.stream().anyMatch(c -> ROOM_DEFINING_FIELDS.contains(c.rootField())) ? ChangeKind.MAJOR
                : ChangeKind.MINOR;
        return new ConfigDiff(kind, changes);
    }

    /**
     * Whether rooms must be replaced.
     */
    public boolean isMajor() {
        return kind == ChangeKind.MAJOR;
    }

    /**
     * {@code major}, {@code minor} or {@code none}, then one line per change.
     */
    public String describe() {
        StringBuilder out = new StringBuilder(kind.name().toLowerCase(java.util.Locale.ROOT));
        out.append(switch (kind) {
            case MAJOR -> " (rooms are replaced)";
            case MINOR -> " (rooms are kept)";
            case NONE -> " (no differences)";
        });
        for (FieldChange change : changes) {
            out.append('\n').append("  ").append(change.describe());
        }
        return out.toString();
    }

    private static void compare(String path, JsonNode before, JsonNode after, List<FieldChange> out) {
        boolean hasBefore = before != null && !before.isNull() && !before.isMissingNode();
        boolean hasAfter = after != null && !after.isNull() && !after.isMissingNode();
        if (!hasBefore && !hasAfter) {
            return;
        }
        if (!hasBefore || !hasAfter) {
            out.add(new FieldChange(path, render(hasBefore ? before : null), render(hasAfter ? after : null)));
            return;
        }
        if (before.isObject() && after.isObject()) {
            Set<String> names = new TreeSet<>();
            before.propertyNames().forEach(names::add);
            after.propertyNames().forEach(names::add);
            for (String name : names) {
                compare(path.isEmpty() ? name : path + "." + name, before.get(name), after.get(name), out);
            }
        } else if (before.isArray() && after.isArray()) {
            int size = Math.max(before.size(), after.size());
            for (int i = 0; i < size; i++) {
                compare(path + "[" + i + "]", before.get(i), after.get(i), out);
            }
        } else if (!sameValue(before, after)) {
            out.add(new FieldChange(path, render(before), render(after)));
        }
    }

    /** Scalars compare by value, so {@code 180} and {@code 180.0} are the same number. */
    private static boolean sameValue(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        return a.equals(b);
    }

    private static Optional<String> render(JsonNode node) {
        return node == null ? Optional.empty() : Optional.of(node.toString());
    }

    /** What a configuration change means for the rooms. */
    public enum ChangeKind {
        /** Nothing changed. */
        NONE,
        /** Only how hotspare manages the rooms changed (autoscaling, forwarders, timeouts...): rooms stay. */
        MINOR,
        /** The rooms themselves changed (image, ports, resources, cmd, env, placement, shutdown): rooms are replaced. */
        MAJOR
    }

    /**
     * One field-level difference between two configurations.
     *
     * @param path   dotted path with {@code [i]} for list elements, e.g. {@code ports[0].containerPort}
     * @param before the old value as compact JSON, empty if the field was added
     * @param after  the new value as compact JSON, empty if the field was removed
     */
    public record FieldChange(String path, Optional<String> before, Optional<String> after) {

        public FieldChange {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(before, "before");
            Objects.requireNonNull(after, "after");
            if (before.isEmpty() && after.isEmpty()) {
                throw new IllegalArgumentException("path: bad value '" + path + "': a change needs a before or an after value");
            }
        }

        /**
         * The top-level field this change is under, e.g. {@code ports} for {@code ports[0].containerPort}.
         */
        public String rootField() {
            int end = path.length();
            for (int i = 0; i < path.length(); i++) {
                char c = path.charAt(i);
                if (c == '.' || c == '[') {
                    end = i;
                    break;
                }
            }
            return path.substring(0, end);
        }

        /**
         * One line: {@code + path: new}, {@code - path: old} or {@code ~ path: old -> new}.
         */
        public String describe() {
            if (before.isEmpty()) {
                return "+ " + path + ": " + after.get();
            }
            if (after.isEmpty()) {
                return "- " + path + ": " + before.get();
            }
            return "~ " + path + ": " + before.get() + " -> " + after.get();
        }
    }
}
