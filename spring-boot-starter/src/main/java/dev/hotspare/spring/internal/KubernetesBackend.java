package dev.hotspare.spring.internal;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfigs;
import dev.hotspare.fleet.runtime.Fleet;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.json.Documents;
import dev.hotspare.kubernetes.CustomResourceMemberDriver;
import dev.hotspare.kubernetes.KubernetesLockStore;
import dev.hotspare.kubernetes.KubernetesUsageMetrics;
import dev.hotspare.kubernetes.PodMemberDriver;
import dev.hotspare.kubernetes.RoomTemplates;
import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemorySchedulerStore;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.spring.HotspareConfigurationException;
import dev.hotspare.spring.HotspareProperties;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import org.springframework.core.io.Resource;

import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * {@code hotspare.store=kubernetes}, on the application's fabric8 {@link KubernetesClient}: pool members are
 * custom resources ({@link CustomResourceMemberDriver}, Hive's ClusterDeployment by default, copied from the
 * template of their version); the fleet's rooms are pods ({@link PodMemberDriver}), its locks Leases and its cpu /
 * mem usage comes from the metrics API. Kubernetes keeps no claims: pools' claims are in memory unless the
 * application defines a {@code ClaimStore} bean (a {@code PostgresClaimStore}, say).
 */
public final class KubernetesBackend implements Backend {

    /** The status codes that mean the API server answered but refuses these credentials. */
    private static final int UNAUTHORIZED = 401;
    private static final int FORBIDDEN = 403;

    private final KubernetesClient client;
    private final HotspareProperties.Kubernetes settings;
    private final String namespace;
    private final Clock clock;
    private final InMemoryClaimStore claims = new InMemoryClaimStore();
    private final Map<String, GenericKubernetesResource> templates;
    private final List<AutoCloseable> opened = new CopyOnWriteArrayList<>();
    private volatile dev.hotspare.fleet.lock.spi.LockStore lockStore;
    private volatile CustomResourceMemberDriver members;

    /**
     * A backend on {@code client}; reads every member template now, so a bad one fails startup.
     *
     * @param client     the application's client (it stays the application's: closing this backend leaves it open)
     * @param kubernetes {@code hotspare.kubernetes.*}
     * @param tasks      the runtime's scheduler, whose clock stamps members and leases
     * @throws HotspareConfigurationException naming every bad property
     */
    public KubernetesBackend(KubernetesClient client, HotspareProperties.Kubernetes kubernetes, TaskScheduler tasks) {
        this.client = client;
        this.settings = kubernetes;
        this.clock = tasks.clock();
        List<Problem> problems = new ArrayList<>();
        String ns = kubernetes.getNamespace().isEmpty()
                ? Optional.ofNullable(client.getNamespace()).filter(s -> !s.isEmpty()).orElse("default")
                : kubernetes.getNamespace();
        Names.dns1123LabelProblem(ns).ifPresent(why -> problems.add(
                Problem.of(HotspareProperties.PREFIX + ".kubernetes.namespace", ns, why)));
        this.namespace = ns;
        this.templates = readTemplates(kubernetes.getMembers().getTemplates(), problems);
        if (!problems.isEmpty()) {
            throw new HotspareConfigurationException(problems);
        }
    }

    private Map<String, GenericKubernetesResource> readTemplates(Map<String, Resource> files, List<Problem> problems) {
        Map<String, GenericKubernetesResource> read = new LinkedHashMap<>();
        files.forEach((version, file) -> {
            String property = HotspareProperties.PREFIX + ".kubernetes.members.templates." + version;
            try (InputStream in = file.getInputStream()) {
                GenericKubernetesResource template = client.getKubernetesSerialization().unmarshal(in, GenericKubernetesResource.class);
                if (template == null) {
                    problems.add(Problem.of(property, file.getDescription(), "the file holds no object"));
                } else {
                    read.put(version, template);
                }
            } catch (IOException e) {
                problems.add(Problem.of(property, file.getDescription(), "cannot read it: " + StoreCheck.reason(e)));
            } catch (RuntimeException e) {
                problems.add(Problem.of(property, file.getDescription(), "not a Kubernetes object in YAML or JSON: " + StoreCheck.reason(e)));
            }
        });
        return read;
    }

    @Override
    public HotspareProperties.Store store() {
        return HotspareProperties.Store.KUBERNETES;
    }

    @Override
    public ClaimStore claimStore() {
        return claims;
    }

    @Override
    public MemberDriver memberDriver() {
        CustomResourceMemberDriver driver = members;
        if (driver == null) {
            synchronized (this) {
                if (members == null) {
                    members = buildMemberDriver();
                    opened.add(members);
                }
                driver = members;
            }
        }
        return driver;
    }

    private CustomResourceMemberDriver buildMemberDriver() {
        HotspareProperties.Kubernetes.Members kind = settings.getMembers();
        ResourceDefinitionContext context = new ResourceDefinitionContext.Builder().withGroup(kind.getGroup())
                .withVersion(kind.getVersion()).withKind(kind.getKind()).withPlural(kind.getPlural()).withNamespaced(true).build();
        try {
            CustomResourceMemberDriver.Builder builder = CustomResourceMemberDriver.builder(client, context, namespace).clock(clock);
            templates.forEach(builder::template);
            return builder.build();
        } catch (ValidationException e) {
            List<Problem> problems = new ArrayList<>();
            for (Problem p : e.problems()) {
                String property = switch (p.path()) {
                    case "context" -> HotspareProperties.PREFIX + ".kubernetes.members";
                    case "templateVersion" -> HotspareProperties.PREFIX + ".kubernetes.members.templates";
                    default -> HotspareProperties.PREFIX + ".kubernetes." + p.path();
                };
                problems.add(new Problem(property, p.value(), p.message()));
            }
            throw new HotspareConfigurationException(problems);
        }
    }

    @Override
    public boolean durableClaims() {
        return false;
    }

    @Override
    public boolean durableMembers() {
        return true;
    }

    /** Every pool's template version needs a template, or its first member could not be made. */
    @Override
    public void checkPools(Map<String, PoolSpec> specs) {
        List<Problem> problems = new ArrayList<>();
        specs.forEach((name, spec) -> {
            if (!templates.containsKey(spec.templateVersion())) {
                problems.add(Problem.of(HotspareProperties.PREFIX + ".kubernetes.members.templates." + spec.templateVersion(),
                        Problem.MISSING, "pool '" + name + "' has template-version " + spec.templateVersion()
                                + "; give the file its members are copied from (known: " + templates.keySet() + ")"));
            }
        });
        if (!problems.isEmpty()) {
            throw new HotspareConfigurationException(problems);
        }
    }

    @Override
    public void configureFleet(Fleet.Builder builder) {
        // Room pods are made from the scheduler's release at the pod's version, so the driver reads the very store
        // the fleet writes; a customizer that replaces the scheduler store must replace the driver too.
        SchedulerStore schedulers = new InMemorySchedulerStore();
        String prefix = settings.getRoomNamespacePrefix();
        PodMemberDriver rooms;
        try {
            rooms = PodMemberDriver.builder(client, templates(schedulers)).namespacePrefix(prefix)
                    .nodePortServices(settings.isNodePortServices()).clock(clock).build();
        } catch (ValidationException e) {
            throw new HotspareConfigurationException(HotspareProperties.PREFIX + ".kubernetes.room-namespace-prefix", prefix,
                    e.problems().get(0).message());
        }
        opened.add(rooms);
        builder.schedulerStore(schedulers).memberDriver(rooms)
                .lockStore(sharedLockStore().orElseThrow())
                .usageMetrics(KubernetesUsageMetrics.create(client, prefix));
    }

    /** Room pod templates: the scheduler's release at the pod's version, parsed once (releases never change). */
    static RoomTemplates templates(SchedulerStore store) {
        Cache<String, SchedulerConfig> parsed = Caffeine.newBuilder().maximumSize(1_000).build();
        return (scheduler, templateVersion) -> {
            SchedulerVersion version;
            try {
                version = SchedulerVersion.parse(templateVersion);
            } catch (ValidationException e) {
                return Optional.empty();
            }
            String key = scheduler + "/" + version;
            SchedulerConfig cached = parsed.getIfPresent(key);
            if (cached != null) {
                return Optional.of(cached);
            }
            Optional<SchedulerConfig> config = store.release(scheduler, version)
                    .map(release -> SchedulerConfigs.parse(release.config().submitted(), Documents.Format.YAML));
            config.ifPresent(c -> parsed.put(key, c));
            return config;
        };
    }

    @Override
    public StoreCheck check() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("store", "kubernetes");
        details.put("namespace", namespace);
        try {
            VersionInfo version = client.getKubernetesVersion();
            if (version != null && version.getGitVersion() != null) {
                details.put("version", version.getGitVersion());
            }
            return StoreCheck.up(details);
        } catch (KubernetesClientException e) {
            if (e.getCode() == UNAUTHORIZED || e.getCode() == FORBIDDEN) {
                return StoreCheck.down(details, "the API server refuses these credentials (HTTP " + e.getCode() + ")");
            }
            if (e.getCode() > 0) {
                // It answered: reachable, though it serves no version document (some proxies and test servers).
                details.put("version", "unknown (HTTP " + e.getCode() + ")");
                return StoreCheck.up(details);
            }
            return StoreCheck.down(details, StoreCheck.reason(e));
        } catch (RuntimeException e) {
            return StoreCheck.down(details, StoreCheck.reason(e));
        }
    }

    @Override
    public void close() {
        for (AutoCloseable resource : opened) {
            try {
                resource.close();
            } catch (Exception e) {
                // Closing informers of a client that is going away can fail; nothing is left to release.
            }
        }
        opened.clear();
    }

    @Override
    public synchronized java.util.Optional<dev.hotspare.fleet.lock.spi.LockStore> sharedLockStore() {
        // One lock store for the fleet's locks and the membership leases: one client, one fencing history.
        if (lockStore == null) {
            lockStore = KubernetesLockStore.create(client, namespace, clock);
        }
        return java.util.Optional.of(lockStore);
    }
}
