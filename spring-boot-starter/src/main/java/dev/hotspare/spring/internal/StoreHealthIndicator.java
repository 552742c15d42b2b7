package dev.hotspare.spring.internal;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/** UP when the chosen store answers, DOWN with the reason when it does not; details name the store. */
public final class StoreHealthIndicator implements HealthIndicator {

    private final Backend backend;

    /**
     * An indicator for {@code backend}.
     *
     * @param backend the chosen store
     */
    public StoreHealthIndicator(Backend backend) {
        this.backend = backend;
    }

    @Override
    public Health health() {
        StoreCheck check = backend.check();
        return (check.up() ? Health.up() : Health.down()).withDetails(check.details()).build();
    }
}
