package dev.hotspare.pool;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.deser.std.StdDeserializer;


/**
 * Reads a spec's {@code runningCount}: a whole number as before, or the word {@code auto}. Anything else is read
 * as an integer, so a bad value gets exactly the message it always got.
 */
final class RunningCountDeserializer extends StdDeserializer<Object> {

    /** The word that asks for auto-sizing. */
    static final String AUTO = "auto";

    RunningCountDeserializer() {
        super(Object.class);
    }

    @Override
    public Object deserialize(JsonParser p, DeserializationContext ctxt) {
        if (p.currentToken() == JsonToken.VALUE_STRING && AUTO.equalsIgnoreCase(p.getString().strip())) {
            return AUTO;
        }
        return ctxt.readValue(p, Integer.class);
    }
}
