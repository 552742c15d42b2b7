package dev.hotspare.kubernetes;

import dev.hotspare.kubernetes.internal.Kube;
import dev.hotspare.rollout.spi.LeaderElection;
import dev.hotspare.validation.Names;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * {@link LeaderElection} on one Kubernetes Lease, run by fabric8's {@link LeaderElector} (the same algorithm as
 * client-go: acquire when the Lease has no holder or its {@code renewTime + leaseDurationSeconds} has passed,
 * renew every retry period, give up leadership when renewals fail for the renew deadline).
 *
 * <ul>
 *   <li>Each candidacy runs its own elector with {@code releaseOnCancel}; closing it also clears
 *       {@code holderIdentity} with a compare-and-set update (fabric8's release patch cannot remove the field), so
 *       observers see "no leader" and another candidate takes over within one retry period.</li>
 *   <li>fabric8 reports a release as a new leader {@code null}; that is "no leader", never a candidate's name.
 *       Candidates learn of their own leadership from the start/stop callbacks only.</li>
 *   <li>A candidate whose elector stopped because renewals failed (it lost the Lease) is revoked and then
 *       campaigns again with a fresh elector until it is closed.</li>
 *   <li>Observers follow the Lease through an informer (list + watch of that one object), so processes that
 *       do not campaign see the leader too. A leader that dies without releasing stays reported until another
 *       candidate takes the expired Lease over — as with every Lease-based election.</li>
 *   <li>Expiry is judged by each candidate's clock against the {@code renewTime} written by the holder, so the
 *       clock-skew caveat of {@link KubernetesLockStore} applies: keep {@code leaseDuration} well above the
 *       skew between nodes.</li>
 * </ul>
 */
public final class KubernetesLeaderElection implements LeaderElection, AutoCloseable {

    private final KubernetesClient client;
    private final String namespace;
    private final String leaseName;
    private final Duration leaseDuration;
    private final Duration renewDeadline;
    private final Duration retryPeriod;
    private final Clock clock;

    private final List<Consumer<Optional<String>>> observers = new CopyOnWriteArrayList<>();
    private final Object observerLock = new Object();
    private SharedIndexInformer<Lease> informer;
    private Optional<String> lastObserved = Optional.empty();

    private KubernetesLeaderElection(Builder b) {
        this.client = b.client;
        this.namespace = b.namespace;
        this.leaseName = b.leaseName;
        this.leaseDuration = b.leaseDuration;
        this.renewDeadline = b.renewDeadline;
        this.retryPeriod = b.retryPeriod;
        this.clock = b.clock;
    }

    /**
     * An election on Lease {@code leaseName} in {@code namespace}.
     */
    public static Builder builder(KubernetesClient client, String namespace, String leaseName) {
        return new Builder(client, namespace, leaseName);
    }

    @Override
    public Candidacy campaign(String identity, LeadershipListener listener) {
        Objects.requireNonNull(identity, "identity");
        if (identity.isBlank()) {
            throw new IllegalArgumentException("identity: bad value '" + identity + "': must not be blank");
        }
        KubeCandidacy candidacy = new KubeCandidacy(identity, Objects.requireNonNull(listener, "listener"));
        candidacy.start();
        return candidacy;
    }

    @Override
    public Subscription observe(Consumer<Optional<String>> listener) {
        Objects.requireNonNull(listener, "listener");
        synchronized (observerLock) {
            ensureInformer();
            observers.add(listener);
            listener.accept(lastObserved);
        }
        AtomicBoolean closed = new AtomicBoolean();
        return () -> {
            if (closed.compareAndSet(false, true)) {
                observers.remove(listener);
            }
        };
    }

    @Override
    public Optional<String> currentLeader() {
        Lease lease = Kube.call("kubernetes leader election", "read lease " + leaseName,
                () -> client.leases().inNamespace(namespace).withName(leaseName).get());
        return leaderOf(lease, true);
    }

    /** Stops following the Lease. Candidacies are closed by their owners. */
    @Override
    public void close() {
        synchronized (observerLock) {
            if (informer != null) {
                informer.stop();
                informer = null;
            }
            observers.clear();
        }
    }

    /** The holder of {@code lease}; with {@code checkExpiry}, only while its lease has not run out. */
    private Optional<String> leaderOf(Lease lease, boolean checkExpiry) {
        if (lease == null || lease.getSpec() == null || lease.getSpec().getHolderIdentity() == null
                || lease.getSpec().getHolderIdentity().isBlank()) {
            return Optional.empty();
        }
        if (checkExpiry && lease.getSpec().getRenewTime() != null && lease.getSpec().getLeaseDurationSeconds() != null
                && !clock.instant().isBefore(lease.getSpec().getRenewTime().toInstant()
                .plusSeconds(lease.getSpec().getLeaseDurationSeconds()))) {
            return Optional.empty();
        }
        return Optional.of(lease.getSpec().getHolderIdentity());
    }

    private void ensureInformer() {
        if (informer != null) {
            return;
        }
        informer = client.leases().inNamespace(namespace).withName(leaseName).inform(new ResourceEventHandler<Lease>() {
            @Override
            public void onAdd(Lease obj) {
                seen(leaderOf(obj, false));
            }

            @Override
            public void onUpdate(Lease oldObj, Lease newObj) {
                seen(leaderOf(newObj, false));
            }

            @Override
            public void onDelete(Lease obj, boolean deletedFinalStateUnknown) {
                seen(Optional.empty());
            }
        }, 0);
        lastObserved = informer.getStore().list().stream().findFirst().flatMap(l -> leaderOf(l, false));
    }

    private void seen(Optional<String> leader) {
        synchronized (observerLock) {
            if (leader.equals(lastObserved)) {
                return;
            }
            lastObserved = leader;
            for (Consumer<Optional<String>> observer : observers) {
                observer.accept(leader);
            }
        }
    }

    private final class KubeCandidacy implements Candidacy {
        private final String identity;
        private final LeadershipListener listener;
        private final AtomicBoolean leading = new AtomicBoolean();
        private volatile boolean closed;
        private CompletableFuture<?> running;

        private KubeCandidacy(String identity, LeadershipListener listener) {
            this.identity = identity;
            this.listener = listener;
        }

        private synchronized void start() {
            if (closed) {
                return;
            }
            LeaderCallbacks callbacks = new LeaderCallbacks(this::startedLeading, this::stoppedLeading,
                    // fabric8 passes null when the holder released the Lease: nobody leads; nothing to do here.
                    newLeader -> { });
            LeaseLock lock = new LeaseLock(new ObjectMetaBuilder().withNamespace(namespace).withName(leaseName)
                    .addToLabels(Kube.MANAGED_BY, Kube.MANAGER).build(), identity);
            LeaderElector elector = client.leaderElector().withConfig(new LeaderElectionConfig(lock, leaseDuration,
                    renewDeadline, retryPeriod, callbacks, true, leaseName)).build();
            CompletableFuture<?> future = elector.start();
            running = future;
            // The elector ends by itself when it loses the Lease; campaign again unless this candidacy was closed.
            future.whenComplete((v, e) -> {
                if (!closed) {
                    start();
                }
            });
        }

        private void startedLeading() {
            if (!closed && leading.compareAndSet(false, true)) {
                listener.elected();
            }
        }

        private void stoppedLeading() {
            if (leading.compareAndSet(true, false)) {
                listener.revoked();
            }
        }

        @Override
        public String identity() {
            return identity;
        }

        @Override
        public boolean leading() {
            return leading.get() && !closed;
        }

        @Override
        public void close() {
            CompletableFuture<?> toCancel;
            synchronized (this) {
                if (closed) {
                    return;
                }
                closed = true;
                toCancel = running;
            }
            if (toCancel != null) {
                // Cancelling stops the elector and calls onStopLeading if it led. fabric8's release is a JSON merge
                // patch of a record whose holder is null, and a merge patch cannot express "remove this field": the
                // holder stays and the Lease merely runs out a second later. Clear it ourselves.
                toCancel.cancel(true);
            }
            stoppedLeading();
            clearHolderIfMine();
        }

        /** Empties {@code holderIdentity} if this candidate still holds the Lease (compare-and-set; a 409 means someone else took it). */
        private void clearHolderIfMine() {
            try {
                Lease lease = client.leases().inNamespace(namespace).withName(leaseName).get();
                if (lease == null || lease.getSpec() == null || !identity.equals(lease.getSpec().getHolderIdentity())) {
                    return;
                }
                lease.getSpec().setHolderIdentity(null);
                client.leases().inNamespace(namespace).resource(lease).update();
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                // Lost a race or the API is unreachable: the Lease then expires by itself after leaseDuration.
            }
        }
    }

    /** Builder for {@link KubernetesLeaderElection}; defaults are client-go's (15 s / 10 s / 2 s). */
    public static final class Builder {
        private final KubernetesClient client;
        private final String namespace;
        private final String leaseName;
        private Duration leaseDuration = Duration.ofSeconds(15);
        private Duration renewDeadline = Duration.ofSeconds(10);
        private Duration retryPeriod = Duration.ofSeconds(2);
        private Clock clock = Clock.systemUTC();

        private Builder(KubernetesClient client, String namespace, String leaseName) {
            this.client = Objects.requireNonNull(client, "client");
            this.namespace = Names.requireDns1123Label("namespace", namespace);
            this.leaseName = dev.hotspare.fleet.lock.spi.LockKeys.requireValid(leaseName);
        }

        /**
         * How long a lease lasts without renewal, how long a leader keeps trying to renew before it steps down,
         * and how often candidates retry. Needs whole seconds for the lease and
         * {@code leaseDuration > renewDeadline > retryPeriod > 0}.
         *
         * @return how long a lease lasts without renewal, how long a leader keeps trying to renew before it steps
         *         down, and how often candidates retry
         */
        public Builder timing(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
            if (leaseDuration.toMillis() % 1000 != 0 || leaseDuration.compareTo(renewDeadline) <= 0
                    || renewDeadline.compareTo(retryPeriod) <= 0 || retryPeriod.isNegative() || retryPeriod.isZero()) {
                throw new IllegalArgumentException("timing: bad value '" + leaseDuration + " / " + renewDeadline + " / "
                        + retryPeriod + "': need whole-second leaseDuration > renewDeadline > retryPeriod > 0");
            }
            this.leaseDuration = leaseDuration;
            this.renewDeadline = renewDeadline;
            this.retryPeriod = retryPeriod;
            return this;
        }

        /**
         * The clock {@link #currentLeader()} judges expiry by (default system UTC).
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public KubernetesLeaderElection build() {
            return new KubernetesLeaderElection(this);
        }
    }
}
