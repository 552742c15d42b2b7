package dev.hotspare.fleet;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The scaling policies a config may name, as config validation sees them ({@link PolicyType}): the built-ins'
 * declarations live here so that validation needs no policy object, and {@code ScalingPolicies.types()} adds the
 * plug-ins'. Immutable.
 */
public final class PolicyTypes {

    /** {@code roomOccupancy}'s parameters (Maestro 10). */
    public static final List<PolicyParameter> ROOM_OCCUPANCY_PARAMETERS = List.of(
            PolicyParameter.decimal("readyTarget", "the share of match slots to keep free")
                    .above(BigDecimal.ZERO).below(BigDecimal.ONE),
            PolicyParameter.decimal("downThreshold", "scale down only when the share of free slots is at most this")
                    .atLeast(BigDecimal.ZERO).atMost(BigDecimal.ONE).withDefault(BigDecimal.ONE),
            PolicyParameter.whole("maxMatchesPerRoom", "the matches one room hosts at once")
                    .atLeast(1).atMost(RoomProtocol.MAX_RUNNING_MATCHES).withDefault(1));

    /** {@code fixedBuffer}'s parameters (Maestro 10). */
    public static final List<PolicyParameter> FIXED_BUFFER_PARAMETERS = List.of(
            PolicyParameter.whole("amount", "the ready rooms to keep above the occupied ones")
                    .atLeast(0).atMost(RoomProtocol.MAX_RUNNING_MATCHES));

    /** The built-in policies: trigger types room, cpu, mem, legacy; policies roomOccupancy, fixedBuffer. */
    public static final PolicyTypes BUILT_IN = new PolicyTypes(List.of(
            builtInTrigger(TriggerTypes.ROOM), builtInTrigger(TriggerTypes.CPU), builtInTrigger(TriggerTypes.MEM),
            builtInTrigger(TriggerTypes.LEGACY),
            new PolicyType(TriggerTypes.ROOM_OCCUPANCY, PolicyType.Kind.TARGET, ROOM_OCCUPANCY_PARAMETERS, true, null),
            new PolicyType(TriggerTypes.FIXED_BUFFER, PolicyType.Kind.TARGET, FIXED_BUFFER_PARAMETERS, true, null)));

    private final Map<String, PolicyType> byName;

    private PolicyTypes(Collection<PolicyType> types) {
        Map<String, PolicyType> map = new LinkedHashMap<>();
        for (PolicyType type : types) {
            if (map.putIfAbsent(type.name(), type) != null) {
                throw new IllegalArgumentException("type: bad value '" + type.name() + "': declared twice");
            }
        }
        this.byName = Collections.unmodifiableMap(map);
    }

    /**
     * These types.
     *
     * @param types the declarations, names unique
     * @return the set of types
     * @throws IllegalArgumentException when a name is declared twice
     */
    public static PolicyTypes of(Collection<PolicyType> types) {
        return new PolicyTypes(types);
    }

    /**
     * The built-ins plus every other name in {@code triggerTypes} as a trigger type known only by name: what a
     * caller that only has type names (plug-ins it cannot describe) validates against.
     *
     * @param triggerTypes type names
     * @return the set of types
     */
    public static PolicyTypes named(Set<String> triggerTypes) {
        Map<String, PolicyType> all = new LinkedHashMap<>(BUILT_IN.byName);
        new TreeSet<>(triggerTypes).forEach(name -> all.putIfAbsent(name, PolicyType.triggerNamed(name)));
        return new PolicyTypes(all.values());
    }

    /**
     * The declaration of {@code name}.
     *
     * @param name a type name
     * @return its declaration, if known
     */
    public Optional<PolicyType> get(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /**
     * Names of the types of {@code kind}, sorted.
     *
     * @param kind trigger or target
     */
    public Set<String> names(PolicyType.Kind kind) {
        return byName.values().stream().filter(t -> t.kind() == kind).map(PolicyType::name)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * Every declaration, in registration order.
     *
     * @return the declarations
     */
    public Collection<PolicyType> all() {
        return byName.values();
    }

    private static PolicyType builtInTrigger(String name) {
        return new PolicyType(name, PolicyType.Kind.TRIGGER, List.of(), true, null);
    }
}
