package dev.hotspare.fleet.versions;

import java.util.Objects;
import java.util.Optional;

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
