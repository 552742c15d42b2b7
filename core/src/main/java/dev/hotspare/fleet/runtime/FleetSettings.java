package dev.hotspare.fleet.runtime;

import dev.hotspare.fleet.RoomProtocol.DeadRoomRules;
import dev.hotspare.fleet.SchedulerConfig.FleetLimits;
import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.fleet.lock.spi.LockKeys;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Every setting of a {@link Fleet} that is a value (its ports are not): written out here once and checked here once,
 * so {@link Fleet.Builder}, the fleet server's flags and the Spring starter's {@code hotspare.fleet.*} properties
 * share the names, the defaults and the checks. A fleet's watchers tick at its autoscaler's period
 * ({@code Autoscaler.settings().period()}), which is the autoscaler's setting, not one of these.
 *
 * <p>The constructor checks every value and throws one {@link ValidationException} holding a {@link Problem} per
 * bad value, each naming the component and the value ({@code syncPeriod: bad value 'PT0S': must be a positive
 * duration}).
 *
 * @param syncPeriod         how often the worker re-reads the scheduler list
 * @param pollInterval       how often replaces and removals check the rooms
 * @param replaceTimeout     how long a rolling replace (and waiting for removed rooms) may take
 * @param lockWait           how long scheduler operations wait for DOWNSCALE / TERMINATION
 * @param lockTtl            lease TTL of the scheduler locks; leases are renewed every third of it (at least 3 ms)
 * @param pingTimeout        silence after which a room is dead
 * @param allocationTimeout  how long a match slot handed out by the allocation call waits for the room to report its
 *                           match before it goes back
 * @param maxClockSkew       how far ahead of the fleet's clock a room report's timestamp may be (zero or more)
 * @param limits             the bounds of counts and durations configs and scaling requests may ask for
 * @param instanceId         this instance's id among the instances that divide the schedulers (one DNS-1123 label);
 *                           empty: the fleet acts on every scheduler
 * @param ownershipGroup     the group of instances that divide schedulers (one DNS-1123 label)
 * @param ownershipLeaseTtl  how long a dead instance's membership and scheduler leases live
 * @param ownershipHeartbeat how often those leases are renewed and the schedulers divided again (under half the TTL)
 */
public record FleetSettings(Duration syncPeriod, Duration pollInterval, Duration replaceTimeout, Duration lockWait,
                            Duration lockTtl, Duration pingTimeout, Duration allocationTimeout, Duration maxClockSkew,
                            FleetLimits limits, Optional<String> instanceId, String ownershipGroup,
                            Duration ownershipLeaseTtl, Duration ownershipHeartbeat) {

    /** The defaults: sync 10 s, poll 1 s, replace 10 min, lock wait 1 min, lock TTL 30 s, ping 30 s, allocation 60 s,
     * clock skew 60 s, {@link FleetLimits#DEFAULT}, no instance id, group {@code default}, lease 15 s, heartbeat 5 s. */
    public static final FleetSettings DEFAULTS = new FleetSettings(Duration.ofSeconds(10), Duration.ofSeconds(1),
            Duration.ofMinutes(10), Duration.ofMinutes(1), LockManager.DEFAULT_TTL, DeadRoomRules.DEFAULT_PING_TIMEOUT,
            Duration.ofSeconds(60), Duration.ofSeconds(60), FleetLimits.DEFAULT, Optional.empty(), "default",
            Duration.ofSeconds(15), Duration.ofSeconds(5));

    /** Checks every value; see the class comment. */
    public FleetSettings {
        List<Problem> problems = new ArrayList<>();
        positive("syncPeriod", syncPeriod, problems);
        positive("pollInterval", pollInterval, problems);
        positive("replaceTimeout", replaceTimeout, problems);
        positive("lockWait", lockWait, problems);
        if (positive("lockTtl", lockTtl, problems) && lockTtl.toMillis() < 3) {
            problems.add(Problem.of("lockTtl", lockTtl, "must be at least 3ms so that renewing every third of it is possible"));
        }
        positive("pingTimeout", pingTimeout, problems);
        positive("allocationTimeout", allocationTimeout, problems);
        if (maxClockSkew == null || maxClockSkew.isNegative()) {
            problems.add(Problem.of("maxClockSkew", shown(maxClockSkew), "must be zero or a positive duration"));
        }
        if (limits == null) {
            problems.add(Problem.of("limits", Problem.MISSING, "must be given (FleetLimits.DEFAULT)"));
        }
        if (instanceId == null) {
            problems.add(Problem.of("instanceId", Problem.MISSING, "must be Optional.empty() or an id"));
        } else {
            instanceId.ifPresent(id -> label("instanceId", id, problems));
        }
        label("ownershipGroup", ownershipGroup, problems);
        boolean ttlOk = positive("ownershipLeaseTtl", ownershipLeaseTtl, problems);
        boolean beatOk = positive("ownershipHeartbeat", ownershipHeartbeat, problems);
        if (ttlOk && beatOk && ownershipHeartbeat.multipliedBy(2).compareTo(ownershipLeaseTtl) >= 0) {
            problems.add(Problem.of("ownershipHeartbeat", ownershipHeartbeat,
                    "must be under half of ownershipLeaseTtl (" + ownershipLeaseTtl + ")"));
        }
        if (!problems.isEmpty()) {
            throw new ValidationException(problems);
        }
    }

    /**
     * A builder starting from {@link #DEFAULTS}.
     *
     * @return a builder whose {@link Builder#build()} checks every value at once
     */
    public static Builder builder() {
        return DEFAULTS.toBuilder();
    }

    /**
     * A builder starting from these settings.
     *
     * @return a builder whose {@link Builder#build()} checks every value at once
     */
    public Builder toBuilder() {
        return new Builder(this);
    }

    private static boolean positive(String field, Duration value, List<Problem> problems) {
        if (value == null || value.isZero() || value.isNegative()) {
            problems.add(Problem.of(field, shown(value), "must be a positive duration"));
            return false;
        }
        return true;
    }

    private static void label(String field, String value, List<Problem> problems) {
        // The same rule an ownership member applies to its id and group (a lock key segment, at most 63 characters).
        if (value == null || !LockKeys.isValid(value) || value.contains(".") || value.length() > 63) {
            problems.add(Problem.of(field, shown(value), "must be one DNS-1123 label (a-z, 0-9, '-')"));
        }
    }

    private static Object shown(Object value) {
        return value == null ? Problem.MISSING : value;
    }

    /**
     * Collects {@link FleetSettings} one value at a time; nothing is checked until {@link #build()}, which reports
     * every bad value at once.
     */
    public static final class Builder {
        private Duration syncPeriod;
        private Duration pollInterval;
        private Duration replaceTimeout;
        private Duration lockWait;
        private Duration lockTtl;
        private Duration pingTimeout;
        private Duration allocationTimeout;
        private Duration maxClockSkew;
        private FleetLimits limits;
        private Optional<String> instanceId;
        private String ownershipGroup;
        private Duration ownershipLeaseTtl;
        private Duration ownershipHeartbeat;

        private Builder(FleetSettings from) {
            this.syncPeriod = from.syncPeriod;
            this.pollInterval = from.pollInterval;
            this.replaceTimeout = from.replaceTimeout;
            this.lockWait = from.lockWait;
            this.lockTtl = from.lockTtl;
            this.pingTimeout = from.pingTimeout;
            this.allocationTimeout = from.allocationTimeout;
            this.maxClockSkew = from.maxClockSkew;
            this.limits = from.limits;
            this.instanceId = from.instanceId;
            this.ownershipGroup = from.ownershipGroup;
            this.ownershipLeaseTtl = from.ownershipLeaseTtl;
            this.ownershipHeartbeat = from.ownershipHeartbeat;
        }

        /**
         * Sets {@link FleetSettings#syncPeriod()}.
         *
         * @param value positive (default 10 s)
         * @return this builder
         */
        public Builder syncPeriod(Duration value) {
            this.syncPeriod = value;
            return this;
        }

        /**
         * Sets {@link FleetSettings#pollInterval()}.
         *
         * @param value positive (default 1 s)
         * @return this builder
         */
        public Builder pollInterval(Duration value) {
            this.pollInterval = value;
            return this;
        }

        /**
         * Sets {@link FleetSettings#replaceTimeout()}.
         *
         * @param value positive (default 10 min)
         * @return this builder
         */
        public Builder replaceTimeout(Duration value) {
            this.replaceTimeout = value;
            return this;
        }

        /**
         * Sets {@link FleetSettings#lockWait()}.
         *
         * @param value positive (default 1 min)
         * @return this builder
         */
        public Builder lockWait(Duration value) {
            this.lockWait = value;
            return this;
        }

        /**
         * Sets {@link FleetSettings#lockTtl()}.
         *
         * @param value at least 3 ms (default {@link LockManager#DEFAULT_TTL})
         * @return this builder
         */
        public Builder lockTtl(Duration value) {
            this.lockTtl = value;
            return this;
        }

        /**
         * Sets {@link FleetSettings#pingTimeout()}.
         *
         * @param value positive (default 30 s)
         * @return this builder
         */
        public Builder pingTimeout(Duration value) {
            this.pingTimeout = value;
            return this;
        }

        /**
         * Sets {@link FleetSettings#allocationTimeout()}.
         *
         * @param value positive (default 60 s)
         * @return this builder
         */
        public Builder allocationTimeout(Duration value) {
            this.allocationTimeout = value;
            return this;
        }

        /**
         * Sets {@link FleetSettings#maxClockSkew()}.
         *
         * @param value zero or more (default 60 s)
         * @return this builder
         */
        public Builder maxClockSkew(Duration value) {
            this.maxClockSkew = value;
            return this;
        }

        /**
         * Sets {@link FleetSettings#limits()}.
         *
         * @param value default {@link FleetLimits#DEFAULT}
         * @return this builder
         */
        public Builder limits(FleetLimits value) {
            this.limits = value;
            return this;
        }

        /**
         * Sets {@link FleetSettings#instanceId()}.
         *
         * @param value one DNS-1123 label, unique among the live instances (a pod or host name)
         * @return this builder
         */
        public Builder instanceId(String value) {
            this.instanceId = Optional.ofNullable(value);
            return this;
        }

        /**
         * Sets {@link FleetSettings#ownershipGroup()}.
         *
         * @param value one DNS-1123 label (default {@code default})
         * @return this builder
         */
        public Builder ownershipGroup(String value) {
            this.ownershipGroup = value;
            return this;
        }

        /**
         * Sets {@link FleetSettings#ownershipLeaseTtl()}.
         *
         * @param value positive, more than twice the heartbeat (default 15 s)
         * @return this builder
         */
        public Builder ownershipLeaseTtl(Duration value) {
            this.ownershipLeaseTtl = value;
            return this;
        }

        /**
         * Sets {@link FleetSettings#ownershipHeartbeat()}.
         *
         * @param value positive, under half the lease TTL (default 5 s)
         * @return this builder
         */
        public Builder ownershipHeartbeat(Duration value) {
            this.ownershipHeartbeat = value;
            return this;
        }

        /**
         * The settings.
         *
         * @throws ValidationException naming every bad value
         */
        public FleetSettings build() {
            return new FleetSettings(syncPeriod, pollInterval, replaceTimeout, lockWait, lockTtl, pingTimeout,
                    allocationTimeout, maxClockSkew, limits, instanceId, ownershipGroup, ownershipLeaseTtl, ownershipHeartbeat);
        }
    }
}
