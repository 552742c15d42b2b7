package dev.hotspare.fleetserver;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfigs;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.json.Documents;
import dev.hotspare.kubernetes.KubernetesUsageMetrics;
import dev.hotspare.kubernetes.PodMemberDriver;
import dev.hotspare.kubernetes.RoomTemplates;
import dev.hotspare.postgres.PostgresLockStore;
import dev.hotspare.postgres.PostgresSchedulerStore;
import dev.hotspare.postgres.PostgresSchema;
import dev.hotspare.redis.RedisLockStore;
import dev.hotspare.redis.RedisRoomStatusStore;
import dev.hotspare.redis.RedisUsageHistory;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import dev.hotspare.fleet.SchedulerConfig.FleetLimits;
import dev.hotspare.fleet.runtime.FleetSettings;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.autoscale.Autoscaler.AutoscalerSettings;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * How the fleet service is deployed, from command-line flags and environment variables (a flag wins over its
 * variable): in memory by default; Redis for locks, room statuses and usage history when a Redis URI is given;
 * PostgreSQL for schedulers (and locks, without Redis) when a JDBC URL is given; Kubernetes pods for rooms with
 * {@code --kubernetes}. docs/fleet-service.md lists every flag.
 *
 * @param bindHost         address to listen on
 * @param port             port to listen on (0 = any free port)
 * @param redisUri         {@code redis://host:port/db}, if Redis is used
 * @param jdbcUrl          {@code jdbc:postgresql://host:port/db}, if PostgreSQL is used
 * @param jdbcUser         database user (from {@code HOTSPARE_JDBC_USER}), if any
 * @param jdbcPassword     database password (from {@code HOTSPARE_JDBC_PASSWORD}), if any
 * @param jdbcSchema       the PostgreSQL schema hotspare's tables live in
 * @param kubernetes       whether rooms are pods (kubeconfig or in-cluster config, as fabric8 finds it)
 * @param namespacePrefix  prepended to the scheduler name to make its rooms' namespace
 * @param maxBodyBytes     the largest request body
 * @param limits           the bounds and timeouts that keep the service answering
 * @param security         who may call what (SECURITY.md)
 * @param ownership        whether instances divide the schedulers (false in memory, or with {@code --ownership false});
 *                         without {@code --instance-id} each service {@linkplain #open() opened} takes the host name,
 *                         the process id and four random characters as its id
 * @param fleet            the fleet's settings (clock skew, limits of counts, instance id, ownership lease and
 *                         heartbeat), checked by {@link FleetSettings} like every fleet's
 * @param autoscaleInterval time between two autoscaler ticks of a scheduler ({@code --autoscale-interval}, Maestro's
 *                         10 s by default); a trigger's window counts points of this spacing
 */
public record FleetServiceSettings(String bindHost, int port, Optional<String> redisUri, Optional<String> jdbcUrl,
                                   Optional<String> jdbcUser, Optional<String> jdbcPassword, String jdbcSchema,
                                   boolean kubernetes, String namespacePrefix, int maxBodyBytes, Limits limits,
                                   Security security, boolean ownership, FleetSettings fleet, Duration autoscaleInterval) {

    /**
     * Authentication (SECURITY.md): on unless {@code insecureNoAuth}. Its text form never shows a token or the key.
     *
     * @param insecureNoAuth whether authentication is off ({@code --insecure-no-auth})
     * @param adminTokens    the bearer tokens admin routes accept
     * @param roomTokenKey   the secret room tokens are derived from, when given (else random per process)
     * @param tlsCertificate the PEM certificate chain for HTTPS ({@code --tls-cert}), when given
     * @param tlsKey         its PEM private key ({@code --tls-key}), when given
     */
    public record Security(boolean insecureNoAuth, List<String> adminTokens, Optional<String> roomTokenKey,
                           Optional<java.nio.file.Path> tlsCertificate, Optional<java.nio.file.Path> tlsKey) {
        /** Copies the list. */
        public Security {
            adminTokens = List.copyOf(adminTokens);
        }

        @Override
        public String toString() {
            return "Security[insecureNoAuth=" + insecureNoAuth + ", adminTokens=" + adminTokens.size() + " redacted, roomTokenKey="
                    + (roomTokenKey.isPresent() ? "redacted" : "random") + ", tls=" + tlsCertificate.isPresent() + "]";
        }
    }


    /**
     * The bounds and timeouts of a deployment (docs/operations.md).
     *
     * @param maxThreads       most threads serving HTTP requests
     * @param idleTimeout      how long a silent connection is kept
     * @param shutdownTimeout  grace period on SIGTERM for running requests and operations
     * @param storeTimeout     Redis command and connect timeout; PostgreSQL connect and pool-wait timeout
     * @param statementTimeout PostgreSQL statement timeout
     */
    public record Limits(int maxThreads, Duration idleTimeout, Duration shutdownTimeout, Duration storeTimeout,
                         Duration statementTimeout) {
    }

    /** One setting: its flag and the environment variable that backs it. */
    public enum Option {
        BIND("--bind", "HOTSPARE_BIND", "127.0.0.1"),
        PORT("--port", "HOTSPARE_PORT", "8080"),
        REDIS_URI("--redis-uri", "HOTSPARE_REDIS_URI", ""),
        JDBC_URL("--jdbc-url", "HOTSPARE_JDBC_URL", ""),
        JDBC_SCHEMA("--jdbc-schema", "HOTSPARE_JDBC_SCHEMA", PostgresSchema.DEFAULT_SCHEMA),
        KUBERNETES("--kubernetes", "HOTSPARE_KUBERNETES", "false"),
        NAMESPACE_PREFIX("--namespace-prefix", "HOTSPARE_NAMESPACE_PREFIX", ""),
        MAX_BODY_BYTES("--max-body-bytes", "HOTSPARE_MAX_BODY_BYTES", String.valueOf(FleetService.DEFAULT_MAX_BODY_BYTES)),
        MAX_THREADS("--max-threads", "HOTSPARE_MAX_THREADS", String.valueOf(FleetService.DEFAULT_MAX_THREADS)),
        IDLE_TIMEOUT("--idle-timeout", "HOTSPARE_IDLE_TIMEOUT", "30"),
        SHUTDOWN_TIMEOUT("--shutdown-timeout", "HOTSPARE_SHUTDOWN_TIMEOUT", "30"),
        STORE_TIMEOUT("--store-timeout", "HOTSPARE_STORE_TIMEOUT", "2"),
        STATEMENT_TIMEOUT("--statement-timeout", "HOTSPARE_STATEMENT_TIMEOUT", "10"),
        MAX_CLOCK_SKEW("--max-clock-skew", "HOTSPARE_MAX_CLOCK_SKEW", "60"),
        MAX_ROOMS("--max-rooms", "HOTSPARE_MAX_ROOMS", String.valueOf(FleetLimits.DEFAULT.maxRooms())),
        MAX_SCALE_STEP("--max-scale-step", "HOTSPARE_MAX_SCALE_STEP", String.valueOf(FleetLimits.DEFAULT.maxScaleStep())),
        AUTOSCALE_INTERVAL("--autoscale-interval", "HOTSPARE_AUTOSCALE_INTERVAL",
                String.valueOf(AutoscalerSettings.DEFAULT.period().toSeconds())),
        OWNERSHIP("--ownership", "HOTSPARE_OWNERSHIP", "auto"),
        INSTANCE_ID("--instance-id", "HOTSPARE_INSTANCE_ID", ""),
        OWNERSHIP_LEASE_TTL("--ownership-lease-ttl", "HOTSPARE_OWNERSHIP_LEASE_TTL", "15"),
        OWNERSHIP_HEARTBEAT("--ownership-heartbeat", "HOTSPARE_OWNERSHIP_HEARTBEAT", "5"),
        ADMIN_TOKEN_FILE("--admin-token-file", "HOTSPARE_ADMIN_TOKEN_FILE", ""),
        ROOM_TOKEN_KEY_FILE("--room-token-key-file", "HOTSPARE_ROOM_TOKEN_KEY_FILE", ""),
        INSECURE_NO_AUTH("--insecure-no-auth", "HOTSPARE_INSECURE_NO_AUTH", "false"),
        TLS_CERT("--tls-cert", "HOTSPARE_TLS_CERT", ""),
        TLS_KEY("--tls-key", "HOTSPARE_TLS_KEY", "");

        private final String flag;
        private final String variable;
        private final String defaultValue;

        Option(String flag, String variable, String defaultValue) {
            this.flag = flag;
            this.variable = variable;
            this.defaultValue = defaultValue;
        }

        /**
         * The command-line flag.
         */
        public String flag() {
            return flag;
        }

        /**
         * The environment variable.
         */
        public String variable() {
            return variable;
        }

        /**
         * The value when neither flag nor variable is set ({@code ""}: not used).
         */
        public String defaultValue() {
            return defaultValue;
        }
    }

    /** Environment variable with the database user. */
    public static final String JDBC_USER_VARIABLE = "HOTSPARE_JDBC_USER";
    /** Environment variable with the database password (there is no flag: flags show in process lists). */
    public static final String JDBC_PASSWORD_VARIABLE = "HOTSPARE_JDBC_PASSWORD";
    /** Environment variable with admin tokens, separated by commas or white space (no flag: flags show in process lists). */
    public static final String ADMIN_TOKENS_VARIABLE = "HOTSPARE_ADMIN_TOKENS";

    /**
     * Settings from {@code flags} (option → value as typed; absent = not given) over {@code env}.
     *
     * @throws ValidationException with one problem per bad value, each naming the flag (or variable) and value
     */
    public static FleetServiceSettings parse(Map<Option, String> flags, Map<String, String> env) {
        List<Problem> problems = new ArrayList<>();
        Resolver r = new Resolver(flags, env);
        String bind = r.value(Option.BIND);
        try {
            InetAddress.getByName(bind);
        } catch (UnknownHostException | SecurityException e) {
            problems.add(Problem.of(r.source(Option.BIND), bind, "not an address this host can listen on"));
        }
        int port = r.integer(Option.PORT, 0, 65535, problems);
        Optional<String> redis = r.optional(Option.REDIS_URI);
        redis.ifPresent(uri -> {
            if (!uri.startsWith("redis://") && !uri.startsWith("rediss://") && !uri.startsWith("redis-socket://")) {
                problems.add(Problem.of(r.source(Option.REDIS_URI), uri, "must start with redis://, rediss:// or redis-socket://"));
            } else {
                try {
                    RedisURI.create(uri);
                } catch (RuntimeException e) {
                    problems.add(Problem.of(r.source(Option.REDIS_URI), uri, "not a Redis URI: " + e.getMessage()));
                }
            }
        });
        Optional<String> jdbc = r.optional(Option.JDBC_URL);
        jdbc.ifPresent(url -> {
            if (!url.startsWith("jdbc:postgresql:")) {
                problems.add(Problem.of(r.source(Option.JDBC_URL), redactPassword(url), "must start with jdbc:postgresql:"));
            }
        });
        String schema = r.value(Option.JDBC_SCHEMA);
        if (!PostgresSchema.isValidName(schema)) {
            problems.add(Problem.of(r.source(Option.JDBC_SCHEMA), schema,
                    "must be a lower-case SQL identifier of at most " + PostgresSchema.MAX_SCHEMA_NAME_LENGTH + " characters"));
        }
        String kube = r.value(Option.KUBERNETES);
        boolean kubernetes = false;
        if (kube.equalsIgnoreCase("true")) {
            kubernetes = true;
        } else if (!kube.equalsIgnoreCase("false")) {
            problems.add(Problem.of(r.source(Option.KUBERNETES), kube, "must be true or false"));
        }
        String prefix = r.value(Option.NAMESPACE_PREFIX);
        if (!prefix.isEmpty()) {
            String label = prefix.endsWith("-") ? prefix.substring(0, prefix.length() - 1) : prefix;
            Names.dns1123LabelProblem(label).ifPresent(why -> problems.add(Problem.of(r.source(Option.NAMESPACE_PREFIX), prefix, why)));
        }
        int maxBody = r.integer(Option.MAX_BODY_BYTES, 1, Integer.MAX_VALUE - 1, problems);
        int maxThreads = r.integer(Option.MAX_THREADS, 8, 10_000, problems);
        int idle = r.integer(Option.IDLE_TIMEOUT, 1, 3_600, problems);
        int shutdown = r.integer(Option.SHUTDOWN_TIMEOUT, 1, 3_600, problems);
        int store = r.integer(Option.STORE_TIMEOUT, 1, 300, problems);
        int statement = r.integer(Option.STATEMENT_TIMEOUT, 1, 3_600, problems);
        int skew = r.integer(Option.MAX_CLOCK_SKEW, 0, 86_400, problems);
        int maxRooms = r.integer(Option.MAX_ROOMS, 1, 1_000_000, problems);
        int maxStep = r.integer(Option.MAX_SCALE_STEP, 1, 1_000_000, problems);
        int autoscale = r.integer(Option.AUTOSCALE_INTERVAL, 1, 3_600, problems);
        String ownershipMode = r.value(Option.OWNERSHIP);
        boolean shared = redis.isPresent() || jdbc.isPresent();
        boolean divide = false;
        switch (ownershipMode) {
            case "auto" -> divide = shared;
            case "true" -> {
                divide = true;
                if (!shared) {
                    problems.add(Problem.of(r.source(Option.OWNERSHIP), ownershipMode,
                            "needs a lock store the instances share: give --redis-uri or --jdbc-url"));
                }
            }
            case "false" -> divide = false;
            default -> problems.add(Problem.of(r.source(Option.OWNERSHIP), ownershipMode, "must be auto, true or false"));
        }
        String instanceId = r.value(Option.INSTANCE_ID);
        int leaseTtl = r.integer(Option.OWNERSHIP_LEASE_TTL, 3, 3_600, problems);
        int heartbeat = r.integer(Option.OWNERSHIP_HEARTBEAT, 1, 1_800, problems);
        FleetSettings checked = fleetSettings(r, skew, maxRooms, maxStep, instanceId, leaseTtl, heartbeat, problems);
        // An instance id is checked whatever the mode, but only an instance that divides the schedulers has one.
        FleetSettings fleet = divide ? checked : checked.toBuilder().instanceId(null).build();
        Security security = security(r, env, kubernetes, problems);
        if (!problems.isEmpty()) {
            throw new ValidationException(problems);
        }
        Limits limits = new Limits(maxThreads, Duration.ofSeconds(idle), Duration.ofSeconds(shutdown), Duration.ofSeconds(store),
                Duration.ofSeconds(statement));
        return new FleetServiceSettings(bind, port, redis, jdbc, Optional.ofNullable(env.get(JDBC_USER_VARIABLE)).filter(s -> !s.isEmpty()),
                Optional.ofNullable(env.get(JDBC_PASSWORD_VARIABLE)), schema, kubernetes, prefix, maxBody, limits, security, divide, fleet,
                Duration.ofSeconds(autoscale));
    }

    /** The fleet's settings from their flags, checked by {@link FleetSettings}: each problem names the flag it came from. */
    private static FleetSettings fleetSettings(Resolver r, int skew, int maxRooms, int maxStep, String instanceId, int leaseTtl,
                                               int heartbeat, List<Problem> problems) {
        Map<String, Option> flags = Map.of("maxClockSkew", Option.MAX_CLOCK_SKEW, "instanceId", Option.INSTANCE_ID,
                "ownershipLeaseTtl", Option.OWNERSHIP_LEASE_TTL, "ownershipHeartbeat", Option.OWNERSHIP_HEARTBEAT,
                "maxRooms", Option.MAX_ROOMS, "maxScaleStep", Option.MAX_SCALE_STEP);
        // A flag that did not parse is reported once, as not a number in range, not again by the checks below.
        java.util.Set<String> reported = problems.stream().map(Problem::path).collect(java.util.stream.Collectors.toSet());
        try {
            FleetSettings.Builder settings = FleetSettings.builder().maxClockSkew(Duration.ofSeconds(skew))
                    .limits(new FleetLimits(maxRooms, maxStep, FleetLimits.DEFAULT.maxDurationSeconds(),
                            FleetLimits.DEFAULT.maxTriggerTimeSeconds()))
                    .ownershipLeaseTtl(Duration.ofSeconds(leaseTtl)).ownershipHeartbeat(Duration.ofSeconds(heartbeat));
            if (!instanceId.isEmpty()) {
                settings.instanceId(instanceId);
            }
            return settings.build();
        } catch (ValidationException e) {
            for (Problem problem : e.problems()) {
                Option option = flags.get(problem.path());
                String source = option == null ? problem.path() : r.source(option);
                if (reported.contains(source)) {
                    continue;
                }
                String message = problem.message();
                for (Map.Entry<String, Option> flag : flags.entrySet()) {
                    message = message.replace(flag.getKey(), r.source(flag.getValue()));
                }
                problems.add(new Problem(source, problem.value(), message));
            }
            return FleetSettings.DEFAULTS;
        }
    }

    /**
     * Admin tokens from the file (one per line; blank lines and {@code #} comments skipped) and the variable, the
     * room-token key from its file, or {@code --insecure-no-auth}. A problem names the source and never the token.
     */
    private static Security security(Resolver r, Map<String, String> env, boolean kubernetes, List<Problem> problems) {
        String insecureText = r.value(Option.INSECURE_NO_AUTH);
        boolean insecure = insecureText.equalsIgnoreCase("true");
        if (!insecure && !insecureText.equalsIgnoreCase("false")) {
            problems.add(Problem.of(r.source(Option.INSECURE_NO_AUTH), insecureText, "must be true or false"));
        }
        List<String> tokens = new ArrayList<>();
        Optional<String> file = r.optional(Option.ADMIN_TOKEN_FILE);
        file.ifPresent(path -> readSecret(r.source(Option.ADMIN_TOKEN_FILE), path, problems).ifPresent(text -> {
            String[] lines = text.split("\\R", -1);
            for (int i = 0; i < lines.length; i++) {
                String line = lines[i].strip();
                if (!line.isEmpty() && !line.startsWith("#")) {
                    adminToken(r.source(Option.ADMIN_TOKEN_FILE) + " line " + (i + 1), line, tokens, problems);
                }
            }
        }));
        String variable = env.get(ADMIN_TOKENS_VARIABLE);
        if (variable != null) {
            for (String token : variable.split("[,\\s]+")) {
                if (!token.isEmpty()) {
                    adminToken(ADMIN_TOKENS_VARIABLE, token, tokens, problems);
                }
            }
        }
        Optional<String> key = r.optional(Option.ROOM_TOKEN_KEY_FILE).flatMap(path ->
                readSecret(r.source(Option.ROOM_TOKEN_KEY_FILE), path, problems).map(String::strip));
        key.ifPresent(k -> {
            if (k.getBytes(java.nio.charset.StandardCharsets.UTF_8).length < Authenticator.MIN_ROOM_KEY_BYTES) {
                problems.add(Problem.of(r.source(Option.ROOM_TOKEN_KEY_FILE), "<redacted, " + k.length() + " characters>",
                        "the key must be at least " + Authenticator.MIN_ROOM_KEY_BYTES + " bytes (e.g. openssl rand -base64 48)"));
            }
        });
        if (insecure && (!tokens.isEmpty() || key.isPresent())) {
            problems.add(Problem.of(r.source(Option.INSECURE_NO_AUTH), "true", "contradicts the admin tokens or room-token key also "
                    + "given: turn authentication off, or give tokens, not both"));
        } else if (!insecure && tokens.isEmpty() && file.isEmpty() && variable == null) {
            problems.add(Problem.of(Option.ADMIN_TOKEN_FILE.flag(), Problem.MISSING, "authentication is on by default: give admin "
                    + "tokens in a file (" + Option.ADMIN_TOKEN_FILE.flag() + ", one per line) or in " + ADMIN_TOKENS_VARIABLE
                    + " (comma-separated), or turn authentication off with " + Option.INSECURE_NO_AUTH.flag()));
        } else if (!insecure && tokens.isEmpty() && problems.isEmpty()) {
            problems.add(Problem.of(file.isPresent() ? r.source(Option.ADMIN_TOKEN_FILE) : ADMIN_TOKENS_VARIABLE, "<empty>",
                    "holds no admin token"));
        }
        if (!insecure && kubernetes && key.isEmpty()) {
            // Room pods outlive a service process and are shared by every instance: a random key per process
            // would invalidate their tokens at the next restart.
            problems.add(Problem.of(Option.ROOM_TOKEN_KEY_FILE.flag(), Problem.MISSING, "with " + Option.KUBERNETES.flag()
                    + " and authentication on, every instance needs the same room-token key: give a file holding at least "
                    + Authenticator.MIN_ROOM_KEY_BYTES + " bytes"));
        }
        Optional<String> cert = r.optional(Option.TLS_CERT);
        Optional<String> tlsKey = r.optional(Option.TLS_KEY);
        if (cert.isPresent() != tlsKey.isPresent()) {
            Option missing = cert.isPresent() ? Option.TLS_KEY : Option.TLS_CERT;
            problems.add(Problem.of(missing.flag(), Problem.MISSING, "--tls-cert and --tls-key go together"));
        } else if (cert.isPresent()) {
            try {
                PemKeyStore.load(java.nio.file.Path.of(cert.get()), java.nio.file.Path.of(tlsKey.get()));
            } catch (ValidationException e) {
                problems.addAll(e.problems().stream().map(p -> Problem.of(r.source(p.path().equals("--tls-cert") ? Option.TLS_CERT
                        : Option.TLS_KEY), p.value(), p.message())).toList());
            } catch (java.nio.file.InvalidPathException e) {
                problems.add(Problem.of(r.source(Option.TLS_CERT), cert.get(), "not a file path"));
            }
        }
        return new Security(insecure, tokens, key, cert.map(java.nio.file.Path::of), tlsKey.map(java.nio.file.Path::of));
    }

    private static void adminToken(String source, String token, List<String> tokens, List<Problem> problems) {
        if (token.length() < Authenticator.MIN_ADMIN_TOKEN_LENGTH || token.chars().anyMatch(Character::isWhitespace)) {
            problems.add(Problem.of(source, "<redacted, " + token.length() + " characters>", "an admin token must be at least "
                    + Authenticator.MIN_ADMIN_TOKEN_LENGTH + " characters with no white space"));
        } else {
            tokens.add(token);
        }
    }

    private static Optional<String> readSecret(String source, String path, List<Problem> problems) {
        try {
            return Optional.of(java.nio.file.Files.readString(java.nio.file.Path.of(path)));
        } catch (java.nio.file.NoSuchFileException e) {
            problems.add(Problem.of(source, path, "no such file"));
        } catch (java.io.IOException | java.nio.file.InvalidPathException | java.io.UncheckedIOException e) {
            problems.add(Problem.of(source, path, "cannot be read as UTF-8 text"));
        }
        return Optional.empty();
    }

    /** The host name (a pod's name), the process id and four random characters, as one DNS-1123 label. */
    static String defaultInstanceId() {
        return dev.hotspare.ownership.runtime.OwnershipMember.defaultInstanceId();
    }

    /** Flag, else variable, else default; {@link #source} says which one a bad value came from. */
    private record Resolver(Map<Option, String> flags, Map<String, String> env) {
        String value(Option option) {
            String flag = flags.get(option);
            if (flag != null) {
                return flag.trim();
            }
            String variable = env.get(option.variable());
            return variable != null && !variable.isBlank() ? variable.trim() : option.defaultValue();
        }

        Optional<String> optional(Option option) {
            return Optional.of(value(option)).filter(v -> !v.isEmpty());
        }

        String source(Option option) {
            if (flags.containsKey(option)) {
                return option.flag();
            }
            String variable = env.get(option.variable());
            return variable != null && !variable.isBlank() ? option.variable() : option.flag();
        }

        int integer(Option option, int min, int max, List<Problem> problems) {
            String text = value(option);
            try {
                int value = Integer.parseInt(text);
                if (value >= min && value <= max) {
                    return value;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            problems.add(Problem.of(source(option), text, "must be an integer in " + min + ".." + max));
            return min;
        }
    }

    private static String redactPassword(String url) {
        return url.replaceAll("(?i)(password=)[^&]*", "$1***");
    }

    /**
     * What backs what, for the start-up line: e.g. {@code schedulers=postgres locks=redis rooms=kubernetes}.
     */
    public String describeStores() {
        return "schedulers=" + (jdbcUrl.isPresent() ? "postgres" : "memory")
                + " locks=" + (redisUri.isPresent() ? "redis" : jdbcUrl.isPresent() ? "postgres" : "memory")
                + " room-statuses=" + (redisUri.isPresent() ? "redis" : "memory")
                + " usage-history=" + (redisUri.isPresent() ? "redis" : "memory")
                + " rooms=" + (kubernetes ? "kubernetes" : "memory")
                + (ownership ? " ownership=" + fleet.instanceId().orElse("on") : " ownership=off");
    }

    /**
     * {@link #open(Supplier, Consumer)} with fabric8's standard configuration and no tuning.
     */
    public FleetService open() {
        return open(() -> new KubernetesClientBuilder().build(), builder -> { });
    }

    /**
     * Connects to every configured backend (migrating the PostgreSQL schema first) and builds the service, not
     * yet started. Whatever was opened is closed with the service, or at once if building fails.
     *
     * @param kubernetesClients makes the Kubernetes client (with {@code --kubernetes})
     * @param tuning            last changes to the builder (periods, timeouts) before it builds
     * @return connects to every configured backend (migrating the PostgreSQL schema first) and builds the service,
     *         not yet started
     */
    public FleetService open(Supplier<KubernetesClient> kubernetesClients, Consumer<FleetService.Builder> tuning) {
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(2, r -> {
                Thread t = new Thread(r, "fleet-service-tasks");
                t.setDaemon(true);
                return t;
            });
            opened.add(executor::shutdownNow);
            TaskScheduler tasks = TaskScheduler.system(executor, Clock.systemUTC());
            FleetService.Builder builder = FleetService.builder(tasks)
                    .bind(new InetSocketAddress(bindHost, port)).maxBodyBytes(maxBodyBytes)
                    .maxThreads(limits.maxThreads()).idleTimeout(limits.idleTimeout()).shutdownTimeout(limits.shutdownTimeout())
                    .fleetSettings(ownership && fleet.instanceId().isEmpty()
                            ? fleet.toBuilder().instanceId(defaultInstanceId()).build() : fleet)
                    .autoscaler(Autoscaler.builder().settings(new AutoscalerSettings(autoscaleInterval,
                            AutoscalerSettings.DEFAULT.maxScaleUpAmount())).build());
            if (security.insecureNoAuth()) {
                builder.insecureNoAuth();
            } else {
                builder.adminTokens(security.adminTokens());
            }
            if (security.tlsCertificate().isPresent()) {
                builder.tls(security.tlsCertificate().get(), security.tlsKey().orElseThrow());
            }
            Optional<byte[]> roomKey = security.roomTokenKey().map(k -> k.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            roomKey.ifPresent(builder::roomTokenKey);
            SchedulerStore schedulers = null;
            if (redisUri.isPresent()) {
                // As docs/redis.md says: commands fail at once while Redis is unreachable instead of queueing until
                // it is back, and no command waits longer than the store timeout; reconnects are tried often, so the
                // service recovers by itself soon after Redis is back.
                ClientResources resources = ClientResources.builder()
                        .reconnectDelay(Delay.exponential(Duration.ofMillis(50), Duration.ofSeconds(2), 2, TimeUnit.MILLISECONDS)).build();
                opened.add(() -> resources.shutdown(0, 2, TimeUnit.SECONDS));
                RedisURI uri = RedisURI.create(redisUri.get());
                uri.setTimeout(limits.storeTimeout());
                RedisClient client = RedisClient.create(resources, uri);
                client.setOptions(ClientOptions.builder()
                        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                        .timeoutOptions(TimeoutOptions.enabled(limits.storeTimeout()))
                        .socketOptions(SocketOptions.builder().connectTimeout(limits.storeTimeout()).build())
                        .build());
                opened.add(() -> client.shutdown(0, 2, TimeUnit.SECONDS));
                StatefulRedisConnection<String, String> connection = client.connect();
                opened.add(connection);
                builder.lockStore(new RedisLockStore(connection)).roomStatusStore(new RedisRoomStatusStore(connection))
                        .usageHistory(new RedisUsageHistory(connection))
                        .healthCheck("redis", () -> connection.sync().ping());
            }
            if (jdbcUrl.isPresent()) {
                HikariConfig config = new HikariConfig();
                config.setJdbcUrl(jdbcUrl.get());
                jdbcUser.ifPresent(config::setUsername);
                jdbcPassword.ifPresent(config::setPassword);
                config.setMaximumPoolSize(16);
                // A lost database answers within the store timeout (no pooled connection, or a refused connect), a
                // statement that runs too long is cancelled by the server, and a silent socket is given up.
                long storeMillis = Math.max(250, limits.storeTimeout().toMillis());
                config.setConnectionTimeout(storeMillis);
                config.setValidationTimeout(Math.max(250, storeMillis / 2));
                config.addDataSourceProperty("connectTimeout", String.valueOf(Math.max(1, limits.storeTimeout().toSeconds())));
                config.addDataSourceProperty("socketTimeout", String.valueOf(limits.statementTimeout().toSeconds() + 5));
                config.addDataSourceProperty("options", "-c statement_timeout=" + limits.statementTimeout().toMillis());
                config.setPoolName("fleet-service");
                HikariDataSource dataSource = new HikariDataSource(config);
                opened.add(dataSource);
                PostgresSchema.migrate(dataSource, jdbcSchema);
                PostgresSchedulerStore store = new PostgresSchedulerStore(dataSource, jdbcSchema);
                schedulers = store;
                builder.schedulerStore(store).healthCheck("postgres", () -> store.get("healthcheck"));
                if (redisUri.isEmpty()) {
                    builder.lockStore(new PostgresLockStore(dataSource, jdbcSchema));
                }
            }
            if (kubernetes) {
                KubernetesClient client = kubernetesClients.get();
                opened.add(client);
                // The cheapest authenticated read; a failure names its cause (unresolvable host, refused, 401, ...).
                builder.healthCheck("kubernetes", () -> dev.hotspare.kubernetes.KubernetesErrors.check(client));
                SchedulerStore templatesFrom = schedulers;
                if (templatesFrom == null) {
                    // Pods are made from the scheduler's releases, so the driver and the service share one store.
                    templatesFrom = new dev.hotspare.memory.InMemorySchedulerStore();
                    builder.schedulerStore(templatesFrom);
                }
                PodMemberDriver.Builder pods = PodMemberDriver.builder(client, templates(templatesFrom))
                        .namespacePrefix(namespacePrefix).nodePortServices(true);
                if (!security.insecureNoAuth()) {
                    // The same derivation the service checks tokens with, under the same (required) key.
                    pods.roomTokens(Authenticator.disabled(roomKey.orElseThrow())::roomToken);
                }
                PodMemberDriver driver = pods.build();
                opened.add(driver);
                builder.memberDriver(driver)
                        .usageMetrics(KubernetesUsageMetrics.create(client, namespacePrefix))
                        .roomAddresses((scheduler, room) -> driver.address(scheduler, room).map(a -> new RoomAddresses.Address(a.host(),
                                a.ports().entrySet().stream().sorted(Map.Entry.comparingByKey())
                                        .map(p -> new RoomAddresses.NamedPort(p.getValue(), p.getKey())).toList())));
            }
            opened.forEach(builder::onClose);
            tuning.accept(builder);
            // Tuning may replace the fleet settings whole; an instance that divides work still needs its own id.
            if (ownership && builder.currentFleetSettings().instanceId().isEmpty()) {
                builder.fleetSettings(builder.currentFleetSettings().toBuilder().instanceId(defaultInstanceId()).build());
            }
            return builder.build();
        } catch (RuntimeException e) {
            java.util.Collections.reverse(opened);
            for (AutoCloseable resource : opened) {
                try {
                    resource.close();
                } catch (Exception suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
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
            SchedulerConfig cached = parsed.getIfPresent(scheduler + "/" + version);
            if (cached != null) {
                return Optional.of(cached);
            }
            Optional<SchedulerConfig> config = store.release(scheduler, version)
                    .map(release -> SchedulerConfigs.parse(release.config().submitted(), Documents.Format.YAML));
            config.ifPresent(c -> parsed.put(scheduler + "/" + version, c));
            return config;
        };
    }
}
