package dev.hotspare.spring.internal;

import dev.hotspare.fleet.runtime.Fleet;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.postgres.PostgresClaimStore;
import dev.hotspare.postgres.PostgresLockStore;
import dev.hotspare.postgres.PostgresSchedulerStore;
import dev.hotspare.postgres.PostgresSchema;
import dev.hotspare.spring.HotspareConfigurationException;
import dev.hotspare.spring.HotspareProperties;
import dev.hotspare.time.TaskScheduler;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code hotspare.store=postgres}: on the application's {@link DataSource}, pool claims
 * ({@link PostgresClaimStore}), and the fleet's schedulers and locks. PostgreSQL keeps no members: pools' members
 * are in memory unless the application defines a {@code MemberDriver} bean; fleet room statuses and usage history
 * stay in memory (only Redis keeps those).
 */
public final class PostgresBackend implements Backend {

    /** How long a health check waits for a connection to prove itself valid. */
    private static final int VALIDATION_TIMEOUT_SECONDS = 2;

    private final DataSource dataSource;
    private final String schema;
    private final TaskScheduler tasks;
    private final HotspareProperties.Memory memory;
    private final PostgresClaimStore claims;
    private volatile dev.hotspare.fleet.lock.spi.LockStore lockStore;
    private volatile InMemoryMemberDriver members;

    /**
     * A backend on {@code dataSource}; migrates the schema first when {@code hotspare.postgres.migrate} is true.
     *
     * @param dataSource the application's data source
     * @param postgres   {@code hotspare.postgres.*}
     * @param tasks      the runtime's scheduler (for in-memory members)
     * @param memory     {@code hotspare.memory.*} (for in-memory members)
     * @throws HotspareConfigurationException when the schema name is not a valid identifier
     */
    public PostgresBackend(DataSource dataSource, HotspareProperties.Postgres postgres, TaskScheduler tasks,
                           HotspareProperties.Memory memory) {
        this.dataSource = dataSource;
        this.schema = postgres.getSchema();
        this.tasks = tasks;
        this.memory = memory;
        if (!PostgresSchema.isValidName(schema)) {
            throw new HotspareConfigurationException(HotspareProperties.PREFIX + ".postgres.schema", schema,
                    "must be a lower-case SQL identifier of at most " + PostgresSchema.MAX_SCHEMA_NAME_LENGTH + " characters");
        }
        if (postgres.getClaimBatchSize() < 1 || postgres.getClaimBatchSize() > 10_000) {
            throw new HotspareConfigurationException(HotspareProperties.PREFIX + ".postgres.claim-batch-size",
                    postgres.getClaimBatchSize(), "must be between 1 and 10000");
        }
        if (postgres.isMigrate()) {
            PostgresSchema.migrate(dataSource, schema);
        }
        this.claims = new PostgresClaimStore(dataSource, schema, postgres.getClaimBatchSize());
    }

    @Override
    public HotspareProperties.Store store() {
        return HotspareProperties.Store.POSTGRES;
    }

    @Override
    public ClaimStore claimStore() {
        return claims;
    }

    @Override
    public MemberDriver memberDriver() {
        InMemoryMemberDriver driver = members;
        if (driver == null) {
            synchronized (this) {
                if (members == null) {
                    members = MemoryBackend.memberDriver(tasks, memory);
                }
                driver = members;
            }
        }
        return driver;
    }

    @Override
    public boolean durableClaims() {
        return true;
    }

    @Override
    public boolean durableMembers() {
        return false;
    }

    @Override
    public void configureFleet(Fleet.Builder builder) {
        builder.schedulerStore(new PostgresSchedulerStore(dataSource, schema))
                .lockStore(sharedLockStore().orElseThrow());
    }

    @Override
    public StoreCheck check() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("store", "postgres");
        details.put("schema", schema);
        try (Connection connection = dataSource.getConnection()) {
            if (connection.isValid(VALIDATION_TIMEOUT_SECONDS)) {
                return StoreCheck.up(details);
            }
            return StoreCheck.down(details, "the connection did not prove valid within " + VALIDATION_TIMEOUT_SECONDS + " s");
        } catch (SQLException | RuntimeException e) {
            return StoreCheck.down(details, StoreCheck.reason(e));
        }
    }

    @Override
    public void close() {
        // The data source is the application's; the stores hold no connection between calls.
    }

    @Override
    public synchronized java.util.Optional<dev.hotspare.fleet.lock.spi.LockStore> sharedLockStore() {
        // One lock store for the fleet's locks and the membership leases: one client, one fencing history.
        if (lockStore == null) {
            lockStore = new PostgresLockStore(dataSource, schema);
        }
        return java.util.Optional.of(lockStore);
    }
}
