package dev.hotspare.spring.internal;

import dev.hotspare.kpi.KpiListener;
import dev.hotspare.ownership.runtime.OwnershipMember;
import dev.hotspare.ownership.runtime.OwnershipMember.OwnershipListener;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.spring.HotspareConfigurationException;
import dev.hotspare.spring.HotsparePoolCustomizer;
import dev.hotspare.spring.HotspareProperties;
import dev.hotspare.time.TaskScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every pool of {@code hotspare.pools}: its spec, its controller and the driver and claim store it runs on. Starts
 * the controllers with the application context (after every bean exists, so the metrics binder is bound before
 * the first pass reports anything) and stops them first on shutdown.
 */
public final class PoolRuntimes implements SmartLifecycle, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PoolRuntimes.class);

    /**
     * One pool.
     *
     * @param spec       the pool's spec
     * @param controller its controller
     * @param driver     where its members live
     * @param claims     where its claims live
     */
    public record Entry(PoolSpec spec, PoolController controller, MemberDriver driver, ClaimStore claims) {
    }

    private volatile Map<String, Entry> entries;
    private final Optional<OwnershipMember> ownership;
    private final TaskScheduler tasks;
    private final Duration retry;
    private volatile boolean running;

    /**
     * Builds a controller per pool; starts none.
     *
     * @param specs       pool name to spec
     * @param backend     the chosen store
     * @param claims      the application's own claim store, if it defines one
     * @param driver      the application's own member driver, if it defines one
     * @param tasks       the runtime's scheduler
     * @param resync      {@code hotspare.resync-period}
     * @param spacing     {@code hotspare.pass-spacing}
     * @param kpis        every KPI listener of the application (the Micrometer binder among them)
     * @param customizers the application's pool customizers, in order
     * @param ownership   this instance's membership, when instances divide the pools between them
     * @throws HotspareConfigurationException when the store cannot run pools or a setting is out of range
     */
    public PoolRuntimes(Map<String, PoolSpec> specs, Backend backend, Optional<ClaimStore> claims,
                        Optional<MemberDriver> driver, TaskScheduler tasks, Duration resync, Duration spacing, KpiListener kpis,
                        List<HotsparePoolCustomizer> customizers, Optional<OwnershipMember> ownership) {
        Map<String, Entry> built = new LinkedHashMap<>();
        this.ownership = specs.isEmpty() ? Optional.empty() : ownership;
        // Each pool runs in the one live instance that owns it; a pool that changes owner gets a pass at once.
        Optional<OwnershipMember.OwnedKeys> owned = this.ownership.map(member -> member.track("pool", specs::keySet,
                new OwnershipListener() {
                    @Override
                    public void acquired(String kind, String key, long fencingToken, Duration waited) {
                        Entry entry = entries == null ? null : entries.get(key);
                        if (entry != null) {
                            entry.controller().requestReconcile();
                        }
                    }
                }));
        if (!specs.isEmpty()) {
            if (resync.isNegative() || resync.isZero()) {
                throw new HotspareConfigurationException(HotspareProperties.PREFIX + ".resync-period", resync,
                        "must be a positive duration");
            }
            if (spacing.isNegative()) {
                throw new HotspareConfigurationException(HotspareProperties.PREFIX + ".pass-spacing", spacing,
                        "must not be negative");
            }
            ClaimStore claimStore = claims.orElseGet(backend::claimStore);
            MemberDriver memberDriver = driver.orElseGet(backend::memberDriver);
            if (driver.isEmpty()) {
                backend.checkPools(specs);
            }
            warnAboutVolatileState(backend, claims.isPresent(), driver.isPresent(), specs.keySet());
            specs.forEach((name, spec) -> {
                PoolController.Builder builder = PoolController.builder(spec).memberDriver(memberDriver).claimStore(claimStore)
                        .scheduler(tasks).resyncPeriod(resync).passSpacing(spacing).listener(kpis);
                owned.ifPresent(pools -> builder.owned(() -> pools.fence(name).isPresent()));
                customizers.forEach(c -> c.customize(name, builder));
                built.put(name, new Entry(spec, builder.build(), memberDriver, claimStore));
            });
        }
        this.entries = java.util.Collections.unmodifiableMap(built);
        this.tasks = tasks;
        this.retry = resync;
    }

    /** Says at startup what does not survive a restart, so nobody finds out by losing claims. */
    private static void warnAboutVolatileState(Backend backend, boolean ownClaims, boolean ownDriver, Collection<String> pools) {
        String store = backend.store().propertyValue();
        if (!ownClaims && !backend.durableClaims() && backend.durableMembers()) {
            LOG.warn("pools {}: members are kept by hotspare.store={}, but their claims in memory ({} keeps no claims);"
                    + " after a restart claimed members are deleted as orphans. Define a ClaimStore bean (a PostgresClaimStore)"
                    + " to keep claims.", pools, store, store);
        }
        if (!ownDriver && backend.durableClaims() && !backend.durableMembers()) {
            LOG.warn("pools {}: claims are kept by hotspare.store={}, but members in this process's memory ({} keeps no"
                    + " members); run one instance, or define a MemberDriver bean (a Kubernetes member driver).", pools, store, store);
        }
    }

    /**
     * The pool called {@code name}.
     *
     * @param name the pool's key under {@code hotspare.pools}
     * @return its entry
     * @throws IllegalArgumentException when there is no such pool
     */
    public Entry entry(String name) {
        Entry entry = entries.get(name);
        if (entry == null) {
            throw new IllegalArgumentException("pool: bad value '" + name + "': no such pool; known: " + entries.keySet());
        }
        return entry;
    }

    /**
     * Every pool, in the order the properties list them.
     *
     * @return pool name to entry, unmodifiable
     */
    public Map<String, Entry> entries() {
        return entries;
    }

    /**
     * Starts every pool. A pool whose store does not answer does not stop the application: it is started again
     * every resync period, once its claim store answers, and its health is DOWN meanwhile.
     */
    @Override
    public void start() {
        running = true;
        ownership.ifPresent(OwnershipMember::start);
        entries.forEach((name, entry) -> start(name, entry, false));
        if (!entries.isEmpty()) {
            LOG.info("hotspare pools started: {}", entries.keySet());
        }
    }

    private void start(String name, Entry entry, boolean retrying) {
        if (!running) {
            return;
        }
        try {
            if (retrying) {
                // PoolController.start is not atomic (a failure after the driver's watch keeps that subscription):
                // try again only once the claim store answers, so a long outage does not pile up subscriptions.
                entry.claims().live(name);
            }
            entry.controller().start();
            if (retrying) {
                LOG.info("hotspare pool {} started: its store answers again", name);
            }
        } catch (RuntimeException e) {
            if (!retrying) {
                LOG.warn("hotspare pool {} cannot start, its store does not answer ({}); trying again every {}", name,
                        StoreCheck.reason(e), retry);
            }
            tasks.schedule(retry, () -> start(name, entry, true));
        }
    }

    @Override
    public void stop() {
        close();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public void close() {
        running = false;
        entries.values().forEach(entry -> entry.controller().close());
    }
}
