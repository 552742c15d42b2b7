package dev.hotspare.kubernetes;

import dev.hotspare.kubernetes.internal.Kube;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.pool.spi.MemberDriver.MemberAlreadyClaimedException;
import dev.hotspare.pool.spi.MemberDriver.MemberNotFoundException;
import dev.hotspare.pool.spi.OrderedDelivery;
import dev.hotspare.spi.StoreUnavailableException;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What both Kubernetes member drivers share: one label-selected informer per pool feeding a cache of
 * {@link Member}s, change events derived from that cache (so an informer resync or a re-delivered object
 * yields no event), and compare-and-set writes that are made only when a value differs.
 *
 * <p>Read-your-writes: the object a write returns goes into the cache at once, so the next reconcile sees
 * it even before the watch delivers it, and does not write it again. An event older than what the cache holds
 * (smaller {@code resourceVersion}) is ignored; Kubernetes calls resource versions opaque, but every API
 * server backed by etcd issues them as increasing integers, and a version that is not an integer is simply
 * accepted.
 *
 * @param <T> the Kubernetes kind of a member
 */
abstract class AbstractKubernetesMemberDriver<T extends HasMetadata> implements MemberDriver, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AbstractKubernetesMemberDriver.class);
    private static final int MAX_CAS_ATTEMPTS = 8;
    /** How many informers a pool's first list-and-watch is tried on before calls fail. */
    static final int START_ATTEMPTS = 2;
    private static final char[] NAME_ALPHABET = "bcdfghjklmnpqrstvwxz2456789".toCharArray();
    /**
     * How many fresh names a create tries: five random characters from 27 clash rarely, but a clash is a 409 that
     * would otherwise fail the create (and stall whatever waits for the member).
     */
    static final int NAME_ATTEMPTS = 5;

    protected final KubernetesClient client;
    protected final Clock clock;
    private final String storeName;
    private final Duration resyncPeriod;
    private final Duration syncTimeout;
    private final SecureRandom random = new SecureRandom();
    /** The five-character suffix of a new member's name; a test can make it clash on purpose. */
    private volatile java.util.function.Supplier<String> suffixes = this::randomSuffix;
    private final Map<String, PoolView> views = new ConcurrentHashMap<>();
    private volatile boolean closed;

    protected AbstractKubernetesMemberDriver(KubernetesClient client, Clock clock, String storeName,
                                             Duration resyncPeriod, Duration syncTimeout) {
        this.client = Objects.requireNonNull(client, "client");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.storeName = storeName;
        this.resyncPeriod = Objects.requireNonNull(resyncPeriod, "resyncPeriod");
        this.syncTimeout = Objects.requireNonNull(syncTimeout, "syncTimeout");
    }

    /**
     * The options every Kubernetes member driver's builder has. {@code B} is the concrete builder, so the
     * setters chain.
     */
    abstract static class CommonOptions<B extends CommonOptions<B>> {
        final KubernetesClient client;
        Clock clock = Clock.systemUTC();
        Duration resyncPeriod = Duration.ofMinutes(10);
        Duration syncTimeout = Duration.ofSeconds(30);

        CommonOptions(KubernetesClient client) {
            this.client = Objects.requireNonNull(client, "client");
        }

        @SuppressWarnings("unchecked")
        private B self() {
            return (B) this;
        }

        /**
         * The clock stamping creation times and first-seen power changes (default system UTC).
         */
        public B clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return self();
        }

        /**
         * How often informers re-deliver their cache (default 10 minutes; zero for never). Re-deliveries cause no events.
         *
         * @param period the period, not negative
         * @return this builder
         */
        public B resyncPeriod(Duration period) {
            Objects.requireNonNull(period, "resyncPeriod");
            if (period.isNegative()) {
                throw new ValidationException(Problem.of("resyncPeriod", period, "must not be negative (zero: never)"));
            }
            this.resyncPeriod = period;
            return self();
        }

        /**
         * How long one attempt at a pool's first list and watch may take (default 30 s). A failed or timed-out
         * attempt is made once more on a fresh informer; when both fail, calls fail with StoreUnavailableException.
         *
         * @param timeout the time one attempt may take
         * @return this builder
         */
        public B syncTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "syncTimeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new ValidationException(Problem.of("syncTimeout", timeout, "must be positive"));
            }
            this.syncTimeout = timeout;
            return self();
        }
    }

    // --- what a concrete driver supplies -------------------------------------------------------------------

    /**
     * The API operation for the member kind.
     */
    protected abstract MixedOperation<T, ? extends KubernetesResourceList<T>, ? extends Resource<T>> operation();

    /**
     * The namespace holding the members of {@code pool}.
     */
    protected abstract String namespaceOf(String pool);

    /**
     * A new member object (name {@code id}), labelled and annotated with {@link #standardLabels} / {@link #standardAnnotations}.
     *
     * @param now the current instant
     * @return a new member object (name {@code id}), labelled and annotated with {@link #standardLabels} / {@link
     *         #standardAnnotations}
     */
    protected abstract T build(String pool, String id, String templateVersion, DesiredPower power, Instant now);

    /**
     * The member an object shows; {@code previous} is what the cache held before (null if nothing).
     */
    protected abstract Member toMember(T object, Member previous);

    /**
     * Sets the desired power on {@code copy}; returns false if it already had that value (nothing to write).
     */
    protected abstract boolean applyDesiredPower(T copy, DesiredPower power);

    /**
     * Called before the first write to a pool (e.g. to create its namespace).
     */
    protected void prepare(String pool) {
    }

    /**
     * Called after a member was created (e.g. to create its service).
     */
    protected void created(String pool, T created, String templateVersion) {
    }

    // --- MemberDriver ------------------------------------------------------------------------------------------

    @Override
    public Member create(String pool, String templateVersion, DesiredPower power) {
        Names.requireDns1123Label("pool", pool);
        Objects.requireNonNull(templateVersion, "templateVersion");
        Objects.requireNonNull(power, "power");
        PoolView view = view(pool);
        prepare(pool);
        Instant now = clock.instant();
        T created = call("create member of pool " + pool, () -> createWithFreshName(pool, templateVersion, power, now));
        Member member = view.observe(created);
        created(pool, created, templateVersion);
        return member;
    }

    @Override
    public void delete(String pool, String memberId) {
        PoolView view = view(pool);
        Optional<Member> known = view.find(memberId);
        if (known.isEmpty() || known.get().phase() == dev.hotspare.pool.Member.MemberPhase.DELETING) {
            return;
        }
        call("delete member " + memberId, () -> operation().inNamespace(namespaceOf(pool)).withName(memberId).delete());
    }

    @Override
    public void setDesiredPower(String pool, String memberId, DesiredPower power) {
        Objects.requireNonNull(power, "power");
        mutate(pool, memberId, copy -> applyDesiredPower(copy, power));
    }

    @Override
    public void assign(String pool, String memberId, String claimName, Instant claimedAt) {
        // Claim names are free text (they only ever become an annotation value), so only blank is refused.
        if (claimName == null || claimName.isBlank()) {
            throw new IllegalArgumentException("claimName: bad value '" + claimName + "': must not be blank");
        }
        Objects.requireNonNull(claimedAt, "claimedAt");
        mutate(pool, memberId, copy -> {
            Map<String, String> annotations = annotations(copy);
            String holder = annotations.get(Kube.CLAIM);
            if (holder != null) {
                if (holder.equals(claimName)) {
                    return false;
                }
                throw new MemberAlreadyClaimedException(pool, memberId, holder, claimName);
            }
            annotations.put(Kube.CLAIM, claimName);
            annotations.put(Kube.CLAIMED_AT, claimedAt.toString());
            applyDesiredPower(copy, DesiredPower.RUNNING);
            return true;
        });
    }

    @Override
    public void markReleased(String pool, String memberId, Instant releasedAt) {
        Objects.requireNonNull(releasedAt, "releasedAt");
        mutate(pool, memberId, copy -> {
            Map<String, String> annotations = annotations(copy);
            if (annotations.containsKey(Kube.RELEASED_AT)) {
                return false;
            }
            annotations.put(Kube.RELEASED_AT, releasedAt.toString());
            return true;
        });
    }

    @Override
    public void markOrphaned(String pool, String memberId, Optional<Instant> since) {
        Objects.requireNonNull(since, "since");
        mutate(pool, memberId, copy -> {
            Map<String, String> annotations = annotations(copy);
            String wanted = since.map(Instant::toString).orElse(null);
            if (Objects.equals(annotations.get(Kube.ORPHANED_SINCE), wanted)) {
                return false;
            }
            if (wanted == null) {
                annotations.remove(Kube.ORPHANED_SINCE);
            } else {
                annotations.put(Kube.ORPHANED_SINCE, wanted);
            }
            return true;
        });
    }

    @Override
    public List<Member> list(String pool) {
        return view(pool).list();
    }

    @Override
    public Optional<Member> find(String pool, String memberId) {
        return view(pool).find(memberId);
    }

    @Override
    public AutoCloseable watch(String pool, MemberListener listener) {
        Objects.requireNonNull(listener, "listener");
        PoolView view = view(pool);
        view.listeners.add(listener);
        return () -> view.listeners.remove(listener);
    }

    /** Stops every informer. The client stays open: it is the caller's. */
    @Override
    public void close() {
        closed = true;
        for (PoolView view : views.values()) {
            view.stop();
        }
        views.clear();
    }

    // --- shared helpers --------------------------------------------------------------------------------------

    /**
     * Labels every member object carries: manager, pool, member id, template version.
     */
    protected static Map<String, String> standardLabels(String pool, String id, String templateVersion) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(Kube.MANAGED_BY, Kube.MANAGER);
        labels.put(Kube.POOL, pool);
        labels.put(Kube.MEMBER, id);
        labels.put(Kube.TEMPLATE_VERSION, Kube.requireTemplateVersion("templateVersion", templateVersion));
        return labels;
    }

    /**
     * Annotations every new member object carries: the creation instant with sub-second precision.
     *
     * @param now the current instant
     */
    protected static Map<String, String> standardAnnotations(Instant now) {
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(Kube.CREATED_AT, now.toString());
        return annotations;
    }

    /**
     * The member fields stored in labels and annotations, common to both kinds: id, creation time, template
     * version (unknown without the label), claim, claim time, release and orphan marks.
     *
     * @return the member fields stored in labels and annotations, common to both kinds: id, creation time, template
     *         version (unknown without the label), claim, claim time, release and orphan marks
     */
    protected static Member baseMember(HasMetadata object, Instant fallbackCreatedAt) {
        Map<String, String> labels = object.getMetadata().getLabels() == null ? Map.of() : object.getMetadata().getLabels();
        Map<String, String> annotations = object.getMetadata().getAnnotations() == null ? Map.of() : object.getMetadata().getAnnotations();
        Instant createdAt = parseInstant(annotations.get(Kube.CREATED_AT))
                .or(() -> parseInstant(object.getMetadata().getCreationTimestamp()))
                .orElse(fallbackCreatedAt);
        Optional<String> claim = Optional.ofNullable(annotations.get(Kube.CLAIM));
        Optional<Instant> claimedAt = claim.isPresent() ? parseInstant(annotations.get(Kube.CLAIMED_AT)).or(() -> Optional.of(createdAt)) : Optional.empty();
        return new Member(object.getMetadata().getName(), createdAt, labels.get(Kube.TEMPLATE_VERSION),
                dev.hotspare.pool.Member.MemberPhase.PROVISIONING, DesiredPower.UNSET, null, createdAt, Optional.empty(),
                Optional.empty(), claim, claimedAt, parseInstant(annotations.get(Kube.RELEASED_AT)),
                parseInstant(annotations.get(Kube.ORPHANED_SINCE)));
    }

    static Optional<Instant> parseInstant(String text) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(java.time.OffsetDateTime.parse(text).toInstant());
        } catch (java.time.format.DateTimeParseException e) {
            return Optional.empty();
        }
    }

    protected static Map<String, String> annotations(HasMetadata object) {
        if (object.getMetadata().getAnnotations() == null) {
            object.getMetadata().setAnnotations(new LinkedHashMap<>());
        } else if (!(object.getMetadata().getAnnotations() instanceof HashMap)) {
            object.getMetadata().setAnnotations(new LinkedHashMap<>(object.getMetadata().getAnnotations()));
        }
        return object.getMetadata().getAnnotations();
    }

    protected <R> R call(String what, java.util.function.Supplier<R> action) {
        return Kube.call(storeName, what, action);
    }

    protected void run(String what, Runnable action) {
        Kube.call(storeName, what, () -> {
            action.run();
            return null;
        });
    }

    /**
     * Creates the member under a fresh name; an object of that name already there (409 AlreadyExists) is tried
     * again under another name, up to {@value #NAME_ATTEMPTS} names.
     */
    private T createWithFreshName(String pool, String templateVersion, DesiredPower power, Instant now) {
        for (int attempt = 1; ; attempt++) {
            T object = build(pool, newName(pool), templateVersion, power, now);
            try {
                return operation().inNamespace(namespaceOf(pool)).resource(object).create();
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt >= NAME_ATTEMPTS) {
                    throw e;
                }
                LOG.debug("member name {} of pool {} is taken; trying another", object.getMetadata().getName(), pool);
            }
        }
    }

    /** Replaces the random name suffixes (tests that make names clash). */
    void nameSuffixes(java.util.function.Supplier<String> source) {
        this.suffixes = Objects.requireNonNull(source, "source");
    }

    private String randomSuffix() {
        StringBuilder suffix = new StringBuilder(5);
        for (int i = 0; i < 5; i++) {
            suffix.append(NAME_ALPHABET[random.nextInt(NAME_ALPHABET.length)]);
        }
        return suffix.toString();
    }

    /** A fresh DNS-1123 label: the pool name (shortened to fit) and five random characters. */
    private String newName(String pool) {
        String base = pool.length() > 57 ? pool.substring(0, 57) : pool;
        base = base.endsWith("-") ? base.substring(0, base.length() - 1) : base;
        return base + "-" + suffixes.get();
    }

    /** A change to one object: returns false if there is nothing to write. */
    @FunctionalInterface
    protected interface Mutation<T> {
        boolean apply(T copy);
    }

    /**
     * Reads the member (from the cache, or the API if the cache does not know it), applies {@code mutation} to a
     * copy and, if that changed anything, writes it with the resourceVersion that was read. On 409 it reads the
     * API again and retries.
     */
    private void mutate(String pool, String memberId, Mutation<T> mutation) {
        PoolView view = view(pool);
        T current = view.object(memberId).orElse(null);
        for (int attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
            if (current == null) {
                current = call("read member " + memberId, () -> operation().inNamespace(namespaceOf(pool)).withName(memberId).get());
                if (current == null) {
                    throw new MemberNotFoundException(pool, memberId);
                }
            }
            T copy = client.getKubernetesSerialization().clone(current);
            if (!mutation.apply(copy)) {
                return;
            }
            try {
                T written = call("update member " + memberId, () -> operation().inNamespace(namespaceOf(pool)).resource(copy).update());
                view.observe(written);
                return;
            } catch (KubernetesClientException e) {
                if (Kube.isNotFound(e)) {
                    throw new MemberNotFoundException(pool, memberId);
                }
                if (!Kube.isConflict(e)) {
                    throw e;
                }
                current = null;
            }
        }
        throw new StoreUnavailableException(storeName, "member " + memberId + " kept changing under "
                + MAX_CAS_ATTEMPTS + " attempts to update it");
    }

    private PoolView view(String pool) {
        Names.requireDns1123Label("pool", pool);
        if (closed) {
            throw new IllegalStateException("driver is closed");
        }
        PoolView view = views.computeIfAbsent(pool, PoolView::new);
        view.ensureStarted();
        return view;
    }

    /** One cached object and the member it shows. */
    private record Entry<T>(T object, Member member) {
    }

    /** The informer, cache and listeners of one pool. */
    private final class PoolView {
        private final String pool;
        private final Map<String, Entry<T>> byName = new HashMap<>();
        private final List<MemberListener> listeners = new CopyOnWriteArrayList<>();
        /**
         * Events queued under this view's lock in the order the cache changed, handed to the listeners outside it: a
         * writer's thread and the informer's both observe, and a listener told of an older record after a newer one
         * kept the older (the pool controller does).
         */
        private final OrderedDelivery<MemberEvent> events = new OrderedDelivery<>(this::publish);
        private SharedIndexInformer<T> informer;

        private PoolView(String pool) {
            this.pool = pool;
        }

        private synchronized void ensureStarted() {
            if (informer != null) {
                return;
            }
            // A first list-and-watch that fails or never completes (a dropped connection, a watch whose handshake
            // is lost) is tried once more on a fresh informer before the pool is declared unavailable: callers
            // block here, and one lost response should not fail their call.
            Exception firstFailure = null;
            for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
                SharedIndexInformer<T> started = newInformer();
                try {
                    started.start().toCompletableFuture().get(syncTimeout.toMillis(), TimeUnit.MILLISECONDS);
                    informer = started;
                    // The first list is in the informer's store now, but its add events reach this cache later, on the
                    // informer's thread: take them from the store at once, so the first find after a start answers
                    // from the list (observe is idempotent; the late events then change nothing).
                    started.getStore().list().forEach(this::observe);
                    if (firstFailure != null) {
                        LOG.info("pool {}: list and watch started on attempt {} after: {}", pool, attempt,
                                startFailure(firstFailure));
                    }
                    return;
                } catch (InterruptedException e) {
                    started.stop();
                    Thread.currentThread().interrupt();
                    throw new StoreUnavailableException(storeName, "interrupted while listing pool " + pool, e);
                } catch (ExecutionException | TimeoutException e) {
                    started.stop();
                    if (firstFailure == null) {
                        firstFailure = e;
                    } else {
                        firstFailure.addSuppressed(e);
                    }
                }
            }
            throw new StoreUnavailableException(storeName, "could not list and watch pool " + pool + " in "
                    + START_ATTEMPTS + " attempts of " + syncTimeout + ": " + startFailure(firstFailure),
                    firstFailure);
        }

        private String startFailure(Exception e) {
            if (e instanceof TimeoutException) {
                return "no answer within " + syncTimeout;
            }
            Throwable cause = e.getCause() == null ? e : e.getCause();
            return cause instanceof KubernetesClientException k ? Kube.describe(k)
                    : Kube.describe(new KubernetesClientException(String.valueOf(cause.getMessage()), cause));
        }

        private SharedIndexInformer<T> newInformer() {
            SharedIndexInformer<T> created = operation().inNamespace(namespaceOf(pool))
                    .withLabel(Kube.MANAGED_BY, Kube.MANAGER).withLabel(Kube.POOL, pool)
                    .runnableInformer(resyncPeriod.toMillis());
            created.addEventHandler(new ResourceEventHandler<T>() {
                @Override
                public void onAdd(T obj) {
                    observe(obj);
                }

                @Override
                public void onUpdate(T oldObj, T newObj) {
                    observe(newObj);
                }

                @Override
                public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                    forget(obj.getMetadata().getName());
                }
            });
            return created;
        }

        private synchronized void stop() {
            if (informer != null) {
                informer.stop();
            }
        }

        /** Puts an object into the cache (unless older than what is there) and tells listeners what changed. */
        Member observe(T object) {
            Member member;
            synchronized (this) {
                String name = object.getMetadata().getName();
                Entry<T> existing = byName.get(name);
                if (existing != null && isOlder(object, existing.object())) {
                    return existing.member();
                }
                member = toMember(object, existing == null ? null : existing.member());
                byName.put(name, new Entry<>(object, member));
                if (existing == null) {
                    events.add(new MemberEvent.Added(pool, member));
                } else if (!existing.member().equals(member)) {
                    events.add(new MemberEvent.Updated(pool, member));
                }
            }
            events.deliver();
            return member;
        }

        void forget(String name) {
            synchronized (this) {
                if (byName.remove(name) != null) {
                    events.add(new MemberEvent.Removed(pool, name));
                }
            }
            events.deliver();
        }

        synchronized Optional<T> object(String name) {
            Entry<T> e = byName.get(name);
            return e == null ? Optional.empty() : Optional.of(e.object());
        }

        synchronized Optional<Member> find(String name) {
            Entry<T> e = byName.get(name);
            return e == null ? Optional.empty() : Optional.of(e.member());
        }

        synchronized List<Member> list() {
            List<Member> out = new ArrayList<>(byName.size());
            for (Entry<T> e : byName.values()) {
                out.add(e.member());
            }
            return out;
        }

        private void publish(MemberEvent event) {
            for (MemberListener listener : listeners) {
                listener.onChange(event);
            }
        }
    }

    private static boolean isOlder(HasMetadata candidate, HasMetadata cached) {
        try {
            return Long.parseLong(candidate.getMetadata().getResourceVersion())
                    < Long.parseLong(cached.getMetadata().getResourceVersion());
        } catch (NumberFormatException | NullPointerException e) {
            return false;
        }
    }
}
