package dev.hotspare.fleetserver;

import dev.hotspare.fleetserver.FleetServiceSettings.Option;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The ownership flags: on by themselves on a shared store, off in memory, every bad value named. */
class FleetServiceOwnershipTest {

    @Test
    void onASharedStoreInstancesDivideTheSchedulersByDefault() {
        FleetServiceSettings settings = FleetServiceSettings.parse(Map.of(Option.INSECURE_NO_AUTH, "true", Option.REDIS_URI, "redis://localhost:6379/0"), Map.of());
        assertThat(settings.ownership()).isTrue();
        assertThat(settings.fleet().instanceId()).isEmpty();
        assertThat(settings.fleet().ownershipLeaseTtl()).isEqualTo(Duration.ofSeconds(15));
        assertThat(settings.fleet().ownershipHeartbeat()).isEqualTo(Duration.ofSeconds(5));
        assertThat(settings.describeStores()).endsWith(" ownership=on");
        assertThat(FleetServiceSettings.defaultInstanceId()).matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")
                .contains("-" + ProcessHandle.current().pid() + "-");
    }

    @Test
    void inMemoryOrSwitchedOffAnInstanceActsOnEveryScheduler() {
        assertThat(FleetServiceSettings.parse(Map.of(Option.INSECURE_NO_AUTH, "true"), Map.of()).ownership()).isFalse();
        assertThat(FleetServiceSettings.parse(Map.of(Option.INSECURE_NO_AUTH, "true", Option.JDBC_URL, "jdbc:postgresql://localhost/x", Option.OWNERSHIP, "false"),
                Map.of()).ownership()).isFalse();
        assertThat(FleetServiceSettings.parse(Map.of(Option.INSECURE_NO_AUTH, "true", Option.JDBC_URL, "jdbc:postgresql://localhost/x", Option.INSTANCE_ID, "fleet-a",
                Option.OWNERSHIP_LEASE_TTL, "30", Option.OWNERSHIP_HEARTBEAT, "10"), Map.of()).fleet())
                .isEqualTo(dev.hotspare.fleet.runtime.FleetSettings.builder().instanceId("fleet-a").ownershipLeaseTtl(Duration.ofSeconds(30))
                        .ownershipHeartbeat(Duration.ofSeconds(10)).build());
        assertThat(FleetServiceSettings.parse(Map.of(Option.INSECURE_NO_AUTH, "true"), Map.of("HOTSPARE_OWNERSHIP", "false", "HOTSPARE_REDIS_URI",
                "redis://localhost:6379/0")).ownership()).isFalse();
    }

    @Test
    void everyBadOwnershipValueIsNamed() {
        assertThatThrownBy(() -> FleetServiceSettings.parse(Map.of(Option.INSECURE_NO_AUTH, "true", Option.OWNERSHIP, "true"), Map.of()))
                .isInstanceOf(ValidationException.class).hasMessageContaining("--ownership").hasMessageContaining("--redis-uri");
        assertThatThrownBy(() -> FleetServiceSettings.parse(Map.of(Option.INSECURE_NO_AUTH, "true", Option.OWNERSHIP, "maybe", Option.INSTANCE_ID, "Fleet_A"), Map.of()))
                .isInstanceOf(ValidationException.class).hasMessageContaining("maybe").hasMessageContaining("Fleet_A");
        assertThatThrownBy(() -> FleetServiceSettings.parse(Map.of(Option.INSECURE_NO_AUTH, "true", Option.REDIS_URI, "redis://localhost:6379/0",
                Option.OWNERSHIP_LEASE_TTL, "10", Option.OWNERSHIP_HEARTBEAT, "5"), Map.of()))
                .isInstanceOf(ValidationException.class).hasMessageContaining("--ownership-heartbeat").hasMessageContaining("--ownership-lease-ttl");
    }
}
