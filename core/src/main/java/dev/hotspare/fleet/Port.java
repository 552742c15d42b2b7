package dev.hotspare.fleet;

/**
 * A port a room exposes.
 *
 * @param containerPort the port inside the container, 1..65535
 * @param protocol      TCP or UDP
 * @param name          unique within a config; how a room's address names its ports
 */
public record Port(@Required int containerPort, @Required Protocol protocol, @Required String name) {

    /** Transport protocols a room port may use. */
    public enum Protocol { TCP, UDP }

    public Port {
        name = name == null ? "" : name;
        protocol = protocol == null ? Protocol.TCP : protocol;
    }
}
