package dev.hotspare.rollout;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.hotspare.json.Documents;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

/**
 * The persisted JSON form of a {@link RolloutState}: {@code {"formatVersion": 1, "state": {…}}}. Every store
 * writes this text (PostgreSQL as JSONB), so a state written by one backend reads back in any other, and a
 * future format change is detected instead of misread.
 */
public final class RolloutStateJson {

    /** The format this version of hotspare writes and reads. */
    public static final int FORMAT_VERSION = 1;

    private RolloutStateJson() {
    }

    /** The document shape. */
    record Document(int formatVersion, RolloutState state) {
        @JsonCreator
        Document(@JsonProperty("formatVersion") Integer formatVersion, @JsonProperty("state") RolloutState state) {
            this(formatVersion == null ? -1 : formatVersion, state);
        }
    }

    /**
     * {@code state} as one line of JSON.
     *
     * @return {@code {"formatVersion": 1, "state": {…}}}
     */
    public static String write(RolloutState state) {
        return Documents.toJsonLine(new Document(FORMAT_VERSION, state));
    }

    /**
     * Reads a state written by {@link #write}.
     *
     * @param json the document
     * @throws ValidationException if the text is not a state document, or has another format version
     */
    public static RolloutState read(String json) {
        Document doc = Documents.read(json, Documents.Format.JSON, Document.class);
        if (doc.formatVersion() != FORMAT_VERSION) {
            throw new ValidationException(Problem.of("formatVersion", doc.formatVersion(),
                    "this hotspare reads rollout state format " + FORMAT_VERSION));
        }
        if (doc.state() == null) {
            throw new ValidationException(Problem.of("state", Problem.MISSING, "required field is missing"));
        }
        return doc.state();
    }
}
