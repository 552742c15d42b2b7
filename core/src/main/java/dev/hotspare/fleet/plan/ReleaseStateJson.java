package dev.hotspare.fleet.plan;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import dev.hotspare.fleet.MaxSurge;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.json.Documents;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The stored form of a {@link ReleaseState}: one JSON object (PostgreSQL keeps it in a JSONB column). Stores keep
 * the text and give it back; {@link #read} of {@link #write} is the state again.
 */
public final class ReleaseStateJson {

    /** The format written by {@link #write}; {@link #read} refuses any other. */
    public static final int FORMAT_VERSION = 1;

    private ReleaseStateJson() {
    }

    /**
     * The JSON text of {@code state}.
     *
     * @return one JSON object
     */
    public static String write(ReleaseState state) {
        ObjectNode o = Documents.nodes().objectNode();
        o.put("format", FORMAT_VERSION);
        o.put("target", state.target().toString());
        state.previous().ifPresent(v -> o.put("previous", v.toString()));
        o.put("phase", state.phase().name());
        o.put("maxSurge", state.maxSurge().toString());
        o.put("timeout", state.timeout().toString());
        o.put("deadline", state.deadline().toString());
        o.put("chunkSize", state.chunkSize());
        ArrayNode chunk = o.putArray("chunk");
        state.chunk().forEach(chunk::add);
        o.put("expectedNew", state.expectedNew());
        state.failure().ifPresent(p -> o.put("failure", p.name()));
        state.rollbackOutcome().ifPresent(p -> o.put("rollbackOutcome", p.name()));
        return o.toString();
    }

    /**
     * The state {@code json} holds.
     *
     * @param json text written by {@link #write}
     * @throws IllegalArgumentException naming the field when the text is not a release state of this format
     */
    public static ReleaseState read(String json) {
        JsonNode o;
        try {
            o = Documents.jsonReader().readTree(json);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("release state: bad value: not JSON (" + e.getOriginalMessage() + ")", e);
        }
        if (o == null || !o.isObject()) {
            throw new IllegalArgumentException("release state: bad value '" + json + "': must be a JSON object");
        }
        if (o.path("format").asInt(-1) != FORMAT_VERSION) {
            throw new IllegalArgumentException("format: bad value '" + o.path("format") + "': must be " + FORMAT_VERSION);
        }
        List<String> chunk = new ArrayList<>();
        o.path("chunk").forEach(n -> chunk.add(n.asString()));
        return new ReleaseState(SchedulerVersion.parse(text(o, "target")), optional(o, "previous").map(SchedulerVersion::parse),
                ReleasePhase.valueOf(text(o, "phase")), MaxSurge.parse("maxSurge", text(o, "maxSurge")),
                Duration.parse(text(o, "timeout")), Instant.parse(text(o, "deadline")), o.path("chunkSize").asInt(),
                chunk, o.path("expectedNew").asInt(), optional(o, "failure").map(ReleasePhase::valueOf),
                optional(o, "rollbackOutcome").map(ReleasePhase::valueOf));
    }

    private static String text(JsonNode o, String field) {
        JsonNode n = o.path(field);
        if (!n.isString()) {
            throw new IllegalArgumentException(field + ": bad value '" + n + "': required text");
        }
        return n.asString();
    }

    private static Optional<String> optional(JsonNode o, String field) {
        return o.hasNonNull(field) ? Optional.of(text(o, field)) : Optional.empty();
    }
}
