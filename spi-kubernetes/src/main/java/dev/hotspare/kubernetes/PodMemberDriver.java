package dev.hotspare.kubernetes;

import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfig.Port;
import dev.hotspare.fleet.SchedulerConfig.Resources;
import dev.hotspare.kubernetes.internal.Kube;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link dev.hotspare.pool.spi.MemberDriver} for game rooms: one pod per room, in one namespace per scheduler
 * (the pool is the scheduler). The pod is made from the scheduler's {@link SchedulerConfig} at the member's
 * template version, found through {@link RoomTemplates}.
 *
 * <h2>What a room pod looks like</h2>
 * <ul>
 *   <li>Namespace {@code <namespacePrefix><pool>}, created on the first create and labelled
 *       {@code app.kubernetes.io/managed-by=hotspare}, {@code hotspare.dev/pool=<pool>}.</li>
 *   <li>Name {@code <pool>-<5 random characters>} (a DNS-1123 label); labels {@code hotspare.dev/pool},
 *       {@code hotspare.dev/member}, {@code hotspare.dev/template-version} and the managed-by label.</li>
 *   <li>One container {@code room}: image, cmd as the command, env, named ports, requests and limits.
 *       {@code affinity: X} becomes a preferred node affinity on node label {@code X=true}; {@code toleration: X}
 *       tolerates taint {@code X=true:NoSchedule}; {@code terminationGracePeriodSeconds} is the
 *       {@code shutdownTimeout}. {@code restartPolicy: Never}, so a crashed room shows as failed and the pool
 *       replaces it.</li>
 *   <li>Desired power and the claim are annotations ({@code hotspare.dev/desired-power},
 *       {@code hotspare.dev/claim}, {@code hotspare.dev/claimed-at}). A pod cannot hibernate: a ready room is
 *       observed RUNNING whatever power is asked of it, so use this driver with {@code runningCount = size}.</li>
 *   <li>Optionally a NodePort service of the same name per room, owned by the pod (deleted with it), and
 *       {@link #address} for the room protocol's address route.</li>
 * </ul>
 *
 * <h2>Observed state</h2>
 * One informer per pool (label-selected, in the pool's namespace) keeps the cache {@code list}/{@code find}
 * read; nothing polls. Pending → PROVISIONING, Running with condition Ready=True → READY (observed RUNNING),
 * Failed or Succeeded → FAILED, a deletion timestamp → DELETING.
 *
 * <h2>Writes</h2>
 * Create is one POST (two with services), delete one DELETE, a power change or an assignment one PUT with
 * the resourceVersion that was read — and only when the annotation differs from the asked value.
 */
public final class PodMemberDriver extends AbstractKubernetesMemberDriver<Pod> {

    private static final String STORE = "kubernetes pod member driver";
    static final String CONTAINER = "room";

    private final RoomTemplates templates;
    private final String namespacePrefix;
    private final boolean nodePortServices;
    private final Set<String> preparedNamespaces = ConcurrentHashMap.newKeySet();
    private final Optional<RoomTokens> roomTokens;

    /** The environment variable a room pod finds its token in (from its Secret), when the driver issues tokens. */
    public static final String ROOM_TOKEN_VARIABLE = "HOTSPARE_ROOM_TOKEN";
    /** The key of the token in a room's Secret. */
    public static final String ROOM_TOKEN_KEY = "token";

    /**
     * Issues each room's own credential (the fleet service's room tokens): called once per room, when it is
     * created, and written to a Secret the room's pod reads as {@value #ROOM_TOKEN_VARIABLE}.
     */
    @FunctionalInterface
    public interface RoomTokens {
        /**
         * The token of {@code room} of {@code pool}.
         *
         * @param pool the pool (scheduler)
         * @param room the room (pod name)
         */
        String tokenFor(String pool, String room);
    }

    /**
     * The name of the Secret holding a room's token: {@code <pod>-token}, in the pod's namespace.
     *
     * @param room the room (pod name)
     */
    public static String tokenSecretName(String room) {
        return room + "-token";
    }

    private PodMemberDriver(Builder b) {
        super(b.client, b.clock, STORE, b.resyncPeriod, b.syncTimeout);
        this.roomTokens = Optional.ofNullable(b.roomTokens);
        this.templates = b.templates;
        this.namespacePrefix = b.namespacePrefix;
        this.nodePortServices = b.nodePortServices;
    }

    /**
     * A builder for a driver on {@code client} making rooms from {@code templates}.
     */
    public static Builder builder(KubernetesClient client, RoomTemplates templates) {
        return new Builder(client, templates);
    }

    @Override
    protected MixedOperation<Pod, ? extends KubernetesResourceList<Pod>, ? extends Resource<Pod>> operation() {
        return client.pods();
    }

    @Override
    protected String namespaceOf(String pool) {
        // A long prefix plus a long pool name can exceed the 63 characters of a namespace name.
        return Names.requireDns1123Label("namespace", namespacePrefix + pool);
    }

    @Override
    public Member create(String pool, String templateVersion, DesiredPower power) {
        Names.requireDns1123Label("pool", pool);
        config(pool, templateVersion);
        return super.create(pool, templateVersion, power);
    }

    private SchedulerConfig config(String pool, String templateVersion) {
        return templates.find(pool, templateVersion).orElseThrow(() -> new ValidationException(Problem.of("templateVersion",
                templateVersion, "no scheduler config registered for scheduler '" + pool + "' at this version")));
    }

    /** Creates the pool's namespace the first time this driver writes to it (one GET, and a POST if missing). */
    @Override
    protected void prepare(String pool) {
        String namespace = namespaceOf(pool);
        if (preparedNamespaces.contains(namespace)) {
            return;
        }
        if (call("read namespace " + namespace, () -> client.namespaces().withName(namespace).get()) == null) {
            try {
                call("create namespace " + namespace, () -> client.namespaces().resource(new NamespaceBuilder()
                        .withNewMetadata().withName(namespace)
                        .addToLabels(Kube.MANAGED_BY, Kube.MANAGER).addToLabels(Kube.POOL, pool)
                        .endMetadata().build()).create());
            } catch (KubernetesClientException e) {
                if (!Kube.isConflict(e)) {
                    throw e;
                }
            }
        }
        preparedNamespaces.add(namespace);
    }

    @Override
    protected Pod build(String pool, String id, String templateVersion, DesiredPower power, Instant now) {
        SchedulerConfig config = config(pool, templateVersion);
        Map<String, String> annotations = standardAnnotations(now);
        if (power != DesiredPower.UNSET) {
            annotations.put(Kube.DESIRED_POWER, power.name());
        }
        ContainerBuilder container = new ContainerBuilder().withName(CONTAINER).withImage(config.image());
        if (!config.cmd().isEmpty()) {
            container.withCommand(config.cmd());
        }
        for (dev.hotspare.fleet.SchedulerConfig.EnvVar env : config.env()) {
            container.addToEnv(new EnvVarBuilder().withName(env.name()).withValue(env.value()).build());
        }
        if (roomTokens.isPresent()) {
            // Last, so that it wins over a variable of the same name in the config. The pod waits (container
            // creating) until its Secret exists, which created() writes right after the pod.
            container.addToEnv(new EnvVarBuilder().withName(ROOM_TOKEN_VARIABLE).withNewValueFrom().withNewSecretKeyRef()
                    .withName(tokenSecretName(id)).withKey(ROOM_TOKEN_KEY).endSecretKeyRef().endValueFrom().build());
        }
        for (Port port : config.ports()) {
            container.addToPorts(new ContainerPortBuilder().withName(port.name()).withContainerPort(port.containerPort())
                    .withProtocol(port.protocol().name()).build());
        }
        if (hasAny(config.requests()) || hasAny(config.limits())) {
            container.withResources(new ResourceRequirementsBuilder()
                    .withRequests(quantities(config.requests())).withLimits(quantities(config.limits())).build());
        }
        PodSpecBuilder spec = new PodSpecBuilder().withContainers(container.build()).withRestartPolicy("Never");
        config.shutdownTimeout().ifPresent(spec::withTerminationGracePeriodSeconds);
        config.affinity().ifPresent(label -> spec.withNewAffinity().withNewNodeAffinity()
                .addNewPreferredDuringSchedulingIgnoredDuringExecution().withWeight(100)
                .withNewPreference().addNewMatchExpression().withKey(label).withOperator("In").withValues("true")
                .endMatchExpression().endPreference().endPreferredDuringSchedulingIgnoredDuringExecution()
                .endNodeAffinity().endAffinity());
        config.toleration().ifPresent(taint -> spec.addToTolerations(new TolerationBuilder().withKey(taint)
                .withOperator("Equal").withValue("true").withEffect("NoSchedule").build()));
        return new PodBuilder()
                .withNewMetadata().withName(id).withNamespace(namespaceOf(pool))
                .withLabels(standardLabels(pool, id, templateVersion)).withAnnotations(annotations).endMetadata()
                .withSpec(spec.build())
                .build();
    }

    /** With services on and ports in the config: one NodePort service per room, owned by the pod. */
    @Override
    protected void created(String pool, Pod pod, String templateVersion) {
        String name = pod.getMetadata().getName();
        if (roomTokens.isPresent()) {
            // Owned by the pod, so it goes when the pod does; the token is in the API server and the pod only.
            Secret secret = new SecretBuilder()
                    .withNewMetadata().withName(tokenSecretName(name)).withNamespace(namespaceOf(pool))
                    .withLabels(standardLabels(pool, name, templateVersion))
                    .addNewOwnerReference().withApiVersion("v1").withKind("Pod").withName(name)
                    .withUid(pod.getMetadata().getUid()).withController(true).endOwnerReference()
                    .endMetadata()
                    .withType("Opaque")
                    .withStringData(Map.of(ROOM_TOKEN_KEY, roomTokens.get().tokenFor(pool, name)))
                    .build();
            call("create secret " + tokenSecretName(name), () -> client.secrets().inNamespace(namespaceOf(pool)).resource(secret).create());
        }
        SchedulerConfig config = config(pool, templateVersion);
        if (!nodePortServices || config.ports().isEmpty()) {
            return;
        }
        List<ServicePort> ports = config.ports().stream().map(p -> new ServicePortBuilder().withName(p.name())
                .withPort(p.containerPort()).withNewTargetPort(p.containerPort()).withProtocol(p.protocol().name()).build()).toList();
        Service service = new ServiceBuilder()
                .withNewMetadata().withName(name).withNamespace(namespaceOf(pool))
                .withLabels(standardLabels(pool, name, templateVersion))
                .addNewOwnerReference().withApiVersion("v1").withKind("Pod").withName(name)
                .withUid(pod.getMetadata().getUid()).withController(true).endOwnerReference()
                .endMetadata()
                .withNewSpec().withType("NodePort").withSelector(Map.of(Kube.MEMBER, name)).withPorts(ports).endSpec()
                .build();
        call("create service " + name, () -> client.services().inNamespace(namespaceOf(pool)).resource(service).create());
    }

    /**
     * Where the room is reachable: its node's address and the node port of each named port. Empty while the
     * room is not scheduled, has no service, or its node reports no address.
     *
     * @param memberId the member
     */
    public Optional<RoomAddress> address(String pool, String memberId) {
        Names.requireDns1123Label("pool", pool);
        Names.requireDns1123Label("memberId", memberId);
        String namespace = namespaceOf(pool);
        Pod pod = call("read pod " + memberId, () -> client.pods().inNamespace(namespace).withName(memberId).get());
        if (pod == null || pod.getSpec() == null || pod.getSpec().getNodeName() == null) {
            return Optional.empty();
        }
        Node node = call("read node " + pod.getSpec().getNodeName(), () -> client.nodes().withName(pod.getSpec().getNodeName()).get());
        Service service = call("read service " + memberId, () -> client.services().inNamespace(namespace).withName(memberId).get());
        if (node == null || service == null || node.getStatus() == null || node.getStatus().getAddresses() == null) {
            return Optional.empty();
        }
        Optional<String> host = Optional.empty();
        for (String type : List.of("ExternalIP", "ExternalDNS", "InternalIP")) {
            host = host.or(() -> node.getStatus().getAddresses().stream().filter(a -> type.equals(a.getType()))
                    .map(NodeAddress::getAddress).findFirst());
        }
        if (host.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Integer> ports = new LinkedHashMap<>();
        for (ServicePort port : service.getSpec().getPorts()) {
            if (port.getName() != null && port.getNodePort() != null) {
                ports.put(port.getName(), port.getNodePort());
            }
        }
        return Optional.of(new RoomAddress(host.get(), ports));
    }

    @Override
    protected boolean applyDesiredPower(Pod copy, DesiredPower power) {
        Map<String, String> annotations = annotations(copy);
        String wanted = power == DesiredPower.UNSET ? null : power.name();
        if (Objects.equals(annotations.get(Kube.DESIRED_POWER), wanted)) {
            return false;
        }
        if (wanted == null) {
            annotations.remove(Kube.DESIRED_POWER);
        } else {
            annotations.put(Kube.DESIRED_POWER, wanted);
        }
        return true;
    }

    @Override
    protected Member toMember(Pod pod, Member previous) {
        Member base = baseMember(pod, clock.instant());
        Map<String, String> annotations = pod.getMetadata().getAnnotations() == null ? Map.of() : pod.getMetadata().getAnnotations();
        DesiredPower desired = parsePower(annotations.get(Kube.DESIRED_POWER));
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        Optional<PodCondition> ready = pod.getStatus() == null || pod.getStatus().getConditions() == null ? Optional.empty()
                : pod.getStatus().getConditions().stream().filter(c -> "Ready".equals(c.getType())).findFirst();
        boolean isReady = "Running".equals(phase) && ready.map(c -> "True".equals(c.getStatus())).orElse(false);
        MemberPhase memberPhase;
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            memberPhase = MemberPhase.DELETING;
        } else if ("Failed".equals(phase) || "Succeeded".equals(phase)) {
            memberPhase = MemberPhase.FAILED;
        } else if (isReady) {
            memberPhase = MemberPhase.READY;
        } else {
            memberPhase = MemberPhase.PROVISIONING;
        }
        ObservedPower observed = isReady ? ObservedPower.RUNNING : ObservedPower.UNKNOWN;
        Instant readySince = ready.flatMap(c -> parseInstant(c.getLastTransitionTime()))
                .or(() -> previous != null && previous.observedPower() == observed ? Optional.of(previous.observedPowerSince()) : Optional.empty())
                .orElse(base.createdAt());
        Instant since = isReady ? readySince : base.createdAt();
        Optional<Instant> installed = isReady ? Optional.of(readySince)
                : previous == null ? Optional.empty() : previous.installedAt();
        Optional<Instant> running = isReady ? Optional.of(readySince)
                : previous == null ? Optional.empty() : previous.lastBecameRunningAt();
        return new Member(base.id(), base.createdAt(), base.templateVersion(), memberPhase, desired, observed, since,
                installed, running, base.claimName(), base.claimedAt(), base.releasedAt(), base.orphanedSince());
    }

    static DesiredPower parsePower(String text) {
        if (text == null) {
            return DesiredPower.UNSET;
        }
        try {
            return DesiredPower.valueOf(text);
        } catch (IllegalArgumentException e) {
            return DesiredPower.UNSET;
        }
    }

    private static boolean hasAny(Resources resources) {
        return resources.cpu().isPresent() || resources.memory().isPresent();
    }

    private static Map<String, Quantity> quantities(Resources resources) {
        Map<String, Quantity> out = new LinkedHashMap<>();
        resources.cpu().ifPresent(q -> out.put("cpu", new Quantity(q.toString())));
        resources.memory().ifPresent(q -> out.put("memory", new Quantity(q.toString())));
        return out;
    }

    /** Builder for {@link PodMemberDriver}. */
    public static final class Builder extends CommonOptions<Builder> {
        private final RoomTemplates templates;
        private String namespacePrefix = "";
        private boolean nodePortServices;
        private RoomTokens roomTokens;

        private Builder(KubernetesClient client, RoomTemplates templates) {
            super(client);
            this.templates = Objects.requireNonNull(templates, "templates");
        }

        /**
         * Prepended to the pool name to make its namespace (default none: the namespace is the scheduler name).
         *
         * @param prefix the key prefix
         * @return prepended to the pool name to make its namespace (default none: the namespace is the scheduler
         *         name)
         */
        public Builder namespacePrefix(String prefix) {
            Objects.requireNonNull(prefix, "namespacePrefix");
            if (!prefix.isEmpty()) {
                Names.requireDns1123Label("namespacePrefix", prefix.endsWith("-") ? prefix.substring(0, prefix.length() - 1) : prefix);
            }
            this.namespacePrefix = prefix;
            return this;
        }

        /**
         * Whether to create a NodePort service per room (default off).
         */
        public Builder nodePortServices(boolean enabled) {
            this.nodePortServices = enabled;
            return this;
        }

        /**
         * Gives every room its own credential (default none): at creation a Secret {@code <pod>-token} owned by
         * the pod holds {@code tokens.tokenFor(pool, pod)}, and the pod reads it as {@value #ROOM_TOKEN_VARIABLE}.
         * Needs {@code create} on secrets (docs/kubernetes-rbac.yaml).
         *
         * @param tokens issues the tokens
         * @return this builder
         */
        public Builder roomTokens(RoomTokens tokens) {
            this.roomTokens = Objects.requireNonNull(tokens, "roomTokens");
            return this;
        }

        public PodMemberDriver build() {
            return new PodMemberDriver(this);
        }
    }
}
