package dev.hotspare.fleetserver;

import dev.hotspare.fleetserver.FleetServiceSettings.Option;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Suggestions;
import dev.hotspare.validation.ValidationException;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The fleet server's entry point, {@code java -jar hotspare-fleet-server.jar [FLAG...]}: runs the game-fleet service
 * (Maestro's HTTP API, docs/fleet-service.md) until SIGTERM or Ctrl-C. In memory with no flags; Redis, PostgreSQL
 * and Kubernetes when given. Every flag also reads its {@code HOTSPARE_*} variable ({@link FleetServiceSettings}
 * resolves and checks both).
 *
 * <p>The flags are a handful of {@code --name VALUE} (or {@code --name=VALUE}) pairs, so they are read here
 * without a command-line library: the server's own dependencies stay those of an embeddable service. Every bad
 * flag and every bad value is reported at once, one line each naming it, with exit status
 * {@value #EXIT_BAD_INPUT}; a backend that cannot be reached or a port in use gives one line and status
 * {@value #EXIT_CANNOT_START}; a clean shutdown, status 0.
 */
public final class FleetServerMain {

    /** Exit status for a bad flag or value. */
    public static final int EXIT_BAD_INPUT = 2;
    /** Exit status when a store cannot be reached or the port is taken. */
    public static final int EXIT_CANNOT_START = 1;

    /** Every flag: its value label (none for a switch), what it does, and a note after its variable and default. */
    private static final Map<Option, String[]> HELP = new EnumMap<>(Map.ofEntries(
            Map.entry(Option.BIND, new String[]{"ADDRESS", "Address to listen on", ""}),
            Map.entry(Option.PORT, new String[]{"PORT", "Port to listen on, 0 for any free one", ""}),
            Map.entry(Option.REDIS_URI, new String[]{"URI", "Redis for locks, room statuses and usage history, e.g. redis://localhost:6379/0", ""}),
            Map.entry(Option.JDBC_URL, new String[]{"URL", "PostgreSQL for schedulers and releases, e.g. jdbc:postgresql://localhost:5432/hotspare",
                    "; user and password from " + FleetServiceSettings.JDBC_USER_VARIABLE + " / " + FleetServiceSettings.JDBC_PASSWORD_VARIABLE}),
            Map.entry(Option.JDBC_SCHEMA, new String[]{"SCHEMA", "PostgreSQL schema", ""}),
            Map.entry(Option.KUBERNETES, new String[]{null, "Rooms are pods, using the kubeconfig or in-cluster config", ""}),
            Map.entry(Option.NAMESPACE_PREFIX, new String[]{"PREFIX", "Prepended to the scheduler name to make its namespace", ""}),
            Map.entry(Option.MAX_BODY_BYTES, new String[]{"BYTES", "Largest request body; larger ones get 413", ""}),
            Map.entry(Option.MAX_THREADS, new String[]{"COUNT", "Most threads serving requests; three quarters of them serve requests at once, more get 503 with Retry-After", ""}),
            Map.entry(Option.IDLE_TIMEOUT, new String[]{"SECONDS", "A connection silent this long (half a request, say) is closed", ""}),
            Map.entry(Option.SHUTDOWN_TIMEOUT, new String[]{"SECONDS", "Grace period on SIGTERM for running requests and operations", ""}),
            Map.entry(Option.STORE_TIMEOUT, new String[]{"SECONDS", "Redis command timeout, PostgreSQL connect and pool-wait timeout; a store that does not answer within it gives 503", ""}),
            Map.entry(Option.STATEMENT_TIMEOUT, new String[]{"SECONDS", "PostgreSQL statement timeout", ""}),
            Map.entry(Option.MAX_CLOCK_SKEW, new String[]{"SECONDS", "How far ahead of this server's clock a room report's timestamp may be", ""}),
            Map.entry(Option.MAX_ROOMS, new String[]{"COUNT", "Most rooms per scheduler (autoscaling.min/max, replicas)", ""}),
            Map.entry(Option.MAX_SCALE_STEP, new String[]{"COUNT", "Most rooms one scale step adds or removes (scaleup, scaledown, delta)", ""}),
            Map.entry(Option.AUTOSCALE_INTERVAL, new String[]{"SECONDS", "Time between two autoscaler ticks of a scheduler (Maestro's 10 s); a trigger's window counts points this far apart", ""}),
            Map.entry(Option.OWNERSHIP, new String[]{"MODE", "auto, true or false: instances on one Redis or PostgreSQL divide the schedulers between them (auto: when either is given)", ""}),
            Map.entry(Option.INSTANCE_ID, new String[]{"ID", "This instance's id among the live ones (a DNS-1123 label)", "; default: host name, process id and four random characters"}),
            Map.entry(Option.OWNERSHIP_LEASE_TTL, new String[]{"SECONDS", "How long a dead instance's leases live; its schedulers move within this plus one heartbeat", ""}),
            Map.entry(Option.OWNERSHIP_HEARTBEAT, new String[]{"SECONDS", "How often ownership leases are renewed and schedulers divided again; under half the lease TTL", ""}),
            Map.entry(Option.ADMIN_TOKEN_FILE, new String[]{"FILE", "Admin bearer tokens, one per line (# comments); several for rotation",
                    "; also " + FleetServiceSettings.ADMIN_TOKENS_VARIABLE + ", comma-separated"}),
            Map.entry(Option.ROOM_TOKEN_KEY_FILE, new String[]{"FILE", "Secret (at least 32 bytes) room tokens derive from; the same on every instance; required with --kubernetes", ""}),
            Map.entry(Option.INSECURE_NO_AUTH, new String[]{null, "Turn authentication off (warns every minute); never on a shared network", ""}),
            Map.entry(Option.TLS_CERT, new String[]{"FILE", "PEM certificate chain: serve HTTPS (with --tls-key)", ""}),
            Map.entry(Option.TLS_KEY, new String[]{"FILE", "PEM private key, unencrypted PKCS#8 (with --tls-cert)", ""})));

    /** Width of help lines; longer descriptions wrap under their column. */
    private static final int HELP_WIDTH = 100;

    private static final Map<String, Option> BY_FLAG = new LinkedHashMap<>();

    static {
        for (Option option : Option.values()) {
            BY_FLAG.put(option.flag(), option);
        }
    }

    private FleetServerMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), System.getenv(), args));
    }

    /**
     * Parses {@code args} over {@code env} and, if they are good, runs the service until the JVM shuts down.
     *
     * @return the exit status: {@value #EXIT_BAD_INPUT} for bad input and {@value #EXIT_CANNOT_START} when the
     *         service cannot start (both at once, without starting), 0 after {@code --help} or a clean shutdown
     */
    static int run(PrintWriter out, PrintWriter err, Map<String, String> env, String... args) throws InterruptedException {
        if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h")) {
            printHelp(out);
            return 0;
        }
        if (Arrays.asList(args).contains("--version")) {
            out.println("hotspare-fleet-server " + dev.hotspare.internal.HotspareVersion.current());
            out.flush();
            return 0;
        }
        List<Problem> problems = new ArrayList<>();
        Map<Option, String> flags = parseFlags(args, problems);
        FleetServiceSettings settings = null;
        try {
            settings = FleetServiceSettings.parse(flags, env);
        } catch (ValidationException e) {
            problems.addAll(e.problems());
        }
        if (!problems.isEmpty()) {
            for (Problem p : problems) {
                err.println("error: fleet-service: " + p.describe());
            }
            err.flush();
            return EXIT_BAD_INPUT;
        }
        FleetService service;
        try {
            service = settings.open();
            service.start();
        } catch (RuntimeException e) {
            // A store that does not answer or a port in use: one line, no stack trace.
            err.println("error: fleet-service: cannot start: " + e.getMessage()
                    + (e.getCause() != null ? " (" + e.getCause().getMessage() + ")" : ""));
            err.flush();
            return EXIT_CANNOT_START;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean stopping = new java.util.concurrent.atomic.AtomicBoolean();
        Runnable stop = () -> {
            if (stopping.compareAndSet(false, true)) {
                service.close();
                out.println("fleet-service stopped. KPIs (also at GET /kpis while running):");
                service.kpiSummary().forEach(line -> out.println("  " + line));
                out.flush();
                stopped.countDown();
            }
        };
        // SIGTERM and Ctrl-C stop the service gracefully and end the program with status 0 (the JVM's own handling
        // would exit 143 / 130 after the shutdown hooks). The hook stays for other ways the JVM may end.
        for (String signal : List.of("TERM", "INT")) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(signal), s -> new Thread(stop, "fleet-service-shutdown").start());
            } catch (IllegalArgumentException e) {
                // not available on this platform: the shutdown hook still stops the service
            }
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stop.run();
        }, "fleet-service-shutdown-hook"));
        out.println("fleet-service listening on " + service.scheme() + "://" + service.address().getHostString() + ":" + service.port()
                + " (" + settings.describeStores() + "); stop with SIGTERM or Ctrl-C");
        out.flush();
        stopped.await();
        return 0;
    }

    /**
     * {@code --flag VALUE} and {@code --flag=VALUE} into option → value as typed; {@code --kubernetes} alone means
     * {@code true}. Unknown flags, stray arguments, missing values and repeated flags become problems.
     */
    private static Map<Option, String> parseFlags(String[] args, List<Problem> problems) {
        Map<Option, String> flags = new EnumMap<>(Option.class);
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            int eq = arg.indexOf('=');
            String name = arg.startsWith("--") && eq > 0 ? arg.substring(0, eq) : arg;
            String value = name.equals(arg) ? null : arg.substring(eq + 1);
            Option option = BY_FLAG.get(name);
            if (option == null) {
                problems.add(arg.startsWith("-")
                        ? Problem.of(name, name, "unknown flag" + Suggestions.closest(name, BY_FLAG.keySet())
                                .map(s -> "; did you mean '" + s + "'?").orElse("; see --help"))
                        : Problem.of("argument", arg, "the fleet server takes flags only; see --help"));
                continue;
            }
            if (value == null) {
                if (option == Option.KUBERNETES || option == Option.INSECURE_NO_AUTH) {
                    value = "true";
                } else if (i + 1 < args.length) {
                    value = args[++i];
                } else {
                    problems.add(Problem.of(name, Problem.MISSING, "needs a value: " + name + " " + HELP.get(option)[0]));
                    continue;
                }
            }
            if (flags.putIfAbsent(option, value) != null) {
                problems.add(Problem.of(name, value, "given more than once"));
            }
        }
        return flags;
    }

    private static void printHelp(PrintWriter out) {
        out.println("Usage: java -jar hotspare-fleet-server.jar [FLAG...]");
        out.println("Runs the game-fleet service: Maestro's HTTP API over hotspare, until SIGTERM or Ctrl-C.");
        out.println("In memory by default; every flag also reads the environment variable shown (a flag wins).");
        out.println("Bad flags or values: exit status 2; a store that cannot be reached or a port in use: 1.");
        for (Option option : Option.values()) {
            String[] help = HELP.get(option);
            String source = option == Option.KUBERNETES || option == Option.INSECURE_NO_AUTH ? option.variable() + "=true"
                    : option.variable() + (option.defaultValue().isEmpty() ? "" : "; default " + option.defaultValue());
            printFlag(out, option.flag() + (help[0] == null ? "" : " " + help[0]), help[1] + " (" + source + help[2] + ").");
        }
        printFlag(out, "-h, --help", "Show this help and exit.");
        printFlag(out, "--version", "Print the version and exit.");
        out.flush();
    }

    /** {@code  --flag LABEL   description}, the description wrapped at word boundaries under its own column. */
    private static void printFlag(PrintWriter out, String flag, String description) {
        String indent = " ".repeat(30);
        StringBuilder line = new StringBuilder(String.format("  %-27s ", flag));
        for (String word : description.split(" ")) {
            if (line.length() > indent.length()) {
                if (line.length() + 1 + word.length() > HELP_WIDTH) {
                    out.println(line);
                    line = new StringBuilder(indent);
                } else {
                    line.append(' ');
                }
            }
            line.append(word);
        }
        out.println(line);
    }
}
