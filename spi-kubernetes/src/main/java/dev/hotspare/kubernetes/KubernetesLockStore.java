package dev.hotspare.kubernetes;

import dev.hotspare.fleet.lock.spi.Lease;
import dev.hotspare.fleet.lock.spi.LockKeys;
import dev.hotspare.fleet.lock.spi.LockStore;
import dev.hotspare.kubernetes.internal.Kube;
import dev.hotspare.validation.Names;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * {@link LockStore} on Kubernetes {@code coordination.k8s.io/v1} Lease objects: one Lease per lock key, named
 * after the key (a lock key is a DNS-1123 subdomain, so it is a legal object name as it is), in one namespace.
 *
 * <h2>How each call maps to the API</h2>
 * <ul>
 *   <li>The holder is {@code spec.holderIdentity} (the lease's owner token), the expiry is
 *       {@code spec.renewTime + spec.leaseDurationSeconds}. TTLs are rounded up to whole seconds because that is
 *       the field's unit.</li>
 *   <li>Every change is a compare-and-set: a {@code PUT} carrying the {@code resourceVersion} that was read. A
 *       409 means another client changed the Lease first; the store then reads again and decides afresh, so a
 *       caller that lost a race sees "held", never a torn state.</li>
 *   <li>The fencing token lives in the annotation {@code hotspare.dev/fencing-token}. Each acquisition writes
 *       the previous token plus one in the same compare-and-set that names the new holder, so tokens strictly
 *       increase per key. Release and force-release only clear the holder; they never delete the Lease, so the
 *       token survives them and survives restarts of every client and of the API server (the Lease is in etcd).
 *       <b>Deleting a Lease by hand resets its token to 1</b>: do not, while fenced writers may still be around.</li>
 * </ul>
 *
 * <h2>Whose clock is the store's clock</h2>
 * The API server never expires a Lease and publishes no clock finer than a second, so expiry is judged by this
 * store's {@link Clock} (the system UTC clock unless you inject another): the acquiring client writes
 * {@code renewTime} from its clock, and every other client compares that against its own clock. Exactly:
 * if client B's clock is ahead of holder A's by {@code δ}, B considers A's lease expired {@code δ} before A
 * does, and may acquire the key while A still believes it holds it, for up to {@code δ}. Exclusion in the
 * store's view therefore holds only up to the clock skew between the clients sharing a key; keep clocks in
 * sync (NTP) and have holders stop acting well before their own {@code expiresAt} (the lock manager renews at
 * a fraction of the TTL). Fencing tokens are not affected by skew: they are ordered by the compare-and-set,
 * so a fenced resource still rejects the older holder. In the tests the fabric8 mock server runs in the same
 * JVM, so all parties share one clock and the contract's timing assertions are exact.
 *
 * <p>Thread-safe; it keeps no state besides the client.
 */
public final class KubernetesLockStore implements LockStore {

    private static final String STORE = "kubernetes lock store";
    private static final int MAX_CAS_ATTEMPTS = 8;

    private final KubernetesClient client;
    private final String namespace;
    private final Clock clock;

    private KubernetesLockStore(KubernetesClient client, String namespace, Clock clock) {
        this.client = Objects.requireNonNull(client, "client");
        this.namespace = Names.requireDns1123Label("namespace", namespace);
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * A store keeping its Leases in {@code namespace}, judging expiry by the system UTC clock.
     */
    public static KubernetesLockStore create(KubernetesClient client, String namespace) {
        return new KubernetesLockStore(client, namespace, Clock.systemUTC());
    }

    /**
     * Same, with the clock expiry is judged by (see the class documentation on clock skew).
     */
    public static KubernetesLockStore create(KubernetesClient client, String namespace, Clock clock) {
        return new KubernetesLockStore(client, namespace, clock);
    }

    /**
     * The namespace holding the Leases.
     */
    public String namespace() {
        return namespace;
    }

    @Override
    public Optional<Lease> tryAcquire(String key, Duration ttl) {
        LockKeys.requireValid(key);
        LockStore.requirePositive(ttl);
        for (int attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
            Instant now = now();
            io.fabric8.kubernetes.api.model.coordination.v1.Lease current = get(key);
            String owner = UUID.randomUUID().toString();
            try {
                if (current == null) {
                    var created = Kube.call(STORE, "create lease " + key, () -> client.leases().inNamespace(namespace)
                            .resource(newLease(key, owner, 1, now, ttl)).create());
                    return Optional.of(toLease(created));
                }
                if (live(current, now).isPresent()) {
                    return Optional.empty();
                }
                long token = tokenOf(current) + 1;
                var taken = new LeaseBuilder(current)
                        .editMetadata().addToAnnotations(Kube.FENCING_TOKEN, Long.toString(token)).endMetadata()
                        .editOrNewSpec()
                        .withHolderIdentity(owner)
                        .withAcquireTime(zoned(now))
                        .withRenewTime(zoned(now))
                        .withLeaseDurationSeconds(seconds(ttl))
                        .endSpec().build();
                return Optional.of(toLease(replace(taken)));
            } catch (KubernetesClientException e) {
                if (!Kube.isConflict(e)) {
                    throw e;
                }
                // Someone else created or changed the Lease between our read and our write: read again.
            }
        }
        return Optional.empty();
    }

    @Override
    public Optional<Lease> renew(Lease lease, Duration ttl) {
        Objects.requireNonNull(lease, "lease");
        LockStore.requirePositive(ttl);
        for (int attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
            Instant now = now();
            var current = get(lease.key());
            if (!heldBy(current, lease, now)) {
                return Optional.empty();
            }
            var renewed = new LeaseBuilder(current).editSpec()
                    .withRenewTime(zoned(now))
                    .withLeaseDurationSeconds(seconds(ttl))
                    .endSpec().build();
            try {
                return Optional.of(toLease(replace(renewed)));
            } catch (KubernetesClientException e) {
                if (!Kube.isConflict(e)) {
                    throw e;
                }
            }
        }
        return Optional.empty();
    }

    @Override
    public boolean release(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        for (int attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
            var current = get(lease.key());
            if (!heldBy(current, lease, now())) {
                return false;
            }
            try {
                replace(cleared(current));
                return true;
            } catch (KubernetesClientException e) {
                if (!Kube.isConflict(e)) {
                    throw e;
                }
            }
        }
        return false;
    }

    @Override
    public Optional<Lease> inspect(String key) {
        LockKeys.requireValid(key);
        var current = get(key);
        return current == null ? Optional.empty() : live(current, now());
    }

    @Override
    public List<Lease> list(String prefix) {
        LockKeys.requireValidPrefix(prefix);
        Instant now = now();
        var all = Kube.call(STORE, "list leases", () -> client.leases().inNamespace(namespace)
                .withLabel(Kube.MANAGED_BY, Kube.MANAGER).withLabel(Kube.LOCK, "true").list());
        List<Lease> out = new ArrayList<>();
        for (var item : all.getItems()) {
            if (item.getMetadata().getName().startsWith(prefix)) {
                live(item, now).ifPresent(out::add);
            }
        }
        out.sort(Comparator.comparing(Lease::key));
        return out;
    }

    @Override
    public boolean forceRelease(String key) {
        LockKeys.requireValid(key);
        for (int attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
            var current = get(key);
            if (current == null || current.getSpec() == null || current.getSpec().getHolderIdentity() == null) {
                return false;
            }
            boolean wasLive = live(current, now()).isPresent();
            try {
                replace(cleared(current));
                return wasLive;
            } catch (KubernetesClientException e) {
                if (!Kube.isConflict(e)) {
                    throw e;
                }
            }
        }
        return false;
    }

    // --- mapping ---------------------------------------------------------------------------------------------

    private io.fabric8.kubernetes.api.model.coordination.v1.Lease get(String key) {
        return Kube.call(STORE, "read lease " + key, () -> client.leases().inNamespace(namespace).withName(key).get());
    }

    /** PUT with the resourceVersion that was read: the API server answers 409 if the Lease changed since. */
    private io.fabric8.kubernetes.api.model.coordination.v1.Lease replace(io.fabric8.kubernetes.api.model.coordination.v1.Lease lease) {
        return Kube.call(STORE, "update lease " + lease.getMetadata().getName(),
                () -> client.leases().inNamespace(namespace).resource(lease).update());
    }

    private static io.fabric8.kubernetes.api.model.coordination.v1.Lease cleared(io.fabric8.kubernetes.api.model.coordination.v1.Lease current) {
        return new LeaseBuilder(current).editSpec().withHolderIdentity(null).endSpec().build();
    }

    private io.fabric8.kubernetes.api.model.coordination.v1.Lease newLease(String key, String owner, long token, Instant now, Duration ttl) {
        Map<String, String> labels = new HashMap<>();
        labels.put(Kube.MANAGED_BY, Kube.MANAGER);
        labels.put(Kube.LOCK, "true");
        return new LeaseBuilder()
                .withNewMetadata().withName(key).withNamespace(namespace).withLabels(labels)
                .addToAnnotations(Kube.FENCING_TOKEN, Long.toString(token)).endMetadata()
                .withNewSpec()
                .withHolderIdentity(owner)
                .withAcquireTime(zoned(now))
                .withRenewTime(zoned(now))
                .withLeaseDurationSeconds(seconds(ttl))
                .endSpec().build();
    }

    private static boolean heldBy(io.fabric8.kubernetes.api.model.coordination.v1.Lease current, Lease lease, Instant now) {
        return current != null && live(current, now).map(l -> l.ownerToken().equals(lease.ownerToken())).orElse(false);
    }

    /** The Lease as a hotspare lease if it has a holder that has not expired at {@code now}. */
    private static Optional<Lease> live(io.fabric8.kubernetes.api.model.coordination.v1.Lease lease, Instant now) {
        LeaseSpec spec = lease.getSpec();
        if (spec == null || spec.getHolderIdentity() == null || spec.getHolderIdentity().isBlank()
                || spec.getRenewTime() == null || spec.getLeaseDurationSeconds() == null) {
            return Optional.empty();
        }
        Lease view = toLease(lease);
        return view.isExpiredAt(now) ? Optional.empty() : Optional.of(view);
    }

    private static Lease toLease(io.fabric8.kubernetes.api.model.coordination.v1.Lease lease) {
        LeaseSpec spec = lease.getSpec();
        Instant renewed = spec.getRenewTime().toInstant();
        Instant acquired = spec.getAcquireTime() == null ? renewed : spec.getAcquireTime().toInstant();
        return new Lease(lease.getMetadata().getName(), spec.getHolderIdentity(), tokenOf(lease), acquired,
                renewed.plusSeconds(spec.getLeaseDurationSeconds()));
    }

    private static long tokenOf(io.fabric8.kubernetes.api.model.coordination.v1.Lease lease) {
        Map<String, String> annotations = lease.getMetadata().getAnnotations();
        String token = annotations == null ? null : annotations.get(Kube.FENCING_TOKEN);
        if (token == null) {
            // A Lease created by someone else (or with its annotation stripped): start above anything it recorded.
            Integer transitions = lease.getSpec() == null ? null : lease.getSpec().getLeaseTransitions();
            return transitions == null ? 0 : transitions;
        }
        try {
            return Long.parseLong(token);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("lease " + lease.getMetadata().getName() + ": annotation " + Kube.FENCING_TOKEN
                    + " has bad value '" + token + "': not a number; refusing to guess a fencing token", e);
        }
    }

    /** The store clock's now, truncated to the microseconds a Lease's MicroTime fields keep. */
    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    private static ZonedDateTime zoned(Instant instant) {
        return instant.atZone(ZoneOffset.UTC);
    }

    private static int seconds(Duration ttl) {
        long millis = ttl.toMillis();
        long seconds = (millis + 999) / 1000;
        if (seconds > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("ttl: bad value '" + ttl + "': longer than a Lease can say");
        }
        return (int) Math.max(1, seconds);
    }
}
