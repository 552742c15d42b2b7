package dev.hotspare.spring.internal;

import dev.hotspare.fleet.runtime.Fleet;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.spring.HotspareConfigurationException;
import dev.hotspare.spring.HotspareProperties;

import java.util.Map;

/**
 * One store choice ({@code hotspare.store}) carried out: the adapters it offers for pools and for the fleet, and
 * how to tell whether the store answers. Each implementation is the only class that touches its adapter, so the
 * starter loads an adapter's classes only when that store is chosen.
 */
public interface Backend extends AutoCloseable {

    /**
     * The store this backend carries out.
     *
     * @return the store choice
     */
    HotspareProperties.Store store();

    /**
     * Where pools' claims live.
     *
     * @return the claim store, shared by every pool
     * @throws HotspareConfigurationException when this store keeps no claims
     */
    ClaimStore claimStore();

    /**
     * Where pools' members live.
     *
     * @return the member driver, shared by every pool
     */
    MemberDriver memberDriver();

    /**
     * Whether {@link #claimStore()} survives a restart of this process; when it does not, the starter says so.
     *
     * @return true when claims are durable
     */
    boolean durableClaims();

    /**
     * Whether {@link #memberDriver()} keeps members outside this process.
     *
     * @return true when members are durable
     */
    boolean durableMembers();

    /**
     * Checks what this store needs of the pools before any is built (e.g. a template per template version).
     *
     * @param specs pool name to spec
     * @throws HotspareConfigurationException naming the property at fault
     */
    default void checkPools(Map<String, PoolSpec> specs) {
    }

    /**
     * The lock store instances share, when this store is shared between processes (postgres, redis, kubernetes):
     * the one the fleet's locks use, and where instances keep their membership leases.
     *
     * @return the shared lock store; empty in memory
     */
    default java.util.Optional<dev.hotspare.fleet.lock.spi.LockStore> sharedLockStore() {
        return java.util.Optional.empty();
    }

    /**
     * Gives the fleet's builder this store's adapters (everything it has no adapter for stays in memory).
     *
     * @param builder the fleet's builder
     */
    void configureFleet(Fleet.Builder builder);

    /**
     * Asks the store whether it answers. Never throws.
     *
     * @return up or down, with details safe to show to an HTTP client
     */
    StoreCheck check();

    /** Releases what this backend opened (connections, informers); the application's client beans stay open. */
    @Override
    void close();
}
