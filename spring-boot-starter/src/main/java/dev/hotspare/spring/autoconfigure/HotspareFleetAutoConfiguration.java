package dev.hotspare.spring.autoconfigure;

import dev.hotspare.spring.HotspareProperties;
import dev.hotspare.spring.HotspareConfigurationException;
import dev.hotspare.spring.HotspareFleetCustomizer;
import dev.hotspare.fleet.runtime.Fleet;
import dev.hotspare.kpi.KpiListener;
import dev.hotspare.spring.internal.Backend;
import dev.hotspare.spring.internal.FleetLifecycle;
import dev.hotspare.time.TaskScheduler;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;

import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import dev.hotspare.fleet.runtime.FleetSettings;

import java.util.ArrayList;
import java.util.List;

/**
 * A Maestro-style game-room fleet ({@link Fleet}) when {@code hotspare.fleet.enabled=true}: on the chosen store's
 * adapters (postgres: schedulers and locks; redis: locks, room statuses and usage history; kubernetes: rooms as
 * pods, Lease locks, usage from the metrics API; everything else in memory), with every KPI listener bean plugged
 * in, adjusted by {@link HotspareFleetCustomizer} beans, and started and stopped with the context.
 */
@AutoConfiguration(after = HotspareAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = HotspareProperties.PREFIX + ".fleet.enabled")
public class HotspareFleetAutoConfiguration {

    /** Spring instantiates auto-configurations itself. */
    public HotspareFleetAutoConfiguration() {
    }

    /**
     * The fleet, built but not started (its lifecycle bean starts it with the context).
     *
     * @param tasks       the runtime's scheduler
     * @param backend     the chosen store
     * @param kpis        every KPI listener bean
     * @param customizers the application's fleet customizers
     * @param ownership   this instance's share of the schedulers, when instances divide them
     */
    @Bean
    public Fleet hotspareFleet(TaskScheduler tasks, Backend backend, HotspareProperties properties,
                               ObjectProvider<KpiListener> kpis, ObjectProvider<HotspareFleetCustomizer> customizers,
                               dev.hotspare.spring.internal.HotspareOwnership ownership) {
        HotspareProperties.Fleet settings = properties.getFleet();
        FleetSettings fleetSettings = settings(settings);
        List<KpiListener> listeners = kpis.orderedStream().toList();
        KpiListener kpi = listeners.isEmpty() ? KpiListener.NONE : KpiListener.all(listeners);
        Fleet.Builder builder = Fleet.builder().scheduler(tasks).listener(kpi).settings(fleetSettings);
        backend.configureFleet(builder);
        ownership.member().ifPresent(builder::ownership);
        customizers.orderedStream().forEach(c -> c.customize(builder));
        return builder.build();
    }

    /**
     * The fleet's settings from {@code hotspare.fleet.*}, checked by {@link FleetSettings} (the checks every fleet
     * has); each problem is named by its property ({@code hotspare.fleet.sync-period}).
     */
    static FleetSettings settings(HotspareProperties.Fleet settings) {
        String prefix = HotspareProperties.PREFIX + ".fleet.";
        List<Problem> problems = new ArrayList<>();
        FleetSettings checked = null;
        try {
            checked = FleetSettings.builder().lockTtl(settings.getLockTtl()).syncPeriod(settings.getSyncPeriod())
                    .pollInterval(settings.getPollInterval()).replaceTimeout(settings.getReplaceTimeout())
                    .lockWait(settings.getLockWait()).pingTimeout(settings.getPingTimeout()).build();
        } catch (ValidationException e) {
            e.problems().forEach(p -> problems.add(new Problem(prefix + kebab(p.path()), p.value(), p.message())));
        }
        // Not a fleet setting: how long the application context waits for the fleet when it stops.
        if (settings.getShutdownTimeout() == null || settings.getShutdownTimeout().isNegative()) {
            problems.add(Problem.of(prefix + "shutdown-timeout", settings.getShutdownTimeout(), "must not be negative"));
        }
        if (!problems.isEmpty()) {
            throw new HotspareConfigurationException(problems);
        }
        return checked;
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * Starts the fleet with the context and shuts it down, waiting up to {@code hotspare.fleet.shutdown-timeout}.
     *
     * @param backend    the chosen store
     * @return the lifecycle
     */
    @Bean
    public FleetLifecycle hotspareFleetLifecycle(Fleet fleet, HotspareProperties properties, Backend backend) {
        return new FleetLifecycle(fleet, properties.getFleet().getShutdownTimeout(), backend);
    }
}
