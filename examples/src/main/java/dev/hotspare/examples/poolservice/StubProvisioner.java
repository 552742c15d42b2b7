package dev.hotspare.examples.poolservice;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Plays the operator that owns the custom resources (Hive, for ClusterDeployments): hotspare only writes the
 * desired power ({@code spec.powerState}); something else must install clusters and move their observed power.
 * Each {@link #step()} reads the pool's resources and moves each one step, the way Hive reports it:
 * <ul>
 *   <li>not installed and {@code installTime} since creation → {@code spec.installed: true},
 *       {@code status.installedTimestamp}, {@code status.powerState: Running};</li>
 *   <li>asked {@code Hibernating} while Running/Resuming → {@code Stopping}, and {@code hibernateTime} later
 *       {@code Hibernating};</li>
 *   <li>asked {@code Running} (or nothing) while Hibernating/Stopping → {@code Resuming}, and {@code resumeTime}
 *       later {@code Running};</li>
 * </ul>
 * every change stamping {@code status.powerStateLastTransitionTime}. Writes are compare-and-set PUTs; a conflict is
 * left for the next step. For tests (stepped on virtual time) and for demos on a cluster without Hive
 * ({@code --stub-provisioner}); never alongside a real Hive.
 */
public final class StubProvisioner {

    /** One resource moved by a step: its name and its observed power before and after. */
    public record Move(String member, String from, String to) {
    }

    private static final String POOL_LABEL = "hotspare.dev/pool";
    private static final String CREATED_AT = "hotspare.dev/created-at";

    private final KubernetesClient client;
    private final ResourceDefinitionContext context;
    private final String namespace;
    private final String pool;
    private final Clock clock;
    private final Duration installTime;
    private final Duration resumeTime;
    private final Duration hibernateTime;

    /**
     * @param client a client of its own (the operator is another actor than hotspare)
     */
    public StubProvisioner(KubernetesClient client, ResourceDefinitionContext context, String namespace, String pool,
                           Clock clock, Duration installTime, Duration resumeTime, Duration hibernateTime) {
        this.client = Objects.requireNonNull(client, "client");
        this.context = Objects.requireNonNull(context, "context");
        this.namespace = Objects.requireNonNull(namespace, "namespace");
        this.pool = Objects.requireNonNull(pool, "pool");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.installTime = Objects.requireNonNull(installTime, "installTime");
        this.resumeTime = Objects.requireNonNull(resumeTime, "resumeTime");
        this.hibernateTime = Objects.requireNonNull(hibernateTime, "hibernateTime");
    }

    /** Moves every resource of the pool one step, if its time has come; returns what moved. */
    public List<Move> step() {
        Instant now = clock.instant();
        List<Move> moves = new ArrayList<>();
        var resources = client.genericKubernetesResources(context).inNamespace(namespace);
        for (GenericKubernetesResource r : resources.withLabel(POOL_LABEL, pool).list().getItems()) {
            if (r.getMetadata().getDeletionTimestamp() != null) {
                continue;
            }
            Optional<String> next = next(r, now);
            if (next.isEmpty()) {
                continue;
            }
            String from = String.valueOf(status(r).get("powerState"));
            Map<String, Object> status = status(r);
            if (!installed(r)) {
                spec(r).put("installed", true);
                status.put("installedTimestamp", now.toString());
            }
            status.put("powerState", next.get());
            status.put("powerStateLastTransitionTime", now.toString());
            r.getAdditionalProperties().put("status", status);
            try {
                resources.resource(r).update();
                moves.add(new Move(r.getMetadata().getName(), from, next.get()));
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) {
                    throw e;
                }
                // hotspare changed it meanwhile; the next step reads it again
            }
        }
        return moves;
    }

    /** The observed power a resource moves to now, if any. Pure. */
    Optional<String> next(GenericKubernetesResource r, Instant now) {
        if (!installed(r)) {
            Instant created = instant(r.getMetadata().getAnnotations() == null ? null
                    : r.getMetadata().getAnnotations().get(CREATED_AT))
                    .or(() -> instant(r.getMetadata().getCreationTimestamp())).orElse(now);
            return now.isBefore(created.plus(installTime)) ? Optional.empty() : Optional.of("Running");
        }
        Object asked = spec(r).get("powerState");
        String observed = String.valueOf(status(r).get("powerState"));
        Instant since = instant((String) status(r).get("powerStateLastTransitionTime")).orElse(now);
        boolean wantsHibernation = "Hibernating".equals(asked);
        return switch (observed) {
            case "Running" -> wantsHibernation ? Optional.of("Stopping") : Optional.empty();
            case "Resuming" -> wantsHibernation ? Optional.of("Stopping")
                    : now.isBefore(since.plus(resumeTime)) ? Optional.empty() : Optional.of("Running");
            case "Stopping" -> !wantsHibernation ? Optional.of("Resuming")
                    : now.isBefore(since.plus(hibernateTime)) ? Optional.empty() : Optional.of("Hibernating");
            case "Hibernating" -> wantsHibernation ? Optional.empty() : Optional.of("Resuming");
            default -> Optional.of("Running");
        };
    }

    private static boolean installed(GenericKubernetesResource r) {
        Object installed = spec(r).get("installed");
        return Boolean.TRUE.equals(installed) || "true".equals(installed);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource r) {
        Object spec = r.getAdditionalProperties().get("spec");
        Map<String, Object> copy = spec instanceof Map ? new LinkedHashMap<>((Map<String, Object>) spec) : new LinkedHashMap<>();
        r.getAdditionalProperties().put("spec", copy);
        return copy;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> status(GenericKubernetesResource r) {
        Object status = r.getAdditionalProperties().get("status");
        Map<String, Object> copy = status instanceof Map ? new LinkedHashMap<>((Map<String, Object>) status) : new LinkedHashMap<>();
        r.getAdditionalProperties().put("status", copy);
        return copy;
    }

    private static Optional<Instant> instant(String text) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(java.time.OffsetDateTime.parse(text).toInstant());
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
