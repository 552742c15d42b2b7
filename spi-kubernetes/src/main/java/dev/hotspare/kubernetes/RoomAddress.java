package dev.hotspare.kubernetes;

import java.util.Map;
import java.util.Objects;

/**
 * Where players reach a room (the room protocol's address route): the address of the node the room runs on
 * and the node port of each named room port.
 *
 * @param host  the node's external IP (or external DNS name), else its internal IP
 * @param ports port name → node port
 */
public record RoomAddress(String host, Map<String, Integer> ports) {
    public RoomAddress {
        Objects.requireNonNull(host, "host");
        ports = Map.copyOf(ports);
    }
}
