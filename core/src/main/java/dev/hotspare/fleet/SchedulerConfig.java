package dev.hotspare.fleet;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.hotspare.json.Documents;
import dev.hotspare.validation.Problem;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A scheduler: the specification of a set of game rooms (Maestro's scheduler config), read from YAML or
 * JSON with {@link SchedulerConfigs}. Field names and units are Maestro's: durations are whole seconds.
 *
 * <p>A value of this type is only structurally sound; {@link #validate(Set)} (which {@link SchedulerConfigs}
 * runs for you) says whether it is usable.
 *
 * @param name            scheduler name, a DNS-1123 label (it becomes a namespace, a key and a table value)
 * @param game            the game this scheduler serves (several schedulers may share one)
 * @param image           container image of a room
 * @param affinity        node label rooms prefer ({@code <affinity>: "true"})
 * @param toleration      node taint rooms tolerate
 * @param occupiedTimeout seconds a room may stay occupied before it is considered dead
 * @param ports           ports each room exposes
 * @param requests        resource requests per room; required by cpu / mem triggers
 * @param limits          resource limits per room
 * @param shutdownTimeout seconds a room gets to terminate gracefully
 * @param autoscaling     min, max, up and down triggers
 * @param env             environment variables of the room container
 * @param cmd             command line of the room container
 * @param forwarders      event forwarders: plugin name → forwarder name → settings
 * @param maxSurge        Maestro 10: rooms a rolling update replaces at once, {@code "25%"} of the rooms or a
 *                        number of rooms ({@code "3"}); default 25%
 */
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public record SchedulerConfig(
        @Required String name,
        @Required String game,
        @Required String image,
        Optional<String> affinity,
        Optional<String> toleration,
        Optional<Long> occupiedTimeout,
        List<Port> ports,
        Resources requests,
        Resources limits,
        Optional<Long> shutdownTimeout,
        Autoscaling autoscaling,
        List<EnvVar> env,
        List<String> cmd,
        Map<String, Map<String, ForwarderConfig>> forwarders,
        Optional<String> maxSurge) {

    /**
     * Fills in absent parts.
     *
     * @param name scheduler name, a DNS-1123 label (it becomes a namespace, a key and a table value)
     * @param game the game this scheduler serves (several schedulers may share one)
     * @param image container image of a room
     * @param affinity node label rooms prefer ({@code <affinity>: "true"})
     * @param toleration node taint rooms tolerate
     * @param occupiedTimeout seconds a room may stay occupied before it is considered dead
     * @param ports ports each room exposes
     * @param requests resource requests per room; required by cpu / mem triggers
     * @param limits the bounds of counts and durations
     * @param shutdownTimeout seconds a room gets to terminate gracefully
     * @param autoscaling min, max, up and down triggers
     * @param env environment variables of the room container
     * @param cmd command line of the room container
     * @param forwarders event forwarders: plugin name → forwarder name → settings
     * @param maxSurge Maestro 10: rooms a rolling update replaces at once, {@code "25%"} of the rooms or a number of
     *         rooms ({@code "3"}); default 25%
     */
    public SchedulerConfig {
        name = name == null ? "" : name;
        game = game == null ? "" : game;
        image = image == null ? "" : image;
        affinity = affinity == null ? Optional.empty() : affinity;
        toleration = toleration == null ? Optional.empty() : toleration;
        occupiedTimeout = occupiedTimeout == null ? Optional.empty() : occupiedTimeout;
        ports = ports == null ? List.of() : List.copyOf(ports);
        requests = requests == null ? Resources.NONE : requests;
        limits = limits == null ? Resources.NONE : limits;
        shutdownTimeout = shutdownTimeout == null ? Optional.empty() : shutdownTimeout;
        autoscaling = autoscaling == null ? Autoscaling.NONE : autoscaling;
        env = env == null ? List.of() : List.copyOf(env);
        cmd = cmd == null ? List.of() : List.copyOf(cmd);
        forwarders = copyForwarders(forwarders);
        maxSurge = maxSurge == null ? Optional.empty() : maxSurge;
    }

    /**
     * A config without {@code maxSurge} (every other part as given).
     *
     * @param name            scheduler name
     * @param image           room image
     * @param affinity        node label rooms prefer
     * @param toleration      node taint rooms tolerate
     * @param occupiedTimeout seconds a room may stay occupied
     * @param requests        resource requests
     * @param limits          resource limits
     * @param shutdownTimeout seconds to terminate gracefully
     * @param env             environment
     * @param cmd             command
     * @param forwarders      event forwarders
     */
    public SchedulerConfig(String name, String game, String image, Optional<String> affinity, Optional<String> toleration,
                           Optional<Long> occupiedTimeout, List<Port> ports, Resources requests, Resources limits,
                           Optional<Long> shutdownTimeout, Autoscaling autoscaling, List<EnvVar> env, List<String> cmd,
                           Map<String, Map<String, ForwarderConfig>> forwarders) {
        this(name, game, image, affinity, toleration, occupiedTimeout, ports, requests, limits, shutdownTimeout,
                autoscaling, env, cmd, forwarders, Optional.empty());
    }

    /**
     * A minimal config: name, game, image and autoscaling; everything else empty.
     *
     * @param name scheduler name, a DNS-1123 label (it becomes a namespace, a key and a table value)
     * @param game the game this scheduler serves (several schedulers may share one)
     * @param image container image of a room
     * @param autoscaling min, max, up and down triggers
     */
    public static SchedulerConfig of(String name, String game, String image, Autoscaling autoscaling) {
        return new SchedulerConfig(name, game, image, Optional.empty(), Optional.empty(), Optional.empty(), List.of(),
                Resources.NONE, Resources.NONE, Optional.empty(), autoscaling, List.of(), List.of(), Map.of());
    }

    /**
     * This config with other autoscaling settings.
     */
    public SchedulerConfig withAutoscaling(Autoscaling newAutoscaling) {
        return new SchedulerConfig(name, game, image, affinity, toleration, occupiedTimeout, ports, requests, limits,
                shutdownTimeout, newAutoscaling, env, cmd, forwarders, maxSurge);
    }

    /**
     * This config with other resource requests.
     */
    public SchedulerConfig withRequests(Resources newRequests) {
        return new SchedulerConfig(name, game, image, affinity, toleration, occupiedTimeout, ports, newRequests, limits,
                shutdownTimeout, autoscaling, env, cmd, forwarders, maxSurge);
    }

    /**
     * This config with another occupied timeout, in seconds.
     */
    public SchedulerConfig withOccupiedTimeout(long seconds) {
        return new SchedulerConfig(name, game, image, affinity, toleration, Optional.of(seconds), ports, requests, limits,
                shutdownTimeout, autoscaling, env, cmd, forwarders, maxSurge);
    }

    /**
     * This config with another {@code maxSurge}.
     *
     * @return the new config
     */
    public SchedulerConfig withMaxSurge(MaxSurge value) {
        return new SchedulerConfig(name, game, image, affinity, toleration, occupiedTimeout, ports, requests, limits,
                shutdownTimeout, autoscaling, env, cmd, forwarders, Optional.of(value.toString()));
    }

    /**
     * {@link #maxSurge()} read, or the default 25% when absent.
     *
     * @throws dev.hotspare.validation.ValidationException when the text is not valid (a validated config's is)
     */
    public MaxSurge maxSurgeValue() {
        return maxSurge.map(text -> MaxSurge.parse("maxSurge", text)).orElse(MaxSurge.DEFAULT);
    }

    /**
     * {@link #occupiedTimeout()} as a duration.
     */
    public Optional<Duration> occupiedTimeoutDuration() {
        return occupiedTimeout.map(Duration::ofSeconds);
    }

    /**
     * {@link #shutdownTimeout()} as a duration.
     */
    public Optional<Duration> shutdownTimeoutDuration() {
        return shutdownTimeout.map(Duration::ofSeconds);
    }

    /**
     * Every problem with this config, each with its field path and bad value; empty when valid.
     *
     * @param triggerTypes trigger type names that are known (built-ins plus registered plug-ins)
     */
    public List<Problem> validate(Set<String> triggerTypes) {
        return validate(PolicyTypes.named(triggerTypes));
    }

    /**
     * Every problem with this config, each with its field path and bad value; empty when valid. Policy parameters
     * are checked against what each policy declares.
     *
     * @param types the scaling policies configs may name
     * @return the problems
     */
    public List<Problem> validate(PolicyTypes types) {
        return SchedulerConfigValidator.problems(this, types);
    }

    /**
     * Every problem with this config under {@code limits} (counts, durations and quantities), each with its field
     * path and bad value; empty when valid.
     *
     * @param triggerTypes trigger type names that are known (built-ins plus registered plug-ins)
     * @param limits       the bounds of counts and durations
     * @return the problems, in rule order
     */
    public List<Problem> validate(Set<String> triggerTypes, FleetLimits limits) {
        return validate(PolicyTypes.named(triggerTypes), limits);
    }

    /**
     * Every problem with this config under {@code limits}, policy parameters checked against what each policy
     * declares; empty when valid.
     *
     * @param types  the scaling policies configs may name
     * @param limits the bounds of counts and durations
     * @return the problems, in rule order
     */
    public List<Problem> validate(PolicyTypes types, FleetLimits limits) {
        return SchedulerConfigValidator.problems(this, types, limits);
    }

    /**
     * {@link #validate(Set)} against the built-in trigger types.
     */
    public List<Problem> validate() {
        return validate(TriggerTypes.BUILT_IN);
    }

    /**
     * This config as YAML, in the documented field names.
     */
    public String toYaml() {
        try {
            return Documents.yamlWriter().writeValueAsString(this);
        } catch (tools.jackson.core.JacksonException e) {
            throw new IllegalStateException("cannot write scheduler config " + name, e);
        }
    }

    /**
     * This config as pretty-printed JSON.
     */
    public String toJson() {
        return Documents.toJson(this);
    }

    private static Map<String, Map<String, ForwarderConfig>> copyForwarders(Map<String, Map<String, ForwarderConfig>> in) {
        if (in == null) {
            return Map.of();
        }
        Map<String, Map<String, ForwarderConfig>> out = new LinkedHashMap<>();
        in.forEach((plugin, byName) -> out.put(plugin,
                byName == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(byName))));
        return Collections.unmodifiableMap(out);
    }
}
