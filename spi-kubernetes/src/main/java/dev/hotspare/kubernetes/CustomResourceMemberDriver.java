package dev.hotspare.kubernetes;

import dev.hotspare.kubernetes.internal.Kube;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * {@link dev.hotspare.pool.spi.MemberDriver} for cluster-like members kept as custom resources (Hive's
 * {@code ClusterDeployment} is the model): the user names the group/version/kind and gives a template object
 * per template version; another controller (Hive, your operator) does the actual provisioning and power
 * changes and reports them in the resource's status.
 *
 * <h2>Mapping (every field path is configurable; defaults follow Hive)</h2>
 * <ul>
 *   <li>Desired power → {@code spec.powerState}: {@code Running} / {@code Hibernating}; UNSET leaves the field
 *       absent.</li>
 *   <li>Observed power ← {@code status.powerState} through a value map. The default understands Hive's
 *       {@code ClusterDeployment}: {@code Running} → RUNNING, {@code Hibernating} → HIBERNATING; every
 *       resume-in-progress state ({@code Resuming}, {@code StartingMachines}, {@code WaitingForMachines},
 *       {@code WaitingForNodes}, {@code PausingForClusterOperatorsToSettle}, {@code WaitingForClusterOperators},
 *       {@code SyncSetsNotApplied}, {@code FailedToStartMachines}) → RESUMING, so {@code resumeTimeout} fires on a
 *       resume that never ends; every stop-in-progress state ({@code Stopping}, {@code WaitingForMachinesToStop},
 *       {@code FailedToStop}) → HIBERNATING_IN_PROGRESS; anything else UNKNOWN. When it changed ←
 *       {@code status.powerStateLastTransitionTime} if present, else the instant this driver first saw the member in
 *       that observed power (the sub-states of one resume count as one).</li>
 *   <li>Installed ← {@code spec.installed} (boolean), installed at ← {@code status.installedTimestamp}.</li>
 *   <li>Failed ← a predicate you give; the default, {@link #hiveProvisionFailed}, is Hive's: a
 *       {@code ProvisionStopped} or {@code ProvisionFailed} condition with status {@code True}. Deleting ← the
 *       deletion timestamp.</li>
 *   <li>Pool, member id and template version → labels; claim, claim time, release mark and orphan mark →
 *       annotations ({@code hotspare.dev/claim}, {@code hotspare.dev/claimed-at}, {@code hotspare.dev/released-at},
 *       {@code hotspare.dev/orphaned-since}); creation instant → {@code hotspare.dev/created-at}. A member without
 *       the template-version label has an unknown template version.</li>
 * </ul>
 * All members of all pools live in one namespace, told apart by the {@code hotspare.dev/pool} label; each pool
 * has its own label-selected informer.
 *
 * <h2>Writes</h2>
 * Create is one POST with the desired power already in the object (where Hive needs a create and an update);
 * a power change or assignment is one PUT with the resourceVersion that was read, made only when the field or
 * annotation differs from the asked value; delete is one DELETE.
 */
public final class CustomResourceMemberDriver extends AbstractKubernetesMemberDriver<GenericKubernetesResource> {

    private static final String STORE = "kubernetes custom resource member driver";

    /**
     * The default observed-power value map: Hive's {@code ClusterDeployment} {@code status.powerState} values,
     * every resume-in-progress state as RESUMING and every stop-in-progress state as HIBERNATING_IN_PROGRESS.
     */
    public static final Map<String, ObservedPower> HIVE_POWER_STATES = hivePowerStates();

    private final ResourceDefinitionContext context;
    private final String namespace;
    private final Map<String, GenericKubernetesResource> templates;
    private final List<String> desiredPowerPath;
    private final String runningValue;
    private final String hibernatingValue;
    private final List<String> observedPowerPath;
    private final Map<String, ObservedPower> observedPowerValues;
    private final List<String> observedPowerSincePath;
    private final List<String> installedPath;
    private final List<String> installedAtPath;
    private final Predicate<GenericKubernetesResource> failed;

    private CustomResourceMemberDriver(Builder b) {
        super(b.client, b.clock, STORE, b.resyncPeriod, b.syncTimeout);
        this.context = b.context;
        this.namespace = b.namespace;
        this.templates = Map.copyOf(b.templates);
        this.desiredPowerPath = path("desiredPowerField", b.desiredPowerField);
        this.runningValue = b.runningValue;
        this.hibernatingValue = b.hibernatingValue;
        this.observedPowerPath = path("observedPowerField", b.observedPowerField);
        this.observedPowerValues = Map.copyOf(b.observedPowerValues);
        this.observedPowerSincePath = path("observedPowerSinceField", b.observedPowerSinceField);
        this.installedPath = path("installedField", b.installedField);
        this.installedAtPath = path("installedAtField", b.installedAtField);
        this.failed = b.failed;
    }

    /**
     * A builder for members of kind {@code context} (group, version, plural, kind; namespaced) in
     * {@code namespace}.
     *
     * @return a builder for members of kind {@code context} (group, version, plural, kind; namespaced) in {@code
     *         namespace}
     */
    public static Builder builder(KubernetesClient client, ResourceDefinitionContext context, String namespace) {
        return new Builder(client, context, namespace);
    }

    @Override
    protected MixedOperation<GenericKubernetesResource, ? extends KubernetesResourceList<GenericKubernetesResource>,
            ? extends Resource<GenericKubernetesResource>> operation() {
        return client.genericKubernetesResources(context);
    }

    @Override
    protected String namespaceOf(String pool) {
        return namespace;
    }

    @Override
    protected GenericKubernetesResource build(String pool, String id, String templateVersion, DesiredPower power, Instant now) {
        GenericKubernetesResource template = templates.get(templateVersion);
        if (template == null) {
            throw new ValidationException(Problem.of("templateVersion", templateVersion,
                    "no template registered; known: " + templates.keySet()));
        }
        GenericKubernetesResource object = client.getKubernetesSerialization().clone(template);
        object.setApiVersion(context.getGroup() + "/" + context.getVersion());
        object.setKind(context.getKind());
        io.fabric8.kubernetes.api.model.ObjectMeta meta = object.getMetadata() == null
                ? new io.fabric8.kubernetes.api.model.ObjectMeta() : object.getMetadata();
        meta.setName(id);
        meta.setGenerateName(null);
        meta.setNamespace(namespace);
        Map<String, String> labels = new LinkedHashMap<>(meta.getLabels() == null ? Map.of() : meta.getLabels());
        labels.putAll(standardLabels(pool, id, templateVersion));
        meta.setLabels(labels);
        Map<String, String> annotations = new LinkedHashMap<>(meta.getAnnotations() == null ? Map.of() : meta.getAnnotations());
        annotations.putAll(standardAnnotations(now));
        meta.setAnnotations(annotations);
        object.setMetadata(meta);
        object.getAdditionalProperties().remove("status");
        applyDesiredPower(object, power);
        return object;
    }

    @Override
    protected boolean applyDesiredPower(GenericKubernetesResource copy, DesiredPower power) {
        String wanted = switch (power) {
            case RUNNING -> runningValue;
            case HIBERNATING -> hibernatingValue;
            case UNSET -> null;
        };
        Object current = read(copy, desiredPowerPath);
        if (Objects.equals(current, wanted)) {
            return false;
        }
        write(copy, desiredPowerPath, wanted);
        return true;
    }

    @Override
    protected Member toMember(GenericKubernetesResource object, Member previous) {
        Instant now = clock.instant();
        Member base = baseMember(object, now);
        Object desiredText = read(object, desiredPowerPath);
        DesiredPower desired = runningValue.equals(desiredText) ? DesiredPower.RUNNING
                : hibernatingValue.equals(desiredText) ? DesiredPower.HIBERNATING : DesiredPower.UNSET;
        boolean installed = Boolean.TRUE.equals(read(object, installedPath)) || "true".equals(read(object, installedPath));
        Object powerText = read(object, observedPowerPath);
        ObservedPower observed = powerText == null ? ObservedPower.UNKNOWN
                : observedPowerValues.getOrDefault(powerText.toString(), ObservedPower.UNKNOWN);
        MemberPhase phase;
        if (object.getMetadata().getDeletionTimestamp() != null) {
            phase = MemberPhase.DELETING;
        } else if (failed.test(object)) {
            phase = MemberPhase.FAILED;
        } else if (installed) {
            phase = MemberPhase.READY;
        } else {
            phase = MemberPhase.PROVISIONING;
        }
        boolean samePower = previous != null && previous.observedPower() == observed;
        Instant since = text(object, observedPowerSincePath).flatMap(AbstractKubernetesMemberDriver::parseInstant)
                .orElse(samePower ? previous.observedPowerSince() : previous == null ? base.createdAt() : now);
        Optional<Instant> installedAt = !installed ? Optional.empty()
                : text(object, installedAtPath).flatMap(AbstractKubernetesMemberDriver::parseInstant)
                .or(() -> previous == null ? Optional.empty() : previous.installedAt())
                .or(() -> Optional.of(now));
        Optional<Instant> lastRunning = observed == ObservedPower.RUNNING
                ? (samePower && previous.lastBecameRunningAt().isPresent() ? previous.lastBecameRunningAt() : Optional.of(since))
                : previous == null ? Optional.empty() : previous.lastBecameRunningAt();
        return new Member(base.id(), base.createdAt(), base.templateVersion(), phase, desired, observed, since,
                installedAt, lastRunning, base.claimName(), base.claimedAt(), base.releasedAt(), base.orphanedSince());
    }

    private static Map<String, ObservedPower> hivePowerStates() {
        Map<String, ObservedPower> states = new LinkedHashMap<>();
        states.put("Running", ObservedPower.RUNNING);
        states.put("Hibernating", ObservedPower.HIBERNATING);
        for (String resuming : List.of("Resuming", "StartingMachines", "WaitingForMachines", "WaitingForNodes",
                "PausingForClusterOperatorsToSettle", "WaitingForClusterOperators", "SyncSetsNotApplied", "FailedToStartMachines")) {
            states.put(resuming, ObservedPower.RESUMING);
        }
        for (String stopping : List.of("Stopping", "WaitingForMachinesToStop", "FailedToStop")) {
            states.put(stopping, ObservedPower.HIBERNATING_IN_PROGRESS);
        }
        states.put("Unknown", ObservedPower.UNKNOWN);
        return java.util.Collections.unmodifiableMap(states);
    }

    /**
     * Hive's notion of a failed provision: the object has a {@code status.conditions} entry of type
     * {@code ProvisionStopped} (Hive gave up installing) or {@code ProvisionFailed} (the install failed) with status
     * {@code True}. The default of {@link Builder#failedWhen}.
     *
     * @param object a member object
     * @return whether its provision stopped or failed
     */
    public static boolean hiveProvisionFailed(GenericKubernetesResource object) {
        Object conditions = read(object, List.of("status", "conditions"));
        if (!(conditions instanceof List<?> list)) {
            return false;
        }
        for (Object entry : list) {
            if (entry instanceof Map<?, ?> condition
                    && ("ProvisionStopped".equals(condition.get("type")) || "ProvisionFailed".equals(condition.get("type")))
                    && "True".equals(String.valueOf(condition.get("status")))) {
                return true;
            }
        }
        return false;
    }

    // --- field paths -----------------------------------------------------------------------------------------

    private static List<String> path(String field, String dotted) {
        if (dotted == null || dotted.isBlank() || dotted.startsWith(".") || dotted.endsWith(".") || dotted.contains("..")) {
            throw new ValidationException(Problem.of(field, dotted == null ? Problem.MISSING : dotted,
                    "must be a dotted field path such as 'spec.powerState'"));
        }
        return List.of(dotted.split("\\."));
    }

    private static Optional<String> text(GenericKubernetesResource object, List<String> path) {
        Object value = read(object, path);
        return value == null ? Optional.empty() : Optional.of(value.toString());
    }

    @SuppressWarnings("unchecked")
    static Object read(GenericKubernetesResource object, List<String> path) {
        Object node = object.getAdditionalProperties();
        for (String key : path) {
            if (!(node instanceof Map)) {
                return null;
            }
            node = ((Map<String, Object>) node).get(key);
        }
        return node;
    }

    @SuppressWarnings("unchecked")
    static void write(GenericKubernetesResource object, List<String> path, Object value) {
        Map<String, Object> node = object.getAdditionalProperties();
        for (String key : path.subList(0, path.size() - 1)) {
            Object child = node.get(key);
            if (!(child instanceof Map)) {
                if (value == null) {
                    return;
                }
                child = new LinkedHashMap<String, Object>();
                node.put(key, child);
            } else if (!(child instanceof LinkedHashMap)) {
                child = new LinkedHashMap<>((Map<String, Object>) child);
                node.put(key, child);
            }
            node = (Map<String, Object>) child;
        }
        String last = path.get(path.size() - 1);
        if (value == null) {
            node.remove(last);
        } else {
            node.put(last, value);
        }
    }

    /** Builder for {@link CustomResourceMemberDriver}; every field path is a dotted path into the object. */
    public static final class Builder extends CommonOptions<Builder> {
        private final ResourceDefinitionContext context;
        private final String namespace;
        private final Map<String, GenericKubernetesResource> templates = new ConcurrentHashMap<>();
        private String desiredPowerField = "spec.powerState";
        private String runningValue = "Running";
        private String hibernatingValue = "Hibernating";
        private String observedPowerField = "status.powerState";
        private final Map<String, ObservedPower> observedPowerValues = new LinkedHashMap<>(HIVE_POWER_STATES);
        private String observedPowerSinceField = "status.powerStateLastTransitionTime";
        private String installedField = "spec.installed";
        private String installedAtField = "status.installedTimestamp";
        private Predicate<GenericKubernetesResource> failed = CustomResourceMemberDriver::hiveProvisionFailed;

        private Builder(KubernetesClient client, ResourceDefinitionContext context, String namespace) {
            super(client);
            this.context = Objects.requireNonNull(context, "context");
            if (context.getKind() == null || context.getPlural() == null || context.getVersion() == null || context.getGroup() == null) {
                throw new ValidationException(Problem.of("context", context.toString(), "needs group, version, kind and plural"));
            }
            this.namespace = Names.requireDns1123Label("namespace", namespace);
        }

        /**
         * The object members of {@code templateVersion} are made from (name, namespace and status are replaced).
         *
         * @return the object members of {@code templateVersion} are made from (name, namespace and status are
         *         replaced)
         */
        public Builder template(String templateVersion, GenericKubernetesResource template) {
            Kube.requireTemplateVersion("templateVersion", templateVersion);
            templates.put(templateVersion, Objects.requireNonNull(template, "template"));
            return this;
        }

        /**
         * Where desired power is written, and its two values (default {@code spec.powerState}, Running / Hibernating).
         *
         * @return where desired power is written, and its two values (default {@code spec.powerState}, Running /
         *         Hibernating)
         */
        public Builder desiredPowerField(String path, String running, String hibernating) {
            path("desiredPowerField", path);
            this.desiredPowerField = path;
            this.runningValue = Objects.requireNonNull(running, "running");
            this.hibernatingValue = Objects.requireNonNull(hibernating, "hibernating");
            return this;
        }

        /**
         * Where observed power is read and what its values mean (replaces the default value map).
         */
        public Builder observedPowerField(String path, Map<String, ObservedPower> values) {
            path("observedPowerField", path);
            this.observedPowerField = path;
            this.observedPowerValues.clear();
            this.observedPowerValues.putAll(values);
            return this;
        }

        /**
         * Where the time of the last observed power change is read (an RFC 3339 timestamp).
         */
        public Builder observedPowerSinceField(String path) {
            path("observedPowerSinceField", path);
            this.observedPowerSinceField = path;
            return this;
        }

        /**
         * Where "installed" (a boolean) and the installation time are read.
         */
        public Builder installedFields(String installedPath, String installedAtPath) {
            path("installedField", installedPath);
            path("installedAtField", installedAtPath);
            this.installedField = installedPath;
            this.installedAtField = installedAtPath;
            return this;
        }

        /**
         * When a member counts as failed (the pool then replaces it); replaces the default,
         * {@link CustomResourceMemberDriver#hiveProvisionFailed}.
         *
         * @param predicate true for a failed member
         * @return this builder
         */
        public Builder failedWhen(Predicate<GenericKubernetesResource> predicate) {
            this.failed = Objects.requireNonNull(predicate, "failedWhen");
            return this;
        }

        public CustomResourceMemberDriver build() {
            return new CustomResourceMemberDriver(this);
        }
    }
}
