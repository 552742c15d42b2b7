package dev.hotspare.fleet;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import dev.hotspare.json.Documents;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.util.Objects;

/**
 * A scheduler configuration as stored: the text exactly as the user submitted it (YAML or JSON, comments and
 * all, so "config by version" returns what they wrote) and its canonical JSON form (for queries, diffs and
 * a PostgreSQL JSONB column). Immutable: the JSON is kept as text and parsed afresh by {@link #tree()}.
 *
 * @param submitted the configuration text as submitted
 * @param json      the same configuration as compact JSON
 */
public record ConfigDocument(String submitted, String json) {

    public ConfigDocument {
        Objects.requireNonNull(submitted, "submitted");
        Objects.requireNonNull(json, "json");
    }

    /**
     * Parses {@code submitted} (YAML, which includes JSON) into a document.
     *
     * @throws ValidationException if the text is not a YAML/JSON object
     * @param submitted the configuration text as submitted
     */
    public static ConfigDocument of(String submitted) {
        Objects.requireNonNull(submitted, "submitted");
        JsonNode tree;
        try {
            tree = Documents.yamlReader().readTree(submitted);
        } catch (JacksonException e) {
            throw new ValidationException(Problem.of("", abbreviate(submitted), "not valid YAML or JSON: " + Documents.cleanMessage(e.getOriginalMessage())));
        }
        if (tree == null || !tree.isObject()) {
            throw new ValidationException(Problem.of("", abbreviate(submitted), "must be a YAML or JSON object"));
        }
        return new ConfigDocument(submitted, tree.toString());
    }

    /**
     * A fresh, mutable copy of the JSON form.
     */
    public JsonNode tree() {
        try {
            return Documents.jsonReader().readTree(json);
        } catch (JacksonException e) {
            throw new IllegalStateException("json: stored configuration is not valid JSON", e);
        }
    }

    private static String abbreviate(String text) {
        // One line: the problem is printed as one line of a CLI's output or a log.
        String line = text.replace("\r", "\\r").replace("\n", "\\n");
        return line.length() <= 40 ? line : line.substring(0, 37) + "...";
    }
}
