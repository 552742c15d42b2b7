package dev.hotspare.fleet.autoscale;

import dev.hotspare.fleet.PolicyTypes;
import dev.hotspare.fleet.PolicyTypes.PolicyType;
import dev.hotspare.fleet.autoscale.ScalingPolicy.TargetPolicy;
import dev.hotspare.fleet.autoscale.internal.CpuPolicy;
import dev.hotspare.fleet.autoscale.internal.FixedBufferPolicy;
import dev.hotspare.fleet.autoscale.internal.LegacyPolicy;
import dev.hotspare.fleet.autoscale.internal.MemPolicy;
import dev.hotspare.fleet.autoscale.internal.RoomOccupancyPolicy;
import dev.hotspare.fleet.autoscale.internal.RoomPolicy;
import dev.hotspare.validation.Names;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * An immutable registry of {@link ScalingPolicy}s by type name. Start from {@link #builtIn()} (room, cpu,
 * mem, legacy, and the Maestro 10 policies roomOccupancy and fixedBuffer) or {@link #loaded()} (built-ins plus every
 * policy found by {@link ServiceLoader}) and add your own with {@link #with(ScalingPolicy)}. {@link #types()}
 * describes them all to config validation, parameters included.
 */
public final class ScalingPolicies {

    private static final Pattern TARGET_NAME = Pattern.compile("[a-z][a-zA-Z0-9]{0,62}");

    private final Map<String, ScalingPolicy> byType;

    private ScalingPolicies(Map<String, ScalingPolicy> byType) {
        this.byType = Collections.unmodifiableMap(byType);
    }

    /**
     * The built-in policies: room, cpu, mem, legacy, roomOccupancy, fixedBuffer.
     *
     * @return the registry
     */
    public static ScalingPolicies builtIn() {
        Map<String, ScalingPolicy> map = new LinkedHashMap<>();
        for (ScalingPolicy p : new ScalingPolicy[]{new RoomPolicy(), new CpuPolicy(), new MemPolicy(),
                new LegacyPolicy(), new RoomOccupancyPolicy(), new FixedBufferPolicy()}) {
            map.put(p.type(), p);
        }
        return new ScalingPolicies(map);
    }

    /**
     * The built-ins plus every policy on the class path listed in {@code META-INF/services/dev.hotspare.fleet.autoscale.ScalingPolicy}.
     *
     * @return the built-ins plus every policy on the class path listed in {@code
     *         META-INF/services/dev.hotspare.fleet.autoscale.ScalingPolicy}
     */
    public static ScalingPolicies loaded() {
        return loaded(Thread.currentThread().getContextClassLoader());
    }

    /**
     * As {@link #loaded()}, looking up services through {@code loader}.
     */
    public static ScalingPolicies loaded(ClassLoader loader) {
        // The built-ins are listed in core's own services file too; a repackaged jar that lost it still gets them.
        ScalingPolicies policies = new ScalingPolicies(new LinkedHashMap<>());
        for (ScalingPolicy p : ServiceLoader.load(ScalingPolicy.class, loader)) {
            ScalingPolicy existing = policies.byType.get(p.type());
            if (existing == null || existing.getClass() != p.getClass()) {
                policies = policies.with(p);
            }
        }
        for (ScalingPolicy p : builtIn().byType.values()) {
            if (!policies.byType.containsKey(p.type())) {
                policies = policies.with(p);
            }
        }
        return policies;
    }

    /**
     * The registered policy objects, in registration order.
     */
    public java.util.Collection<ScalingPolicy> all() {
        return byType.values();
    }

    /**
     * These policies plus {@code policy}.
     *
     * @param policy the policy to add
     * @return the new registry
     * @throws IllegalArgumentException when its type name is not a DNS-1123 label (a target policy's may be camel
     *                                  case: letters and digits starting with a lower-case letter) or is already
     *                                  registered
     */
    public ScalingPolicies with(ScalingPolicy policy) {
        String type = policy.type();
        if (policy instanceof TargetPolicy) {
            // Target policies record no usage history, so their names never become keys: Maestro 10's camel case is fine.
            if (type == null || !TARGET_NAME.matcher(type).matches()) {
                throw new IllegalArgumentException("type: bad value '" + type + "': a target policy's name is letters and "
                        + "digits starting with a lower-case letter, at most 63 characters");
            }
        } else {
            Names.requireDns1123Label("type", type);
        }
        if (byType.containsKey(type)) {
            throw new IllegalArgumentException("a scaling policy of type '" + type + "' is already registered ("
                    + byType.get(type).getClass().getName() + ")");
        }
        Map<String, ScalingPolicy> map = new LinkedHashMap<>(byType);
        map.put(type, policy);
        return new ScalingPolicies(map);
    }

    /**
     * The policy for {@code type}.
     */
    public Optional<ScalingPolicy> get(String type) {
        return Optional.ofNullable(byType.get(type));
    }

    /** The policy for {@code type}, or null: the allocation-free lookup for the autoscaler's hot path. */
    ScalingPolicy policy(String type) {
        return byType.get(type);
    }

    /**
     * Every registered type name.
     *
     * @return the names
     */
    public Set<String> typeNames() {
        return byType.keySet();
    }

    /**
     * Every registered policy as config validation sees it: name, kind (trigger type or target policy), declared
     * parameters and their rules.
     *
     * @return the types
     */
    public PolicyTypes types() {
        List<PolicyType> types = new ArrayList<>();
        for (ScalingPolicy p : byType.values()) {
            types.add(new PolicyType(p.type(), p instanceof TargetPolicy ? PolicyType.Kind.TARGET : PolicyType.Kind.TRIGGER,
                    p.parameters(), true, p::checkParameters));
        }
        return PolicyTypes.of(types);
    }
}
