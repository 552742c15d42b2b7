package dev.hotspare.rollout;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Selects devices whose labels contain every one of {@code matchLabels}. An empty selector is rejected by
 * {@link RolloutSpec} validation, because it would swallow every later group.
 *
 * @param matchLabels label key to required value
 */
public record LabelSelector(Map<String, String> matchLabels) {

    public LabelSelector {
        matchLabels = matchLabels == null ? Map.of() : Map.copyOf(matchLabels);
    }

    @JsonCreator
    static LabelSelector fromJson(@JsonProperty("matchLabels") Map<String, String> matchLabels) {
        return new LabelSelector(matchLabels);
    }

    /** A selector for one label. */
    public static LabelSelector of(String key, String value) {
        return new LabelSelector(Map.of(key, value));
    }

    /** Whether a target with {@code labels} is selected. */
    public boolean matches(Map<String, String> labels) {
        for (Map.Entry<String, String> required : matchLabels.entrySet()) {
            if (!required.getValue().equals(labels.get(required.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /** {@code key=value,key2=value2}, keys sorted. */
    public String describe() {
        return new TreeMap<>(matchLabels).entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
    }
}
