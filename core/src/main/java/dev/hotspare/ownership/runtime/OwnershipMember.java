package dev.hotspare.ownership.runtime;

import dev.hotspare.fleet.lock.spi.Lease;
import dev.hotspare.fleet.lock.spi.LockKeys;
import dev.hotspare.fleet.lock.spi.LockStore;
import dev.hotspare.memory.InMemoryLockStore;
import dev.hotspare.ownership.Ownership;
import dev.hotspare.spi.StoreUnavailableException;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * One instance's place in a group of instances that share stores and divide schedulers and pools between them.
 *
 * <p>The member keeps a membership lease ({@code hotspare.members.<group>.<instance>}) alive on the shared
 * {@link LockStore}: every live lease under that prefix is a live instance. On each heartbeat it renews that lease,
 * reads the live members, divides the keys of every {@linkplain #track tracked kind} with
 * {@link Ownership#assign}, lets go of the keys that are now another's, and takes a fenced lease
 * ({@code hotspare.owners.<group>.<kind>.<key>}) on each key that is now its own. Only a member holding a key's
 * lease acts on it ({@link OwnedKeys#fence}); the lease store's exclusion makes two owners acting at once
 * impossible, and its fencing token lets fenced stores refuse a stale owner's writes.
 *
 * <p>Timing: a member that stops (crash, partition) holds its leases until they expire, one {@code leaseTtl}
 * after its last renewal; the others take its keys at their next heartbeat after that, so its keys are re-owned
 * within {@code leaseTtl + heartbeat} (under 2 × {@code leaseTtl}, since the heartbeat must be under half the TTL).
 * A member that {@linkplain #close closes} releases everything at once, and the others take its keys at their next
 * heartbeat.
 *
 * <p>Thread-safe: the heartbeat runs on the {@link TaskScheduler}; {@link OwnedKeys#fence} may be called from any
 * thread.
 */
public final class OwnershipMember implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OwnershipMember.class);
    private static final String MEMBERS = "hotspare.members";
    private static final String OWNERS = "hotspare.owners";

    private final Settings settings;
    private final LockStore store;
    private final TaskScheduler scheduler;
    private final OwnershipListener listener;
    private final Map<String, OwnedKeys> tracked = new LinkedHashMap<>();
    private Lease membership;
    private TaskScheduler.Cancellable heartbeat;
    private boolean closed;

    private OwnershipMember(Builder builder) {
        this.settings = new Settings(builder.instanceId, builder.group, builder.leaseTtl, builder.heartbeat);
        this.scheduler = builder.scheduler;
        this.store = builder.lockStore != null ? builder.lockStore : new InMemoryLockStore(builder.scheduler.clock());
        this.listener = builder.listener;
    }

    /**
     * Starts building the member for one instance.
     *
     * @param instanceId this instance's name in the group: one DNS-1123 label, unique among the live instances
     *                   (a pod name, a host name)
     * @return a builder; {@link Builder#scheduler} is required
     */
    public static Builder builder(String instanceId) {
        return new Builder(instanceId);
    }

    /**
     * The settings this member was built with.
     */
    public Settings settings() {
        return settings;
    }

    /**
     * Joins the group: takes the membership lease, divides the tracked keys once, and starts the heartbeat.
     *
     * @return this member
     * @throws IllegalStateException when another live instance holds the same instance id
     * @throws StoreUnavailableException when the lock store cannot answer
     */
    public synchronized OwnershipMember start() {
        if (closed) {
            throw new IllegalStateException("ownership member " + settings.instanceId() + " is closed");
        }
        if (heartbeat != null) {
            return this;
        }
        try {
            membership = store.tryAcquire(memberKey(), settings.leaseTtl()).orElseThrow(() -> new IllegalStateException(
                    "instanceId: bad value '" + settings.instanceId() + "': another live instance of group '" + settings.group()
                            + "' has that id"));
            syncAll();
        } catch (StoreUnavailableException e) {
            // The store is down at start: this instance owns nothing and joins at the first heartbeat that reaches it.
            LOG.warn("ownership {}: lock store unavailable at start ({}); joining when it answers", settings.instanceId(),
                    e.getMessage());
        }
        heartbeat = scheduler.scheduleAtFixedRate(settings.heartbeat(), settings.heartbeat(), this::beat);
        return this;
    }

    /**
     * Divides the keys {@code keys} supplies between the live members on every heartbeat, under the name {@code kind}.
     *
     * @param kind what the keys name ({@code scheduler}, {@code pool}): one DNS-1123 label
     * @param keys every key of that kind that exists now (scheduler or pool names); called on each heartbeat
     * @return the view to ask, at each tick boundary, whether this instance may act on a key
     */
    public OwnedKeys track(String kind, Supplier<? extends Collection<String>> keys) {
        return track(kind, keys, new OwnershipListener() {
        });
    }

    /**
     * As {@link #track(String, Supplier)}, and tells {@code onChange} (besides the member's listener) of every key of
     * this kind taken, handed over or lost: a runtime that acts on owned keys starts and stops its work there.
     *
     * @param kind     what the keys name: one DNS-1123 label
     * @param keys     every key of that kind that exists now; called on each heartbeat
     * @param onChange told of this kind's changes, on the heartbeat thread
     * @return the view to ask, at each tick boundary, whether this instance may act on a key
     */
    public synchronized OwnedKeys track(String kind, Supplier<? extends Collection<String>> keys, OwnershipListener onChange) {
        Objects.requireNonNull(onChange, "onChange");
        if (!LockKeys.isValid(kind) || kind.contains(".")) {
            throw new ValidationException(Problem.of("kind", kind == null ? Problem.MISSING : kind, "must be one DNS-1123 label"));
        }
        if (tracked.containsKey(kind)) {
            throw new ValidationException(Problem.of("kind", kind, "is tracked already"));
        }
        OwnedKeys owned = new OwnedKeys(kind, keys, both(listener, onChange));
        tracked.put(kind, owned);
        return owned;
    }

    /**
     * The instances whose membership lease is live now, by the store.
     *
     * @return instance ids in name order
     * @throws StoreUnavailableException when the lock store cannot answer
     */
    public SortedSet<String> liveMembers() {
        SortedSet<String> live = new TreeSet<>();
        String prefix = LockKeys.of(MEMBERS, settings.group()) + ".";
        for (Lease lease : store.list(prefix)) {
            live.add(lease.key().substring(prefix.length()));
        }
        return Collections.unmodifiableSortedSet(live);
    }

    /**
     * Leaves the group at once: stops the heartbeat, lets every owned key go and releases the membership lease, so
     * the other instances take this one's keys at their next heartbeat instead of after the lease TTL.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (heartbeat != null) {
            heartbeat.cancel();
        }
        for (OwnedKeys owned : tracked.values()) {
            owned.letGoOfAll();
        }
        if (membership != null) {
            try {
                store.release(membership);
            } catch (StoreUnavailableException e) {
                LOG.warn("ownership {}: could not release the membership lease; it lapses in {}", settings.instanceId(),
                        settings.leaseTtl());
            }
        }
    }

    private synchronized void beat() {
        if (closed || heartbeat == null) {
            return;
        }
        try {
            Optional<Lease> renewed = membership == null ? Optional.empty() : store.renew(membership, settings.leaseTtl());
            if (renewed.isEmpty()) {
                // Our membership lapsed (a long pause): join again; the others may already have taken our keys.
                renewed = store.tryAcquire(memberKey(), settings.leaseTtl());
                if (renewed.isEmpty()) {
                    LOG.warn("ownership {}: cannot join group '{}': another live instance has this id", settings.instanceId(),
                            settings.group());
                } else if (membership != null) {
                    LOG.warn("ownership {}: membership lease had lapsed; joined again", settings.instanceId());
                }
            }
            if (renewed.isEmpty()) {
                return;
            }
            membership = renewed.get();
            syncAll();
        } catch (StoreUnavailableException e) {
            LOG.warn("ownership {}: lock store unavailable on heartbeat: {}", settings.instanceId(), e.getMessage());
        }
    }

    private static OwnershipListener both(OwnershipListener first, OwnershipListener second) {
        return new OwnershipListener() {
            @Override
            public void acquired(String kind, String key, long fencingToken, Duration waited) {
                first.acquired(kind, key, fencingToken, waited);
                second.acquired(kind, key, fencingToken, waited);
            }

            @Override
            public void handedOver(String kind, String key) {
                first.handedOver(kind, key);
                second.handedOver(kind, key);
            }

            @Override
            public void lost(String kind, String key) {
                first.lost(kind, key);
                second.lost(kind, key);
            }
        };
    }

    /**
     * Renews and divides again soon, off the caller's thread, instead of at the next heartbeat: a runtime calls it
     * when it sees keys appear or go (a scheduler created), so a new key gets its owner at once.
     */
    public void refresh() {
        scheduler.execute(this::beat);
    }

    /**
     * The keys of {@code kind} this member tracks, if it does.
     *
     * @param kind what the keys name ({@code scheduler}, {@code pool})
     * @return the view of that kind
     */
    public synchronized Optional<OwnedKeys> tracked(String kind) {
        return Optional.ofNullable(tracked.get(kind));
    }

    /**
     * What operators see (the fleet server's {@code GET /ownership}): the live instances and, per kind, what each
     * owns by the last division, and what this instance holds the lease of now.
     *
     * @return a snapshot
     */
    public synchronized View view() {
        Map<String, Map<String, List<String>>> byKind = new TreeMap<>();
        Map<String, List<String>> mine = new TreeMap<>();
        SortedSet<String> members = new TreeSet<>();
        for (Map.Entry<String, OwnedKeys> entry : tracked.entrySet()) {
            Ownership.Assignment assignment = entry.getValue().assignment();
            members.addAll(assignment.liveMembers());
            byKind.put(entry.getKey(), assignment.keysByMember());
            mine.put(entry.getKey(), entry.getValue().owned());
        }
        return new View(settings.instanceId(), settings.group(), running(), List.copyOf(members), byKind, mine);
    }

    /**
     * What operators are shown (the fleet server's {@code GET /ownership}, the Spring actuator endpoint): the view of
     * {@code member} as a JSON-ready map with {@code "enabled": true}, or {@code "enabled": false} and {@code whyOff}.
     *
     * @param member the application's member, if it divides work
     * @param whyOff why nothing is divided, said when {@code member} is empty
     */
    public static Map<String, Object> describe(Optional<OwnershipMember> member, String whyOff) {
        return member.<Map<String, Object>>map(m -> {
            View view = m.view();
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("enabled", true);
            body.put("instanceId", view.instanceId());
            body.put("group", view.group());
            body.put("running", view.running());
            body.put("liveInstances", view.liveMembers());
            body.put("owners", view.assignment());
            body.put("held", view.held());
            return body;
        }).orElse(Map.of("enabled", false, "why", whyOff));
    }

    /**
     * An instance id for a process that was given none: the host name (a pod's name on Kubernetes), the process id
     * and four random characters, as one DNS-1123 label — two processes on one host, or two runtimes in one JVM,
     * never share it.
     *
     * @return a fresh id
     */
    public static String defaultInstanceId() {
        String host = System.getenv().getOrDefault("HOSTNAME", "");
        if (host.isBlank()) {
            try {
                host = java.net.InetAddress.getLocalHost().getHostName();
            } catch (java.io.IOException e) {
                host = "instance";
            }
        }
        String label = host.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9-]", "-").replaceAll("^-+|-+$", "");
        String suffix = "-" + ProcessHandle.current().pid() + "-"
                + Integer.toString(java.util.concurrent.ThreadLocalRandom.current().nextInt(36 * 36 * 36, 36 * 36 * 36 * 36), 36);
        label = label.isEmpty() ? "instance" : label;
        return label.substring(0, Math.min(label.length(), 63 - suffix.length())).replaceAll("-+$", "") + suffix;
    }

    /**
     * One instance's view of the division of work.
     *
     * @param instanceId   this instance
     * @param group        the group it divides work in
     * @param running      whether it is in the group (started, not closed)
     * @param liveMembers  the live instances at the last heartbeat
     * @param assignment   per kind, per live instance, the keys it owns by the last division
     * @param held         per kind, the keys this instance holds the lease of and acts on now
     */
    public record View(String instanceId, String group, boolean running, List<String> liveMembers,
                       Map<String, Map<String, List<String>>> assignment, Map<String, List<String>> held) {
    }

    /**
     * Whether {@link #start} ran and {@link #close} did not.
     *
     * @return whether this member is in its group now (its membership lease may still lapse in a partition)
     */
    public synchronized boolean running() {
        return heartbeat != null && !closed;
    }

    private void syncAll() {
        SortedSet<String> live = liveMembers();
        for (OwnedKeys owned : tracked.values()) {
            owned.sync(live);
        }
    }

    private String memberKey() {
        return LockKeys.of(MEMBERS, settings.group(), settings.instanceId());
    }

    /**
     * The keys of one kind this instance owns, with their fenced leases.
     */
    public final class OwnedKeys {

        private final String kind;
        private final Supplier<? extends Collection<String>> keys;
        private final OwnershipListener listener;
        private final Map<String, Lease> held = new TreeMap<>();
        private final Map<String, Instant> ownerlessSince = new TreeMap<>();
        private volatile Ownership.Assignment assignment = Ownership.assign(List.of(), List.of());

        private OwnedKeys(String kind, Supplier<? extends Collection<String>> keys, OwnershipListener listener) {
            this.kind = kind;
            this.keys = keys;
            this.listener = listener;
        }

        /**
         * The fenced lease under which this instance may act on {@code key} now: present only while this instance
         * holds the key's lease and, by its own clock, the lease has not lapsed. Ask at every tick boundary; when it
         * is empty, do not act on the key in this tick.
         *
         * @param key a scheduler or pool name
         * @return the lease (its fencing token goes with fenced writes), or empty
         */
        public Optional<Lease> fence(String key) {
            synchronized (OwnershipMember.this) {
                Lease lease = held.get(key);
                if (lease == null || lease.isExpiredAt(scheduler.clock().instant())) {
                    return Optional.empty();
                }
                return Optional.of(lease);
            }
        }

        /**
         * The keys this instance holds the lease of now, in name order.
         *
         * @return owned keys
         */
        public List<String> owned() {
            synchronized (OwnershipMember.this) {
                Instant now = scheduler.clock().instant();
                return held.values().stream().filter(lease -> !lease.isExpiredAt(now)).map(this::keyOf).toList();
            }
        }

        /**
         * How the keys were divided at the last heartbeat (every live member and what it owns by the assignment;
         * a key moving between owners is owned by the new owner from the moment it takes the lease).
         */
        public Ownership.Assignment assignment() {
            return assignment;
        }

        private void sync(SortedSet<String> live) {
            Instant now = scheduler.clock().instant();
            Ownership.Assignment next = Ownership.assign(keys.get(), live);
            assignment = next;
            String me = settings.instanceId();
            for (var it = held.entrySet().iterator(); it.hasNext(); ) {
                var entry = it.next();
                String key = entry.getKey();
                if (!me.equals(next.ownerOf(key).orElse(null))) {
                    release(entry.getValue());
                    it.remove();
                    listener.handedOver(kind, key);
                    continue;
                }
                Optional<Lease> renewed = store.renew(entry.getValue(), settings.leaseTtl());
                if (renewed.isEmpty()) {
                    it.remove();
                    listener.lost(kind, key);
                } else {
                    entry.setValue(renewed.get());
                }
            }
            for (Map.Entry<String, String> owner : next.ownerByKey().entrySet()) {
                String key = owner.getKey();
                if (!me.equals(owner.getValue()) || held.containsKey(key)) {
                    continue;
                }
                String leaseKey = String.join(".", OWNERS, settings.group(), kind, key);
                if (!LockKeys.isValid(leaseKey)) {
                    // Scheduler and pool names are DNS-1123 labels; anything else is nobody's rather than a failed heartbeat.
                    LOG.warn("ownership {}: {} '{}' is not a DNS-1123 label; nobody owns it", settings.instanceId(), kind, key);
                    continue;
                }
                Optional<Lease> taken = store.tryAcquire(leaseKey, settings.leaseTtl());
                if (taken.isPresent()) {
                    held.put(key, taken.get());
                    Instant since = ownerlessSince.remove(key);
                    listener.acquired(kind, key, taken.get().fencingToken(),
                            since == null ? Duration.ZERO : Duration.between(since, now));
                } else {
                    // The previous owner has not let go yet (it will at its next heartbeat, or its lease lapses).
                    ownerlessSince.putIfAbsent(key, now);
                }
            }
            ownerlessSince.keySet().removeIf(key -> !me.equals(next.ownerOf(key).orElse(null)) || held.containsKey(key));
        }

        private void letGoOfAll() {
            for (Map.Entry<String, Lease> entry : held.entrySet()) {
                release(entry.getValue());
                listener.handedOver(kind, entry.getKey());
            }
            held.clear();
        }

        private void release(Lease lease) {
            try {
                store.release(lease);
            } catch (StoreUnavailableException e) {
                LOG.warn("ownership {}: could not release {}; it lapses in {}", settings.instanceId(), lease.key(), settings.leaseTtl());
            }
        }

        private String keyOf(Lease lease) {
            String prefix = LockKeys.of(OWNERS, settings.group(), kind) + ".";
            return lease.key().substring(prefix.length());
        }
    }

    /**
     * What an {@link OwnershipMember} was built with.
     *
     * @param instanceId this instance's id in the group
     * @param group      the group of instances that divide keys between them (instances of different groups never
     *                   share keys)
     * @param leaseTtl   how long a membership or key lease lives without renewal: how long a dead instance's keys wait
     * @param heartbeat  how often leases are renewed and keys divided again; under half of {@code leaseTtl}
     */
    public record Settings(String instanceId, String group, Duration leaseTtl, Duration heartbeat) {
    }

    /** Builds an {@link OwnershipMember}; every setting is checked at {@link #build()}, naming the setting. */
    public static final class Builder {
        private final String instanceId;
        private String group = "default";
        private Duration leaseTtl = Duration.ofSeconds(15);
        private Duration heartbeat = Duration.ofSeconds(5);
        private LockStore lockStore;
        private TaskScheduler scheduler;
        private OwnershipListener listener = new OwnershipListener() {
        };

        private Builder(String instanceId) {
            this.instanceId = instanceId;
        }

        /**
         * The shared store the membership and key leases live in (Redis, PostgreSQL, Kubernetes Leases). Default: an
         * in-memory store, with which this instance is alone and owns every key.
         *
         * @param lockStore the shared lock store
         * @return this builder
         */
        public Builder lockStore(LockStore lockStore) {
            this.lockStore = lockStore;
            return this;
        }

        /**
         * Where the heartbeat runs and what clock judges a lease's expiry.
         *
         * @param scheduler real or virtual time
         * @return this builder
         */
        public Builder scheduler(TaskScheduler scheduler) {
            this.scheduler = scheduler;
            return this;
        }

        /**
         * The group name (default {@code default}): instances divide keys only with members of the same group.
         *
         * @param group one DNS-1123 label
         * @return this builder
         */
        public Builder group(String group) {
            this.group = group;
            return this;
        }

        /**
         * Lease lifetime without renewal (default 15 s).
         *
         * @param leaseTtl a positive duration, more than twice the heartbeat
         * @return this builder
         */
        public Builder leaseTtl(Duration leaseTtl) {
            this.leaseTtl = leaseTtl;
            return this;
        }

        /**
         * Renewal and re-division period (default 5 s).
         *
         * @param heartbeat a positive duration, under half the lease TTL
         * @return this builder
         */
        public Builder heartbeat(Duration heartbeat) {
            this.heartbeat = heartbeat;
            return this;
        }

        /**
         * Told of every key taken, handed over or lost.
         *
         * @param listener called on the heartbeat thread; must be quick and must not throw
         * @return this builder
         */
        public Builder listener(OwnershipListener listener) {
            this.listener = listener;
            return this;
        }

        /**
         * Checks every setting and builds the member (not started).
         *
         * @throws ValidationException naming every bad setting and its value
         */
        public OwnershipMember build() {
            List<Problem> problems = new java.util.ArrayList<>();
            label("instanceId", instanceId, problems);
            label("group", group, problems);
            if (scheduler == null) {
                problems.add(Problem.of("scheduler", Problem.MISSING, "is required (TaskScheduler.system(..) or virtual time)"));
            }
            if (listener == null) {
                problems.add(Problem.of("listener", Problem.MISSING, "must not be null"));
            }
            boolean ttlOk = positive("leaseTtl", leaseTtl, problems);
            boolean beatOk = positive("heartbeat", heartbeat, problems);
            if (ttlOk && beatOk && heartbeat.multipliedBy(2).compareTo(leaseTtl) >= 0) {
                problems.add(Problem.of("heartbeat", heartbeat, "must be under half of leaseTtl (" + leaseTtl + ")"));
            }
            if (!problems.isEmpty()) {
                throw new ValidationException(problems);
            }
            return new OwnershipMember(this);
        }

        private static void label(String field, String value, List<Problem> problems) {
            if (value == null || !LockKeys.isValid(value) || value.contains(".") || value.length() > 63) {
                problems.add(Problem.of(field, value == null ? Problem.MISSING : value, "must be one DNS-1123 label (a-z, 0-9, '-')"));
            }
        }

        private static boolean positive(String field, Duration value, List<Problem> problems) {
            if (value == null || value.isZero() || value.isNegative()) {
                problems.add(Problem.of(field, value == null ? Problem.MISSING : value, "must be a positive duration"));
                return false;
            }
            return true;
        }
    }

    /**
     * What an {@link OwnershipMember} tells about the keys it owns; every method does nothing by default. Called on the
     * member's heartbeat thread: implementations must be quick and must not throw.
     */
    public interface OwnershipListener {

        /**
         * This instance took {@code key}'s fenced lease and may act on it from now on.
         *
         * @param kind         what the key names ({@code scheduler}, {@code pool}, ...)
         * @param key          the scheduler or pool name
         * @param fencingToken the lease's fencing token, to pass with fenced writes
         * @param waited       how long the key had no live owner before this instance took it (zero when it was handed over
         *                     at once or never owned)
         */
        default void acquired(String kind, String key, long fencingToken, Duration waited) {
        }

        /**
         * This instance let {@code key} go, because the live members changed and it is another's now, or because it is
         * closing.
         *
         * @param kind what the key names
         * @param key  the scheduler or pool name
         */
        default void handedOver(String kind, String key) {
        }

        /**
         * This instance lost {@code key}'s lease without letting it go (it expired or was force-released: a pause, a
         * partition); it stopped acting on it.
         *
         * @param kind what the key names
         * @param key  the scheduler or pool name
         */
        default void lost(String kind, String key) {
        }
    }
}
