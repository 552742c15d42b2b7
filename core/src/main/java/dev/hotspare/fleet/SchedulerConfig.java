package dev.hotspare.fleet;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.hotspare.fleet.PolicyTypes.TriggerTypes;
import dev.hotspare.json.Documents;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import java.util.ArrayList;
import java.util.regex.Pattern;
import java.util.regex.Matcher;
import java.math.BigDecimal;
import tools.jackson.databind.annotation.JsonSerialize;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.core.JsonToken;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonGenerator;

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

    /**
     * A port a room exposes.
     *
     * @param containerPort the port inside the container, 1..65535
     * @param protocol      TCP or UDP
     * @param name          unique within a config; how a room's address names its ports
     */
    public record Port(@Required int containerPort, @Required Protocol protocol, @Required String name) {

        /** Transport protocols a room port may use. */
        public enum Protocol { TCP, UDP }

        public Port {
            name = name == null ? "" : name;
            protocol = protocol == null ? Protocol.TCP : protocol;
        }
    }

    /**
     * An environment variable passed to every room's container.
     *
     * @param name  variable name
     * @param value its value (empty when not given)
     */
    public record EnvVar(@Required String name, String value) {

        public EnvVar {
            name = name == null ? "" : name;
            value = value == null ? "" : value;
        }
    }

    /**
     * Kubernetes resource amounts for one room: {@code requests} (what the cpu and mem triggers measure usage
     * against) or {@code limits}.
     *
     * @param cpu    cores, e.g. {@code 1000m}
     * @param memory bytes, e.g. {@code 1Gi}
     */
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
    public record Resources(Optional<Quantity> cpu, Optional<Quantity> memory) {

        /** No amounts set. */
        public static final Resources NONE = new Resources(Optional.empty(), Optional.empty());

        public Resources {
            cpu = cpu == null ? Optional.empty() : cpu;
            memory = memory == null ? Optional.empty() : memory;
        }
    }

    /**
     * A Kubernetes resource quantity ({@code 1Gi}, {@code 128Mi}, {@code 1000m}, {@code 1}, {@code 0.5},
     * {@code 500M}, {@code 1e3}) parsed exactly into a {@link BigDecimal} of base units (cores for cpu, bytes
     * for memory). Never a double: {@code 0.1} cores plus {@code 0.2} cores is exactly {@code 0.3}.
     *
     * <p>Two quantities are equal when they denote the same amount ({@code 1000m} equals {@code 1}); the text
     * the user wrote is kept for {@link #toString()} and for writing the config back.
     */
    @JsonSerialize(using = Quantity.Serializer.class)
    @JsonDeserialize(using = Quantity.Deserializer.class)
    public static final class Quantity implements Comparable<Quantity> {

        private static final Pattern SYNTAX = Pattern.compile(
                "([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?");

        private static final Map<String, BigDecimal> SUFFIXES = Map.ofEntries(
                Map.entry("", BigDecimal.ONE),
                Map.entry("n", new BigDecimal("1e-9")),
                Map.entry("u", new BigDecimal("1e-6")),
                Map.entry("m", new BigDecimal("1e-3")),
                Map.entry("k", new BigDecimal("1e3")),
                Map.entry("M", new BigDecimal("1e6")),
                Map.entry("G", new BigDecimal("1e9")),
                Map.entry("T", new BigDecimal("1e12")),
                Map.entry("P", new BigDecimal("1e15")),
                Map.entry("E", new BigDecimal("1e18")),
                Map.entry("Ki", BigDecimal.valueOf(1L << 10)),
                Map.entry("Mi", BigDecimal.valueOf(1L << 20)),
                Map.entry("Gi", BigDecimal.valueOf(1L << 30)),
                Map.entry("Ti", BigDecimal.valueOf(1L << 40)),
                Map.entry("Pi", BigDecimal.valueOf(1L << 50)),
                Map.entry("Ei", BigDecimal.valueOf(1L << 60)));

        private final BigDecimal value;
        private final String text;

        private Quantity(BigDecimal value, String text) {
            this.value = value;
            this.text = text;
        }

        /**
         * Parses a quantity.
         *
         * @throws ValidationException naming the text and the accepted forms when it is not a quantity
         */
        public static Quantity parse(String text) {
            return tryParse(text).orElseThrow(() -> new ValidationException(Problem.of("", text, syntaxHelp())));
        }

        /**
         * Parses a quantity, or empty when {@code text} is not one.
         */
        public static Optional<Quantity> tryParse(String text) {
            if (text == null) {
                return Optional.empty();
            }
            String trimmed = text.trim();
            Matcher m = SYNTAX.matcher(trimmed);
            if (!m.matches()) {
                return Optional.empty();
            }
            BigDecimal number = new BigDecimal(m.group(1));
            String suffix = m.group(2) == null ? "" : m.group(2);
            BigDecimal multiplier;
            if (suffix.length() > 1 && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E')) {
                int exponent;
                try {
                    exponent = Integer.parseInt(suffix.substring(1));
                } catch (NumberFormatException e) {
                    return Optional.empty();
                }
                if (Math.abs(exponent) > 100) {
                    return Optional.empty();
                }
                multiplier = BigDecimal.ONE.scaleByPowerOfTen(exponent);
            } else {
                multiplier = SUFFIXES.get(suffix);
            }
            return Optional.of(new Quantity(number.multiply(multiplier).stripTrailingZeros(), trimmed));
        }

        /**
         * The quantity of {@code value} base units, written as a plain decimal.
         */
        public static Quantity of(BigDecimal value) {
            BigDecimal normal = value.stripTrailingZeros();
            return new Quantity(normal, normal.toPlainString());
        }

        /**
         * Why a text is not a quantity: the accepted forms.
         */
        public static String syntaxHelp() {
            return "not a Kubernetes quantity: expected a number with an optional suffix"
                    + " (binary Ki Mi Gi Ti Pi Ei, decimal n u m k M G T P E, or an exponent e3), e.g. 1Gi, 128Mi, 1000m, 0.5";
        }

        /**
         * The amount in base units (cores, bytes), exact.
         */
        public BigDecimal value() {
            return value;
        }

        /**
         * Whether this quantity is greater than zero.
         */
        public boolean isPositive() {
            return value.signum() > 0;
        }

        /**
         * Whether this quantity is below zero.
         */
        public boolean isNegative() {
            return value.signum() < 0;
        }

        @Override
        public int compareTo(Quantity other) {
            return value.compareTo(other.value);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Quantity q && value.compareTo(q.value) == 0;
        }

        @Override
        public int hashCode() {
            return value.stripTrailingZeros().hashCode();
        }

        /** The text as written, e.g. {@code 128Mi}. */
        @Override
        public String toString() {
            return text;
        }

        /** Writes the quantity as the text the user wrote. */
        static final class Serializer extends ValueSerializer<Quantity> {
            @Override
            public void serialize(Quantity value, JsonGenerator gen, SerializationContext serializers) {
                gen.writeString(value.text);
            }
        }

        /** Reads a quantity from a string or a bare number ({@code cpu: 1} in YAML). */
        static final class Deserializer extends ValueDeserializer<Quantity> {
            @Override
            public Quantity deserialize(JsonParser p, DeserializationContext ctxt) {
                JsonToken token = p.currentToken();
                if (token != JsonToken.VALUE_STRING && token != JsonToken.VALUE_NUMBER_INT
                        && token != JsonToken.VALUE_NUMBER_FLOAT) {
                    throw DatabindException.from(p, "expected a quantity",
                            new ValidationException(Problem.of("", token, "expected a quantity such as 1Gi or 500m")));
                }
                String text = p.getString();
                Optional<Quantity> parsed = tryParse(text);
                if (parsed.isEmpty()) {
                    throw DatabindException.from(p, syntaxHelp(), new ValidationException(Problem.of("", text, syntaxHelp())));
                }
                return parsed.get();
            }
        }
    }

    /**
     * Configuration of one event forwarder instance ({@code forwarders.<plugin>.<name>}).
     *
     * @param enabled         whether events are sent to it
     * @param forwardResponse whether callers that opt in see the forwarder's response (default true, as in Maestro)
     * @param metadata        free-form data passed to the forwarder with scheduler events
     * @param url             where a {@code webhook} forwarder posts events: an absolute http or https URL
     * @param timeout         seconds one delivery attempt of a {@code webhook} forwarder may take (default 5)
     * @param headers         headers a {@code webhook} forwarder sends with every event
     * @param retries         attempts a {@code webhook} forwarder makes after the first fails (default 3)
     */
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
    public record ForwarderConfig(boolean enabled, Optional<Boolean> forwardResponse, Map<String, Object> metadata,
                                  Optional<String> url, Optional<Long> timeout, Map<String, String> headers,
                                  Optional<Integer> retries) {

        /**
         * Fills in absent parts.
         *
         * @param enabled whether events are sent to it
         * @param forwardResponse whether callers that opt in see the forwarder's response (default true, as in Maestro)
         * @param metadata free-form data passed to the forwarder with scheduler events
         * @param url where a {@code webhook} forwarder posts events: an absolute http or https URL
         * @param timeout seconds one delivery attempt of a {@code webhook} forwarder may take (default 5)
         * @param headers headers a {@code webhook} forwarder sends with every event
         * @param retries attempts a {@code webhook} forwarder makes after the first fails (default 3)
         */
        public ForwarderConfig {
            forwardResponse = forwardResponse == null ? Optional.empty() : forwardResponse;
            metadata = metadata == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
            url = url == null ? Optional.empty() : url;
            timeout = timeout == null ? Optional.empty() : timeout;
            headers = headers == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(headers));
            retries = retries == null ? Optional.empty() : retries;
        }

        /**
         * A forwarder without webhook settings.
         *
         * @param enabled         whether events are sent to it
         * @param forwardResponse whether callers that opt in see its response
         * @param metadata        free-form data
         */
        public ForwarderConfig(boolean enabled, Optional<Boolean> forwardResponse, Map<String, Object> metadata) {
            this(enabled, forwardResponse, metadata, Optional.empty(), Optional.empty(), Map.of(), Optional.empty());
        }

        /**
         * {@link #forwardResponse()} with its default applied.
         *
         * @return whether callers that opt in see the forwarder's response
         */
        public boolean forwardsResponse() {
            return forwardResponse.orElse(true);
        }
    }

    /**
     * How many rooms a rolling update replaces at once: a share of the current rooms ({@code "25%"}) or a number of
     * rooms ({@code "3"}), as Maestro 10 writes it. Either way at least one room per chunk.
     *
     * @param value   the percentage (1..100) or the number of rooms (at least 1)
     * @param percent whether {@code value} is a percentage
     */
    public record MaxSurge(int value, boolean percent) {

        /** Maestro's default: a quarter of the rooms at a time. */
        public static final MaxSurge DEFAULT = new MaxSurge(25, true);

        private static final Pattern TEXT = Pattern.compile("\\s*(\\d{1,9})\\s*(%?)\\s*");

        /**
         * Checks the value.
         *
         * @throws IllegalArgumentException for a percentage outside 1..100 or a count below 1
         * @param value the percentage (1..100) or the number of rooms (at least 1)
         * @param percent whether {@code value} is a percentage
         */
        public MaxSurge {
            if (value < 1 || (percent && value > 100)) {
                throw new IllegalArgumentException("maxSurge: bad value '" + value + (percent ? "%" : "")
                        + "': must be a percentage in 1..100 or a number of rooms of at least 1");
            }
        }

        /**
         * A share of the current rooms.
         *
         * @param percent 1..100
         * @return the max surge
         */
        public static MaxSurge percent(int percent) {
            return new MaxSurge(percent, true);
        }

        /**
         * A number of rooms.
         *
         * @param rooms at least 1
         * @return the max surge
         */
        public static MaxSurge rooms(int rooms) {
            return new MaxSurge(rooms, false);
        }

        /**
         * Parses {@code "25%"} (a share of the rooms) or {@code "3"} (rooms).
         *
         * @param field the field named in a problem ({@code maxSurge}, {@code maxsurge})
         * @return the max surge
         * @throws ValidationException naming {@code field} and the text when it is neither
         */
        public static MaxSurge parse(String field, String text) {
            Matcher m = text == null ? null : TEXT.matcher(text);
            if (m != null && m.matches()) {
                int value = Integer.parseInt(m.group(1));
                boolean percent = !m.group(2).isEmpty();
                if (value >= 1 && (!percent || value <= 100)) {
                    return new MaxSurge(value, percent);
                }
            }
            throw new ValidationException(Problem.of(field, text == null ? Problem.MISSING : text,
                    "must be a percentage of the rooms in 1%..100% (\"25%\") or a number of rooms of at least 1 (\"3\")"));
        }

        /**
         * Rooms replaced per chunk when the scheduler has {@code rooms} rooms: ceil(rooms × percent / 100), or the
         * number, and never below one.
         *
         * @param rooms the current rooms
         * @return the chunk size
         */
        public int chunkSize(int rooms) {
            long size = percent ? ((long) rooms * value + 99) / 100 : value;
            return (int) Math.max(1, size);
        }

        @Override
        public String toString() {
            return value + (percent ? "%" : "");
        }
    }

    /**
     * The autoscaling section of a scheduler config.
     *
     * @param min              rooms (creating + ready + allocated + occupied) never to go below
     * @param max              rooms never to go above; 0 means unbounded
     * @param up               scale-up triggers and cooldown
     * @param down             scale-down triggers and cooldown
     * @param enablePanicScale opt-in: scale up at once when a room reports occupied and occupancy is above the
     *                         up trigger's limit (deprecated in Maestro, off by default)
     * @param policy           Maestro 10: one policy naming the number of rooms, instead of triggers (the
     *                         directions' cooldowns still apply)
     */
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
    public record Autoscaling(int min, int max, ScalingSpec up, ScalingSpec down, boolean enablePanicScale,
                              Optional<PolicySpec> policy) {

        /** No rooms required, no triggers. */
        public static final Autoscaling NONE = new Autoscaling(0, 0, ScalingSpec.NONE, ScalingSpec.NONE, false);

        /**
         * Fills in absent directions and policy.
         *
         * @param min rooms never to go below
         * @param max rooms never to go above; 0 means unbounded
         * @param up scale-up triggers and cooldown
         * @param down scale-down triggers and cooldown
         * @param enablePanicScale opt-in: scale up at once when a room reports occupied and occupancy is above the up
         *         trigger's limit (deprecated in Maestro, off by default)
         * @param policy Maestro 10: one policy naming the number of rooms, instead of triggers (the directions' cooldowns
         *         still apply)
         */
        public Autoscaling {
            up = up == null ? ScalingSpec.NONE : up;
            down = down == null ? ScalingSpec.NONE : down;
            policy = policy == null ? Optional.empty() : policy;
        }

        /**
         * Autoscaling by triggers (no Maestro 10 policy).
         *
         * @param min              rooms never to go below
         * @param max              rooms never to go above; 0 means unbounded
         * @param up               scale-up triggers and cooldown
         * @param down             scale-down triggers and cooldown
         * @param enablePanicScale opt-in panic scale
         */
        public Autoscaling(int min, int max, ScalingSpec up, ScalingSpec down, boolean enablePanicScale) {
            this(min, max, up, down, enablePanicScale, Optional.empty());
        }

        /**
         * Autoscaling by a Maestro 10 policy.
         *
         * @param min    rooms never to go below
         * @param max    rooms never to go above; 0 means unbounded
         * @return the section
         */
        public static Autoscaling byPolicy(int min, int max, PolicySpec policy) {
            return new Autoscaling(min, max, ScalingSpec.NONE, ScalingSpec.NONE, false, Optional.of(policy));
        }

        /**
         * This section with other cooldowns, in seconds.
         *
         * @param upSeconds   the up cooldown
         * @param downSeconds the down cooldown
         * @return the new section
         */
        public Autoscaling withCooldowns(long upSeconds, long downSeconds) {
            return new Autoscaling(min, max, new ScalingSpec(up.metricsTrigger(), upSeconds, up.delta(), up.trigger()),
                    new ScalingSpec(down.metricsTrigger(), downSeconds, down.delta(), down.trigger()), enablePanicScale, policy);
        }

        /**
         * Whether {@link #max()} bounds the room count.
         */
        @com.fasterxml.jackson.annotation.JsonIgnore
        public boolean isBounded() {
            return max > 0;
        }
    }

    /**
     * One direction of autoscaling ({@code autoscaling.up} or {@code autoscaling.down}): an ordered list of
     * triggers (the first that fires wins) and the cooldown, or the older form with a single {@code trigger} (and an
     * optional {@code delta}), which is one {@code room} trigger, as Maestro 9.6.1 reads it.
     *
     * @param metricsTrigger triggers in evaluation order
     * @param cooldown       seconds since the last successful scale before this direction may scale again
     * @param delta          older form: accepted (a positive number of rooms) but not used — the room policy's formula
     *                       gives the delta, as in Maestro 9.6.1; only an explicit {@code type: legacy} trigger uses a
     *                       fixed delta
     * @param trigger        older form: the single trigger
     */
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
    public record ScalingSpec(List<MetricsTrigger> metricsTrigger, long cooldown, Optional<Integer> delta,
                              Optional<LegacyTrigger> trigger) {

        /** No triggers: this direction never scales. */
        public static final ScalingSpec NONE = new ScalingSpec(List.of(), 0, Optional.empty(), Optional.empty());

        /**
         * Fills in absent parts.
         *
         * @param metricsTrigger triggers in evaluation order
         * @param cooldown seconds since the last successful scale before this direction may scale again
         * @param delta older form: accepted (a positive number of rooms) but not used — the room policy's formula gives
         *         the delta, as in Maestro 9.6.1; only an explicit {@code type: legacy} trigger uses a fixed delta
         * @param trigger older form: the single trigger
         */
        public ScalingSpec {
            metricsTrigger = metricsTrigger == null ? List.of() : List.copyOf(metricsTrigger);
            delta = delta == null ? Optional.empty() : delta;
            trigger = trigger == null ? Optional.empty() : trigger;
        }

        /**
         * A direction with {@code triggers} and {@code cooldownSeconds}.
         *
         * @param cooldownSeconds the cooldown
         * @param triggers        the triggers, in evaluation order
         */
        public static ScalingSpec of(long cooldownSeconds, MetricsTrigger... triggers) {
            return new ScalingSpec(List.of(triggers), cooldownSeconds, Optional.empty(), Optional.empty());
        }

        /**
         * {@link #cooldown()} as a duration.
         */
        public Duration cooldownDuration() {
            return Duration.ofSeconds(cooldown);
        }

        /**
         * The triggers the autoscaler evaluates: {@code metricsTrigger} when given, otherwise the older
         * {@code trigger} form as one {@code room} trigger (its {@code delta} is not used: the room policy's formula
         * decides, as in Maestro 9.6.1).
         *
         * @return the triggers in evaluation order
         */
        public List<MetricsTrigger> triggers() {
            if (!metricsTrigger.isEmpty() || trigger.isEmpty()) {
                return metricsTrigger;
            }
            LegacyTrigger t = trigger.get();
            return List.of(new MetricsTrigger(TriggerTypes.ROOM, t.usage(), t.threshold(), t.time(), t.limit(), Optional.empty()));
        }
    }

    /**
     * One autoscaling trigger (Maestro's {@code metricsTrigger} entry).
     *
     * @param type      the scaling policy that measures utilization and computes the delta: {@code room},
     *                  {@code cpu}, {@code mem}, {@code legacy} or a plug-in's type name
     * @param usage     target utilization in percent, 1..100: points above it count for an up trigger, points
     *                  below it for a down trigger
     * @param threshold percent of the window's points that must be beyond {@code usage} for the trigger to fire, 1..100
     * @param time      seconds of history the trigger looks at; the window holds {@code max(1, time / period)} points
     * @param limit     up triggers only: utilization (percent) at which to scale at once, ignoring cooldown and
     *                  points; when absent, 90 unless {@code usage} is already 90 or more
     * @param delta      fixed number of rooms for the {@code legacy} type (a magnitude; the direction gives the sign);
     *                   plug-in policies may use it too
     * @param parameters the parameters a plug-in policy declares for its triggers, checked against its declaration
     */
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
    public record MetricsTrigger(@Required String type, @Required int usage, @Required int threshold, @Required long time,
                                 Optional<Integer> limit, Optional<Integer> delta, Map<String, Object> parameters) {

        /** Maestro's default limit for up triggers. */
        public static final int DEFAULT_LIMIT = 90;

        /**
         * Fills in absent optional parts.
         *
         * @param type the policy
         * @param usage target utilization, percent
         * @param threshold percent of points beyond usage needed
         * @param time seconds of history the trigger looks at; the window holds {@code max(1, time / period)} points
         * @param limit up triggers only: utilization (percent) at which to scale at once, ignoring cooldown and points;
         *         when absent, 90 unless {@code usage} is already 90 or more
         * @param delta fixed number of rooms for the {@code legacy} type (a magnitude; the direction gives the sign);
         *         plug-in policies may use it too
         * @param parameters the parameters a plug-in policy declares for its triggers, checked against its declaration
         */
        public MetricsTrigger {
            type = type == null ? "" : type;
            limit = limit == null ? Optional.empty() : limit;
            delta = delta == null ? Optional.empty() : delta;
            parameters = parameters == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
        }

        /**
         * A trigger without parameters.
         *
         * @param type      the policy
         * @param usage     target utilization, percent
         * @param threshold percent of points beyond usage needed
         * @param time      seconds of history
         * @param limit     up triggers: utilization that scales at once
         * @param delta     fixed rooms (legacy, plug-ins)
         */
        public MetricsTrigger(String type, int usage, int threshold, long time, Optional<Integer> limit, Optional<Integer> delta) {
            this(type, usage, threshold, time, limit, delta, Map.of());
        }

        /**
         * A trigger without limit, delta or parameters.
         *
         * @param type        the policy
         * @param usage       target utilization, percent
         * @param threshold   percent of points beyond usage needed
         * @param timeSeconds seconds of history
         */
        public static MetricsTrigger of(String type, int usage, int threshold, long timeSeconds) {
            return new MetricsTrigger(type, usage, threshold, timeSeconds, Optional.empty(), Optional.empty());
        }

        /**
         * This trigger with {@code limit} set.
         *
         * @param newLimit the limit, percent
         * @return the new trigger
         */
        public MetricsTrigger withLimit(int newLimit) {
            return new MetricsTrigger(type, usage, threshold, time, Optional.of(newLimit), delta, parameters);
        }

        /**
         * This trigger with {@code delta} set.
         *
         * @param newDelta the fixed number of rooms
         * @return the new trigger
         */
        public MetricsTrigger withDelta(int newDelta) {
            return new MetricsTrigger(type, usage, threshold, time, limit, Optional.of(newDelta), parameters);
        }

        /**
         * This trigger with {@code newParameters}.
         *
         * @param newParameters the parameters
         */
        public MetricsTrigger withParameters(Map<String, Object> newParameters) {
            return new MetricsTrigger(type, usage, threshold, time, limit, delta, newParameters);
        }

        /**
         * {@link #time()} as a duration.
         */
        public Duration timeDuration() {
            return Duration.ofSeconds(time);
        }

        /**
         * The limit in force for an up trigger: the configured one, else {@value #DEFAULT_LIMIT} unless
         * {@code usage} is already at or above it (then there is none).
         *
         * @return the limit in force for an up trigger: the configured one, else {@value #DEFAULT_LIMIT} unless {@code
         *         usage} is already at or above it (then there is none)
         */
        public Optional<Integer> effectiveLimit() {
            if (limit.isPresent()) {
                return limit;
            }
            return usage >= DEFAULT_LIMIT ? Optional.empty() : Optional.of(DEFAULT_LIMIT);
        }
    }

    /**
     * The older single-trigger form of a scaling direction ({@code delta} + {@code trigger}); it behaves as one
     * {@code room} {@link MetricsTrigger} (the room policy's formula gives the delta), as Maestro 9.6.1 reads it.
     *
     * @param usage     target utilization in percent (rooms occupied)
     * @param time      seconds of history
     * @param threshold percent of points beyond {@code usage} needed
     * @param limit     as {@link MetricsTrigger#limit()}
     */
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
    public record LegacyTrigger(@Required int usage, @Required long time, @Required int threshold, Optional<Integer> limit) {

        /**
         * Fills in an absent limit.
         *
         * @param usage target utilization in percent (rooms occupied)
         * @param time seconds of history
         * @param threshold percent of points beyond {@code usage} needed
         * @param limit as {@link MetricsTrigger#limit()}
         */
        public LegacyTrigger {
            limit = limit == null ? Optional.empty() : limit;
        }
    }

    /**
     * Maestro 10's {@code autoscaling.policy}: one policy that names the number of rooms the fleet should have, with
     * its parameters. Maestro 10's nested form, {@code parameters: {roomOccupancy: {readyTarget: 0.5}}}, is read as
     * the flat {@code parameters: {readyTarget: 0.5}}.
     *
     * @param type       the policy: {@code roomOccupancy}, {@code fixedBuffer} or a plug-in's
     * @param parameters its parameters, checked against what the policy declares
     */
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
    public record PolicySpec(@Required String type, Map<String, Object> parameters) {

        /**
         * Copies the parameters and reads Maestro 10's nested form.
         *
         * @param type the policy: {@code roomOccupancy}, {@code fixedBuffer} or a plug-in's
         * @param parameters its parameters, checked against what the policy declares
         */
        public PolicySpec {
            type = type == null ? "" : type;
            parameters = parameters == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(unnest(type, parameters)));
        }

        /**
         * A policy of {@code type} with {@code parameters}.
         *
         * @param type       the policy
         * @param parameters its parameters
         * @return the spec
         */
        public static PolicySpec of(String type, Map<String, Object> parameters) {
            return new PolicySpec(type, parameters);
        }

        @SuppressWarnings("unchecked")
        private static Map<String, Object> unnest(String type, Map<String, Object> parameters) {
            if (parameters.size() == 1 && parameters.get(type) instanceof Map<?, ?> nested) {
                return (Map<String, Object>) nested;
            }
            return parameters;
        }
    }

    /**
     * The bounds every number a user sends to a fleet must stay within, so that no single config or request can ask
     * for work or memory out of proportion (a scale-up of 2,147,483,647 rooms, a trigger window of Long.MAX seconds).
     * Config validation ({@link SchedulerConfig#validate(java.util.Set, FleetLimits)}, {@code hotspare validate}) and
     * the scaling operations check them, and each refusal names the field, the value and the limit. Counts are
     * configurable; the quantity bounds are fixed (see {@link #MIN_CPU} and the constants after it).
     *
     * @param maxRooms              most rooms one scheduler may have ({@code autoscaling.min}, {@code autoscaling.max},
     *                              {@code replicas}, a scale-up's result)
     * @param maxScaleStep          most rooms one scale step adds or removes ({@code scaleup}, {@code scaledown}, a
     *                              trigger's {@code delta}); larger changes are made in steps of this size
     * @param maxDurationSeconds    longest {@code occupiedTimeout}, {@code shutdownTimeout} and {@code cooldown}
     * @param maxTriggerTimeSeconds longest trigger {@code time} (the window of usage history a trigger reads)
     */
    public record FleetLimits(int maxRooms, int maxScaleStep, long maxDurationSeconds, long maxTriggerTimeSeconds) {

        /** The defaults: 10,000 rooms per scheduler, 1,000 per step, 7 days, 1 day. */
        public static final FleetLimits DEFAULT = new FleetLimits(10_000, 1_000, 7L * 24 * 3600, 24L * 3600);

        /** Smallest positive cpu request or limit: one millicore ({@code 1m}); below it utilization is meaningless. */
        public static final BigDecimal MIN_CPU = new BigDecimal("0.001");
        /** Largest cpu request or limit: 10,000 cores. */
        public static final BigDecimal MAX_CPU = new BigDecimal("10000");
        /** Smallest positive memory request or limit: one byte. */
        public static final BigDecimal MIN_MEMORY = BigDecimal.ONE;
        /** Largest memory request or limit: 1 PiB. */
        public static final BigDecimal MAX_MEMORY = BigDecimal.valueOf(1L << 50);

        /**
         * Checks the limits themselves.
         *
         * @throws ValidationException naming each limit that is not positive or is inconsistent
         * @param maxRooms most rooms one scheduler may have ({@code autoscaling.min}, {@code autoscaling.max}, {@code
         *         replicas}, a scale-up's result)
         * @param maxScaleStep most rooms one scale step adds or removes ({@code scaleup}, {@code scaledown}, a trigger's
         *         {@code delta}); larger changes are made in steps of this size
         * @param maxDurationSeconds longest {@code occupiedTimeout}, {@code shutdownTimeout} and {@code cooldown}
         * @param maxTriggerTimeSeconds longest trigger {@code time} (the window of usage history a trigger reads)
         */
        public FleetLimits {
            List<Problem> problems = new ArrayList<>();
            if (maxRooms < 1) {
                problems.add(Problem.of("maxRooms", maxRooms, "must be at least 1"));
            }
            if (maxScaleStep < 1) {
                problems.add(Problem.of("maxScaleStep", maxScaleStep, "must be at least 1"));
            } else if (maxScaleStep > maxRooms && maxRooms >= 1) {
                problems.add(Problem.of("maxScaleStep", maxScaleStep, "must not exceed maxRooms (" + maxRooms + ")"));
            }
            if (maxDurationSeconds < 1 || maxDurationSeconds > MAX_SECONDS) {
                problems.add(Problem.of("maxDurationSeconds", maxDurationSeconds, "must be in 1.." + MAX_SECONDS));
            }
            if (maxTriggerTimeSeconds < 1 || maxTriggerTimeSeconds > MAX_SECONDS) {
                problems.add(Problem.of("maxTriggerTimeSeconds", maxTriggerTimeSeconds, "must be in 1.." + MAX_SECONDS));
            }
            if (!problems.isEmpty()) {
                throw new ValidationException(problems);
            }
        }

        /** Largest duration limit: ten years, far inside what {@code java.time} and every store can hold. */
        public static final long MAX_SECONDS = 10L * 366 * 24 * 3600;

        /**
         * These limits with another room bound.
         *
         * @param value the most rooms per scheduler
         * @return the new limits
         */
        public FleetLimits withMaxRooms(int value) {
            return new FleetLimits(value, Math.min(maxScaleStep, value), maxDurationSeconds, maxTriggerTimeSeconds);
        }

        /**
         * These limits with another scale step.
         *
         * @param value the most rooms per scale step
         * @return the new limits
         */
        public FleetLimits withMaxScaleStep(int value) {
            return new FleetLimits(maxRooms, value, maxDurationSeconds, maxTriggerTimeSeconds);
        }

        /**
         * The problem with a count of rooms, if it is outside {@code 0..maxRooms}, named after {@code field}.
         *
         * @param field the field path
         * @param rooms the count
         * @return a problem naming the field, the value and the limit, if any
         */
        public java.util.Optional<Problem> roomsProblem(String field, long rooms) {
            if (rooms > maxRooms) {
                return java.util.Optional.of(Problem.of(field, rooms, "must be at most " + maxRooms + " (the limit of rooms per scheduler)"));
            }
            return java.util.Optional.empty();
        }

        /**
         * The problem with a scale step, if it is above {@code maxScaleStep}, named after {@code field}.
         *
         * @param field the field path
         * @param step  the number of rooms
         * @return a problem naming the field, the value and the limit, if any
         */
        public java.util.Optional<Problem> stepProblem(String field, long step) {
            if (step > maxScaleStep) {
                return java.util.Optional.of(Problem.of(field, step, "must be at most " + maxScaleStep + " (the limit of rooms per scale step)"));
            }
            return java.util.Optional.empty();
        }
    }
}
