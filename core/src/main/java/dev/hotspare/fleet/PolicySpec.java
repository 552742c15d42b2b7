package dev.hotspare.fleet;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Maestro 10's {@code autoscaling.policy}: one policy that names the number of rooms the fleet should have, with
 * its parameters. Maestro 10's nested form, {@code parameters: {roomOccupancy: {readyTarget: 0.5}}}, is read as
 * the flat {@code parameters: {readyTarget: 0.5}}.
 *
 * @param type       the policy: {@code roomOccupancy}, {@code fixedBuffer} or a plug-in's
 * @param parameters its parameters, checked against what the policy declares
 */
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
public record PolicySpec(@Required String type, Map<String, Object> parameters) {

    /**
     * Copies the parameters and reads Maestro 10's nested form.
     *
     * @param type the policy: {@code roomOccupancy}, {@code fixedBuffer} or a plug-in's
     * @param parameters its parameters, checked against what the policy declares
     */
    public PolicySpec {
        type = type == null ? "" : type;
        parameters = parameters == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(unnest(type, parameters)));
    }

    /**
     * A policy of {@code type} with {@code parameters}.
     *
     * @param type       the policy
     * @param parameters its parameters
     * @return the spec
     */
    public static PolicySpec of(String type, Map<String, Object> parameters) {
        return new PolicySpec(type, parameters);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> unnest(String type, Map<String, Object> parameters) {
        if (parameters.size() == 1 && parameters.get(type) instanceof Map<?, ?> nested) {
            return (Map<String, Object>) nested;
        }
        return parameters;
    }
}
