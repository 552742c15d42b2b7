package dev.hotspare.fleet;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Configuration of one event forwarder instance ({@code forwarders.<plugin>.<name>}).
 *
 * @param enabled         whether events are sent to it
 * @param forwardResponse whether callers that opt in see the forwarder's response (default true, as in Maestro)
 * @param metadata        free-form data passed to the forwarder with scheduler events
 */
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
public record ForwarderConfig(boolean enabled, Optional<Boolean> forwardResponse, Map<String, Object> metadata) {

    public ForwarderConfig {
        forwardResponse = forwardResponse == null ? Optional.empty() : forwardResponse;
        metadata = metadata == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
    }

    /** {@link #forwardResponse()} with its default applied. */
    public boolean forwardsResponse() {
        return forwardResponse.orElse(true);
    }
}
