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
 * @param url             where a {@code webhook} forwarder posts events: an absolute http or https URL
 * @param timeout         seconds one delivery attempt of a {@code webhook} forwarder may take (default 5)
 * @param headers         headers a {@code webhook} forwarder sends with every event
 * @param retries         attempts a {@code webhook} forwarder makes after the first fails (default 3)
 */
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
public record ForwarderConfig(boolean enabled, Optional<Boolean> forwardResponse, Map<String, Object> metadata,
                              Optional<String> url, Optional<Long> timeout, Map<String, String> headers,
                              Optional<Integer> retries) {

    /**
     * Fills in absent parts.
     *
     * @param enabled whether events are sent to it
     * @param forwardResponse whether callers that opt in see the forwarder's response (default true, as in Maestro)
     * @param metadata free-form data passed to the forwarder with scheduler events
     * @param url where a {@code webhook} forwarder posts events: an absolute http or https URL
     * @param timeout seconds one delivery attempt of a {@code webhook} forwarder may take (default 5)
     * @param headers headers a {@code webhook} forwarder sends with every event
     * @param retries attempts a {@code webhook} forwarder makes after the first fails (default 3)
     */
    public ForwarderConfig {
        forwardResponse = forwardResponse == null ? Optional.empty() : forwardResponse;
        metadata = metadata == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
        url = url == null ? Optional.empty() : url;
        timeout = timeout == null ? Optional.empty() : timeout;
        headers = headers == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        retries = retries == null ? Optional.empty() : retries;
    }

    /**
     * A forwarder without webhook settings.
     *
     * @param enabled         whether events are sent to it
     * @param forwardResponse whether callers that opt in see its response
     * @param metadata        free-form data
     */
    public ForwarderConfig(boolean enabled, Optional<Boolean> forwardResponse, Map<String, Object> metadata) {
        this(enabled, forwardResponse, metadata, Optional.empty(), Optional.empty(), Map.of(), Optional.empty());
    }

    /**
     * {@link #forwardResponse()} with its default applied.
     *
     * @return whether callers that opt in see the forwarder's response
     */
    public boolean forwardsResponse() {
        return forwardResponse.orElse(true);
    }
}
