package dev.hotspare.fleetserver;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the fleet service finds a room's address for {@code GET /scheduler/{s}/rooms/{r}/address}: on
 * Kubernetes the node address and node ports of the room pod; in memory there is none.
 */
@FunctionalInterface
public interface RoomAddresses {

    /**
     * The address of {@code room}, or empty while it is not known yet (not scheduled, no node port yet).
     */
    Optional<Address> find(String scheduler, String room);

    /**
     * No addresses: every room answers {@code {"host":"","ports":[]}}, as Maestro does for an unscheduled room.
     *
     * @return no addresses: every room answers {@code {"host":"","ports":[]}}, as Maestro does for an unscheduled
     *         room
     */
    static RoomAddresses none() {
        return (scheduler, room) -> Optional.empty();
    }

    /**
     * A room's address (Maestro's address body).
     *
     * @param host  host IP or DNS name players connect to
     * @param ports the room's named ports as reachable from outside
     */
    record Address(String host, List<NamedPort> ports) {
        public Address {
            Objects.requireNonNull(host, "host");
            ports = List.copyOf(ports);
        }
    }

    /**
     * One reachable port.
     *
     * @param port the port number players use
     * @param name the port's name in the scheduler config
     */
    record NamedPort(int port, String name) {
        public NamedPort {
            Objects.requireNonNull(name, "name");
        }
    }
}
