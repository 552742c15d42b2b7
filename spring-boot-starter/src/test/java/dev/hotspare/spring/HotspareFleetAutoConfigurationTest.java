package dev.hotspare.spring;

import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.runtime.Fleet;
import dev.hotspare.fleet.runtime.SchedulerOperations.SchedulerStatus;
import dev.hotspare.memory.InMemoryLockStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.memory.InMemoryRoomStatusStore;
import dev.hotspare.memory.InMemorySchedulerStore;
import dev.hotspare.spring.internal.FleetLifecycle;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The fleet: off by default, on with {@code hotspare.fleet.enabled}, in memory, customizable, started with the context. */
class HotspareFleetAutoConfigurationTest {

    @Test
    void thereIsNoFleetUnlessEnabled() {
        Contexts.runner().run(context -> assertThat(context).doesNotHaveBean(Fleet.class).doesNotHaveBean(FleetLifecycle.class));
        Contexts.runner().withPropertyValues("hotspare.fleet.enabled=false").run(context ->
                assertThat(context).doesNotHaveBean(Fleet.class));
    }

    @Test
    void anEnabledFleetRunsInMemoryAndBringsUpItsSchedulersMinimumRooms() {
        Contexts.runner().withPropertyValues("hotspare.fleet.enabled=true", "hotspare.fleet.sync-period=100ms").run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(Fleet.class).hasSingleBean(FleetLifecycle.class);
            Fleet fleet = context.getBean(Fleet.class);
            assertThat(fleet.schedulerStore()).isInstanceOf(InMemorySchedulerStore.class);
            assertThat(fleet.roomStatusStore()).isInstanceOf(InMemoryRoomStatusStore.class);
            assertThat(fleet.memberDriver()).isInstanceOf(InMemoryMemberDriver.class);
            assertThat(fleet.locks()).extracting("store").isInstanceOf(InMemoryLockStore.class);
            assertThat(context.getBean(FleetLifecycle.class).isRunning()).isTrue();
            fleet.operations().create("""
                    name: pong
                    game: pong
                    image: pong:1
                    autoscaling: {min: 2}
                    """);
            await().atMost(Duration.ofSeconds(30)).until(() -> fleet.memberDriver().list("pong").size() == 2);
            SchedulerStatus status = fleet.operations().status("pong");
            assertThat(status.name()).isEqualTo("pong");
        });
    }

    @Test
    void fleetCustomizersRunLastAndTheLifecycleStopsTheFleetWithTheContext() {
        AtomicReference<FleetLifecycle> lifecycle = new AtomicReference<>();
        Contexts.runner().withUserConfiguration(OwnAutoscaler.class).withPropertyValues("hotspare.fleet.enabled=true").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(Fleet.class).schedulerStore()).isSameAs(OwnAutoscaler.SCHEDULERS);
            lifecycle.set(context.getBean(FleetLifecycle.class));
        });
        assertThat(lifecycle.get().isRunning()).isFalse();
    }

    @Test
    void fleetDurationsOutOfRangeNameTheirProperties() {
        Contexts.runner().withPropertyValues("hotspare.fleet.enabled=true", "hotspare.fleet.lock-ttl=0s",
                "hotspare.fleet.ping-timeout=-1s", "hotspare.fleet.shutdown-timeout=-1s").run(context ->
                assertThat(Contexts.problems(context)).containsExactly(
                        "hotspare.fleet.lock-ttl: bad value 'PT0S': must be a positive duration",
                        "hotspare.fleet.ping-timeout: bad value 'PT-1S': must be a positive duration",
                        "hotspare.fleet.shutdown-timeout: bad value 'PT-1S': must not be negative"));
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnAutoscaler {
        static final InMemorySchedulerStore SCHEDULERS = new InMemorySchedulerStore();

        @Bean
        HotspareFleetCustomizer ownStores() {
            return builder -> builder.schedulerStore(SCHEDULERS).autoscaler(Autoscaler.standard());
        }
    }
}
