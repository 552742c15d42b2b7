package dev.hotspare.pool;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;

import java.io.IOException;

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
    public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_STRING && AUTO.equalsIgnoreCase(p.getText().strip())) {
            return AUTO;
        }
        return ctxt.readValue(p, Integer.class);
    }
}
