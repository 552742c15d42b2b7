package dev.hotspare.spring;

import dev.hotspare.fleet.runtime.FleetSettings;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.io.Resource;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Everything under {@code hotspare.*}: the store, the pools, the fleet and the adapters' settings. Bound by
 * Spring Boot from {@code application.yaml} / {@code application.properties}, the environment and the command
 * line; docs/spring-boot.md lists every property with its default.
 */
@ConfigurationProperties(prefix = HotspareProperties.PREFIX)
public class HotspareProperties {

    /** The prefix of every property hotspare reads. */
    public static final String PREFIX = "hotspare";

    /**
     * Where hotspare keeps its state: memory (the default: nothing survives a restart), postgres (pool claims,
     * fleet schedulers and locks in the application's DataSource), redis (fleet locks, room statuses and usage
     * history through the application's Lettuce RedisClient; no pool claims) or kubernetes (pool members as
     * custom resources, fleet rooms as pods and locks as Leases through the application's fabric8
     * KubernetesClient).
     */
    private Store store = Store.MEMORY;

    /**
     * Pools by name, each with the fields of a pool spec: size (required), running-count, max-size,
     * max-concurrent, hibernate-after, resume-timeout, claim-lifetime.default, claim-lifetime.maximum,
     * template-version, orphan-grace-period, deleted, aging-limit, and auto-sizing.target-wait (p95 <= 30s),
     * auto-sizing.min, auto-sizing.max, auto-sizing.max-step, auto-sizing.cooldown, auto-sizing.overrides[0],
     * auto-sizing.zone, auto-sizing.apply (false: shadow mode) for running-count: auto. Durations are written 40m, 2h30m, 500ms or ISO-8601 (PT40M). The name is the key and must be a DNS-1123 label.
     */
    private Map<String, Map<String, Object>> pools = new LinkedHashMap<>();

    /** Threads of the scheduled executor that runs reconcile passes, the fleet's worker and lease renewals. */
    private int threads = 2;

    /** How often each pool reconciles when nothing changes (it also reconciles on every member or claim change). */
    private Duration resyncPeriod = Duration.ofSeconds(30);

    /**
     * Least time between the starts of two passes that events ask for, in each pool (zero: none). For pools serving
     * hundreds of claims a second or more, e.g. 50ms: requests in between collapse into one pass.
     */
    private Duration passSpacing = Duration.ZERO;

    private final Memory memory = new Memory();
    private final Postgres postgres = new Postgres();
    private final Redis redis = new Redis();
    private final Kubernetes kubernetes = new Kubernetes();
    private final Fleet fleet = new Fleet();
    private final Ownership ownership = new Ownership();

    /**
     * The store hotspare keeps its state in.
     *
     * @return the configured store, {@link Store#MEMORY} by default
     */
    public Store getStore() {
        return store;
    }

    /**
     * Chooses the store.
     */
    public void setStore(Store store) {
        this.store = store;
    }

    /**
     * The pools as written: pool name to its fields, unconverted. The starter turns each into a
     * {@link dev.hotspare.pool.PoolSpec} with the spec's own validation.
     *
     * @return pool name to fields (a mutable map, as Spring's binder needs)
     */
    public Map<String, Map<String, Object>> getPools() {
        return pools;
    }

    /**
     * Replaces the pools.
     *
     * @param pools pool name to fields
     */
    public void setPools(Map<String, Map<String, Object>> pools) {
        this.pools = pools;
    }

    /**
     * Threads of the starter's scheduled executor.
     *
     * @return the thread count, 2 by default
     */
    public int getThreads() {
        return threads;
    }

    /**
     * Sets the threads of the starter's scheduled executor.
     *
     * @param threads the thread count, at least 1
     */
    public void setThreads(int threads) {
        this.threads = threads;
    }

    /**
     * How often each pool reconciles when nothing changes.
     *
     * @return the period, 30 s by default
     */
    public Duration getResyncPeriod() {
        return resyncPeriod;
    }

    /**
     * Sets how often each pool reconciles when nothing changes.
     *
     * @param resyncPeriod a positive period
     */
    public void setResyncPeriod(Duration resyncPeriod) {
        this.resyncPeriod = resyncPeriod;
    }

    /**
     * The least time between the starts of two passes that events ask for, in each pool
     * ({@code PoolController.Builder.passSpacing}).
     *
     * @return zero by default: a pass starts as soon as one is asked for
     */
    public Duration getPassSpacing() {
        return passSpacing;
    }

    /**
     * Sets the least time between the starts of two passes that events ask for, in each pool.
     *
     * @param passSpacing zero or more
     */
    public void setPassSpacing(Duration passSpacing) {
        this.passSpacing = passSpacing;
    }

    /**
     * Settings of the in-memory member driver.
     */
    public Memory getMemory() {
        return memory;
    }

    /**
     * Settings of the PostgreSQL stores.
     */
    public Postgres getPostgres() {
        return postgres;
    }

    /**
     * Settings of the Redis stores.
     */
    public Redis getRedis() {
        return redis;
    }

    /**
     * Settings of the Kubernetes drivers and locks.
     */
    public Kubernetes getKubernetes() {
        return kubernetes;
    }

    /**
     * Settings of the game-room fleet.
     */
    public Fleet getFleet() {
        return fleet;
    }

    /**
     * How instances that share a store divide the pools and schedulers between them.
     *
     * @return the ownership settings
     */
    public Ownership getOwnership() {
        return ownership;
    }

    /**
     * Division of work between instances: on a shared store (postgres, redis, kubernetes) each instance keeps a
     * membership lease alive, and each pool and scheduler is run by exactly one live instance. Ignored on memory,
     * where an instance is alone.
     */
    public static class Ownership {

        /** Whether instances on a shared store divide pools and schedulers (true); false runs everything everywhere. */
        private boolean enabled = true;

        /** This instance's id among the live instances; empty: the host name (a pod's name), the process id and four random characters. */
        private String instanceId = "";

        /** The group of instances that divide work; instances of different groups share nothing. */
        private String group = "default";

        /** How long a dead instance's leases live: its pools and schedulers move within this plus one heartbeat. */
        private Duration leaseTtl = Duration.ofSeconds(15);

        /** How often leases are renewed and work divided again; under half the lease TTL. */
        private Duration heartbeat = Duration.ofSeconds(5);

        /**
         * Whether instances divide work.
         *
         * @return true by default
         */
        public boolean isEnabled() {
            return enabled;
        }

        /**
         * Sets whether instances divide work.
         *
         * @param enabled false to run every pool and scheduler in every instance
         */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /**
         * This instance's id.
         *
         * @return the configured id, empty for host name and process id
         */
        public String getInstanceId() {
            return instanceId;
        }

        /**
         * Sets this instance's id.
         *
         * @param instanceId one DNS-1123 label unique among the live instances
         */
        public void setInstanceId(String instanceId) {
            this.instanceId = instanceId;
        }

        /**
         * The group name.
         *
         * @return {@code default} by default
         */
        public String getGroup() {
            return group;
        }

        /**
         * Sets the group name.
         *
         * @param group one DNS-1123 label
         */
        public void setGroup(String group) {
            this.group = group;
        }

        /**
         * The lease TTL.
         *
         * @return 15 s by default
         */
        public Duration getLeaseTtl() {
            return leaseTtl;
        }

        /**
         * Sets the lease TTL.
         *
         * @param leaseTtl more than twice the heartbeat
         */
        public void setLeaseTtl(Duration leaseTtl) {
            this.leaseTtl = leaseTtl;
        }

        /**
         * The heartbeat.
         *
         * @return 5 s by default
         */
        public Duration getHeartbeat() {
            return heartbeat;
        }

        /**
         * Sets the heartbeat.
         *
         * @param heartbeat under half the lease TTL
         */
        public void setHeartbeat(Duration heartbeat) {
            this.heartbeat = heartbeat;
        }
    }

    /** The stores hotspare can keep its state in. */
    public enum Store {
        /** Everything in memory: the embedded default; nothing survives a restart. */
        MEMORY,
        /** PostgreSQL through the application's {@code DataSource}. */
        POSTGRES,
        /** Redis through the application's Lettuce {@code RedisClient} (fleets only). */
        REDIS,
        /** Kubernetes through the application's fabric8 {@code KubernetesClient}. */
        KUBERNETES;

        /**
         * The value as written in {@code hotspare.store}.
         *
         * @return the lower-case name
         */
        public String propertyValue() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The in-memory member driver: members exist only in this process, with simulated durations. */
    public static class Memory {

        /** How long an in-memory member takes to install. */
        private Duration installTime = Duration.ZERO;

        /** How long an in-memory member takes to resume from hibernation. */
        private Duration resumeTime = Duration.ZERO;

        /** How long an in-memory member takes to hibernate. */
        private Duration hibernateTime = Duration.ZERO;

        /** How long an in-memory member stays deleting before it is gone. */
        private Duration deleteTime = Duration.ZERO;

        /**
         * How long an in-memory member takes to install.
         *
         * @return the install time, zero by default
         */
        public Duration getInstallTime() {
            return installTime;
        }

        /**
         * Sets how long an in-memory member takes to install.
         *
         * @param installTime a non-negative duration
         */
        public void setInstallTime(Duration installTime) {
            this.installTime = installTime;
        }

        /**
         * How long an in-memory member takes to resume.
         *
         * @return the resume time, zero by default
         */
        public Duration getResumeTime() {
            return resumeTime;
        }

        /**
         * Sets how long an in-memory member takes to resume.
         *
         * @param resumeTime a non-negative duration
         */
        public void setResumeTime(Duration resumeTime) {
            this.resumeTime = resumeTime;
        }

        /**
         * How long an in-memory member takes to hibernate.
         *
         * @return the hibernate time, zero by default
         */
        public Duration getHibernateTime() {
            return hibernateTime;
        }

        /**
         * Sets how long an in-memory member takes to hibernate.
         *
         * @param hibernateTime a non-negative duration
         */
        public void setHibernateTime(Duration hibernateTime) {
            this.hibernateTime = hibernateTime;
        }

        /**
         * How long an in-memory member stays deleting.
         *
         * @return the delete time, zero by default
         */
        public Duration getDeleteTime() {
            return deleteTime;
        }

        /**
         * Sets how long an in-memory member stays deleting.
         *
         * @param deleteTime a non-negative duration
         */
        public void setDeleteTime(Duration deleteTime) {
            this.deleteTime = deleteTime;
        }
    }

    /** The PostgreSQL stores (with {@code hotspare.store=postgres}). */
    public static class Postgres {

        /** Schema of hotspare's tables, a lower-case SQL identifier. */
        private String schema = "hotspare";

        /** Whether to apply hotspare's Flyway migrations to the schema at startup (safe on many instances at once). */
        private boolean migrate = true;

        /** Most claim assignments the claim store writes in one statement (1: one transaction per assignment). */
        private int claimBatchSize = 500;

        /**
         * The most claim assignments written in one statement.
         *
         * @return 500 by default
         */
        public int getClaimBatchSize() {
            return claimBatchSize;
        }

        /**
         * Sets the most claim assignments written in one statement.
         *
         * @param claimBatchSize 1 to 10,000; 1 writes each assignment in its own transaction
         */
        public void setClaimBatchSize(int claimBatchSize) {
            this.claimBatchSize = claimBatchSize;
        }

        /**
         * The schema of hotspare's tables.
         *
         * @return the schema name, {@code hotspare} by default
         */
        public String getSchema() {
            return schema;
        }

        /**
         * Sets the schema of hotspare's tables.
         *
         * @param schema a lower-case SQL identifier
         */
        public void setSchema(String schema) {
            this.schema = schema;
        }

        /**
         * Whether the schema is migrated at startup.
         *
         * @return true by default
         */
        public boolean isMigrate() {
            return migrate;
        }

        /**
         * Sets whether the schema is migrated at startup.
         *
         * @param migrate false when the schema is applied another way
         */
        public void setMigrate(boolean migrate) {
            this.migrate = migrate;
        }
    }

    /** The Redis stores (with {@code hotspare.store=redis}). */
    public static class Redis {

        /** Prefix of every key hotspare writes. */
        private String keyPrefix = "hotspare";

        /** How long a health check waits for Redis to answer PING. */
        private Duration healthTimeout = Duration.ofSeconds(2);

        /**
         * The prefix of every key hotspare writes.
         *
         * @return the prefix, {@code hotspare} by default
         */
        public String getKeyPrefix() {
            return keyPrefix;
        }

        /**
         * Sets the prefix of every key hotspare writes.
         *
         * @param keyPrefix the prefix
         */
        public void setKeyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
        }

        /**
         * How long a health check waits for PING.
         *
         * @return the timeout, 2 s by default
         */
        public Duration getHealthTimeout() {
            return healthTimeout;
        }

        /**
         * Sets how long a health check waits for PING.
         *
         * @param healthTimeout a positive duration
         */
        public void setHealthTimeout(Duration healthTimeout) {
            this.healthTimeout = healthTimeout;
        }
    }

    /** The Kubernetes drivers and locks (with {@code hotspare.store=kubernetes}). */
    public static class Kubernetes {

        /** Namespace of pool members and fleet Leases; empty means the client's namespace. */
        private String namespace = "";

        /** Prefix of the namespace of each fleet scheduler's room pods (namespace = prefix + scheduler). */
        private String roomNamespacePrefix = "";

        /** Whether each fleet room also gets a NodePort service (for room addresses). */
        private boolean nodePortServices = false;

        private final Members members = new Members();

        /**
         * The namespace of pool members and Leases.
         *
         * @return the namespace, empty for the client's namespace
         */
        public String getNamespace() {
            return namespace;
        }

        /**
         * Sets the namespace of pool members and Leases.
         *
         * @param namespace a namespace name, or empty for the client's
         */
        public void setNamespace(String namespace) {
            this.namespace = namespace;
        }

        /**
         * The prefix of room pod namespaces.
         *
         * @return the prefix, empty by default
         */
        public String getRoomNamespacePrefix() {
            return roomNamespacePrefix;
        }

        /**
         * Sets the prefix of room pod namespaces.
         *
         * @param roomNamespacePrefix the prefix
         */
        public void setRoomNamespacePrefix(String roomNamespacePrefix) {
            this.roomNamespacePrefix = roomNamespacePrefix;
        }

        /**
         * Whether rooms get NodePort services.
         *
         * @return false by default
         */
        public boolean isNodePortServices() {
            return nodePortServices;
        }

        /**
         * Sets whether rooms get NodePort services.
         *
         * @param nodePortServices true for a NodePort service per room
         */
        public void setNodePortServices(boolean nodePortServices) {
            this.nodePortServices = nodePortServices;
        }

        /**
         * The custom resource pool members are kept as.
         *
         * @return the member kind and templates
         */
        public Members getMembers() {
            return members;
        }

        /**
         * The custom resource kind of pool members (Hive's ClusterDeployment by default) and the template object
         * of each template version.
         */
        public static class Members {

            /** API group of the member resource. */
            private String group = "hive.openshift.io";

            /** API version of the member resource. */
            private String version = "v1";

            /** Kind of the member resource. */
            private String kind = "ClusterDeployment";

            /** Plural (the resource name in URLs) of the member resource. */
            private String plural = "clusterdeployments";

            /**
             * Template version to a YAML file holding the object each new member is copied from, e.g.
             * v1=classpath:cluster-v1.yaml. Every pool's template-version needs one.
             */
            private Map<String, Resource> templates = new LinkedHashMap<>();

            /**
             * The API group.
             *
             * @return the group, {@code hive.openshift.io} by default
             */
            public String getGroup() {
                return group;
            }

            /**
             * Sets the API group.
             */
            public void setGroup(String group) {
                this.group = group;
            }

            /**
             * The API version.
             *
             * @return the version, {@code v1} by default
             */
            public String getVersion() {
                return version;
            }

            /**
             * Sets the API version.
             */
            public void setVersion(String version) {
                this.version = version;
            }

            /**
             * The kind.
             *
             * @return the kind, {@code ClusterDeployment} by default
             */
            public String getKind() {
                return kind;
            }

            /**
             * Sets the kind.
             */
            public void setKind(String kind) {
                this.kind = kind;
            }

            /**
             * The plural resource name.
             *
             * @return the plural, {@code clusterdeployments} by default
             */
            public String getPlural() {
                return plural;
            }

            /**
             * Sets the plural resource name.
             */
            public void setPlural(String plural) {
                this.plural = plural;
            }

            /**
             * Template version to template file.
             *
             * @return the templates (a mutable map, as Spring's binder needs)
             */
            public Map<String, Resource> getTemplates() {
                return templates;
            }

            /**
             * Replaces the templates.
             *
             * @param templates template version to template file
             */
            public void setTemplates(Map<String, Resource> templates) {
                this.templates = templates;
            }
        }
    }

    /** The Maestro-style game-room fleet ({@code hotspare.fleet.enabled=true}). */
    public static class Fleet {

        /** Whether to run a fleet (schedulers, rooms, autoscaling, locks). */
        private boolean enabled = false;

        /** Lease time-to-live of the fleet's locks; leases are renewed every third of it. */
        private Duration lockTtl = FleetSettings.DEFAULTS.lockTtl();

        /** How often the fleet's worker re-reads the scheduler list. */
        private Duration syncPeriod = FleetSettings.DEFAULTS.syncPeriod();

        /** How often rolling replaces and removals check the rooms. */
        private Duration pollInterval = FleetSettings.DEFAULTS.pollInterval();

        /** How long a rolling replace (and waiting for removed rooms) may take before it rolls back. */
        private Duration replaceTimeout = FleetSettings.DEFAULTS.replaceTimeout();

        /** How long scheduler operations wait for a lock. */
        private Duration lockWait = FleetSettings.DEFAULTS.lockWait();

        /** Silence after which a room is dead. */
        private Duration pingTimeout = FleetSettings.DEFAULTS.pingTimeout();

        /** How long shutdown waits for running replaces and removals before leaving their leases to expire. */
        private Duration shutdownTimeout = Duration.ofSeconds(30);

        /**
         * Whether a fleet runs.
         *
         * @return false by default
         */
        public boolean isEnabled() {
            return enabled;
        }

        /**
         * Sets whether a fleet runs.
         *
         * @param enabled true to run a fleet
         */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /**
         * The lease TTL.
         *
         * @return the TTL, 30 s by default
         */
        public Duration getLockTtl() {
            return lockTtl;
        }

        /**
         * Sets the lease TTL.
         *
         * @param lockTtl a positive duration
         */
        public void setLockTtl(Duration lockTtl) {
            this.lockTtl = lockTtl;
        }

        /**
         * How often the scheduler list is re-read.
         *
         * @return the period, 10 s by default
         */
        public Duration getSyncPeriod() {
            return syncPeriod;
        }

        /**
         * Sets how often the scheduler list is re-read.
         *
         * @param syncPeriod a positive duration
         */
        public void setSyncPeriod(Duration syncPeriod) {
            this.syncPeriod = syncPeriod;
        }

        /**
         * How often replaces and removals check the rooms.
         *
         * @return the interval, 1 s by default
         */
        public Duration getPollInterval() {
            return pollInterval;
        }

        /**
         * Sets how often replaces and removals check the rooms.
         *
         * @param pollInterval a positive duration
         */
        public void setPollInterval(Duration pollInterval) {
            this.pollInterval = pollInterval;
        }

        /**
         * How long a rolling replace may take.
         *
         * @return the timeout, 10 min by default
         */
        public Duration getReplaceTimeout() {
            return replaceTimeout;
        }

        /**
         * Sets how long a rolling replace may take.
         *
         * @param replaceTimeout a positive duration
         */
        public void setReplaceTimeout(Duration replaceTimeout) {
            this.replaceTimeout = replaceTimeout;
        }

        /**
         * How long operations wait for a lock.
         *
         * @return the wait, 1 min by default
         */
        public Duration getLockWait() {
            return lockWait;
        }

        /**
         * Sets how long operations wait for a lock.
         *
         * @param lockWait a positive duration
         */
        public void setLockWait(Duration lockWait) {
            this.lockWait = lockWait;
        }

        /**
         * The silence after which a room is dead.
         *
         * @return the timeout, 30 s by default
         */
        public Duration getPingTimeout() {
            return pingTimeout;
        }

        /**
         * Sets the silence after which a room is dead.
         *
         * @param pingTimeout a positive duration
         */
        public void setPingTimeout(Duration pingTimeout) {
            this.pingTimeout = pingTimeout;
        }

        /**
         * How long shutdown waits for running replaces and removals.
         *
         * @return the timeout, 30 s by default
         */
        public Duration getShutdownTimeout() {
            return shutdownTimeout;
        }

        /**
         * Sets how long shutdown waits for running replaces and removals.
         *
         * @param shutdownTimeout a non-negative duration
         */
        public void setShutdownTimeout(Duration shutdownTimeout) {
            this.shutdownTimeout = shutdownTimeout;
        }
    }
}
