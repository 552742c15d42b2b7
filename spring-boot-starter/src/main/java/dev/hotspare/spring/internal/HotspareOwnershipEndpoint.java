package dev.hotspare.spring.internal;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

import java.util.Map;
import java.util.Objects;

/**
 * The {@code hotspareownership} actuator endpoint: the live instances of the application's group and the pools and
 * schedulers each owns (as the fleet server's {@code GET /ownership}). Read-only. Like every actuator endpoint but
 * health it is exposed over the web only when the application lists it in
 * {@code management.endpoints.web.exposure.include} (and, with Spring Security, only as the application allows).
 */
@Endpoint(id = "hotspareownership")
public final class HotspareOwnershipEndpoint {

    private final HotspareOwnership ownership;

    /**
     * The endpoint over the application's ownership.
     *
     * @param ownership the application's ownership bean
     */
    public HotspareOwnershipEndpoint(HotspareOwnership ownership) {
        this.ownership = Objects.requireNonNull(ownership, "ownership");
    }

    /**
     * The division of work as this instance sees it.
     *
     * @return the live instances and what each owns
     */
    @ReadOperation
    public Map<String, Object> ownership() {
        return ownership.describe();
    }
}
