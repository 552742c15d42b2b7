package dev.hotspare.cli;

import dev.hotspare.examples.fleetservice.FleetService;
import dev.hotspare.examples.fleetservice.FleetServiceSettings;
import dev.hotspare.examples.fleetservice.FleetServiceSettings.Option;
import dev.hotspare.validation.ValidationException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code hotspare fleet-service}: runs the game-fleet service (Maestro's HTTP API) until SIGTERM / Ctrl-C.
 * In memory with no arguments; Redis, PostgreSQL and Kubernetes when given (docs/fleet-service.md).
 */
@Command(name = "fleet-service", mixinStandardHelpOptions = true,
        description = {"Runs the game-fleet service: Maestro's HTTP API over hotspare, until SIGTERM or Ctrl-C.",
                "In memory by default; every option also reads the environment variable shown."})
public final class FleetServiceCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Option(names = "--bind", paramLabel = "ADDRESS", description = "Address to listen on (HOTSPARE_BIND; default 127.0.0.1).")
    String bind;

    @CommandLine.Option(names = "--port", paramLabel = "PORT", description = "Port to listen on, 0 for any free one (HOTSPARE_PORT; default 8080).")
    String port;

    @CommandLine.Option(names = "--redis-uri", paramLabel = "URI",
            description = "Redis for locks, room statuses and usage history, e.g. redis://localhost:6379/0 (HOTSPARE_REDIS_URI).")
    String redisUri;

    @CommandLine.Option(names = "--jdbc-url", paramLabel = "URL",
            description = "PostgreSQL for schedulers and releases, e.g. jdbc:postgresql://localhost:5432/hotspare (HOTSPARE_JDBC_URL;"
                    + " user and password from HOTSPARE_JDBC_USER / HOTSPARE_JDBC_PASSWORD).")
    String jdbcUrl;

    @CommandLine.Option(names = "--jdbc-schema", paramLabel = "SCHEMA", description = "PostgreSQL schema (HOTSPARE_JDBC_SCHEMA; default hotspare).")
    String jdbcSchema;

    @CommandLine.Option(names = "--kubernetes", description = "Rooms are pods, using the kubeconfig or in-cluster config (HOTSPARE_KUBERNETES=true).")
    boolean kubernetes;

    @CommandLine.Option(names = "--namespace-prefix", paramLabel = "PREFIX",
            description = "Prepended to the scheduler name to make its namespace (HOTSPARE_NAMESPACE_PREFIX).")
    String namespacePrefix;

    @CommandLine.Option(names = "--max-body-bytes", paramLabel = "BYTES",
            description = "Largest request body; larger ones get 413 (HOTSPARE_MAX_BODY_BYTES; default 1048576).")
    String maxBodyBytes;

    @Override
    public Integer call() throws InterruptedException {
        Map<Option, String> flags = new EnumMap<>(Option.class);
        put(flags, Option.BIND, bind);
        put(flags, Option.PORT, port);
        put(flags, Option.REDIS_URI, redisUri);
        put(flags, Option.JDBC_URL, jdbcUrl);
        put(flags, Option.JDBC_SCHEMA, jdbcSchema);
        put(flags, Option.KUBERNETES, kubernetes ? "true" : null);
        put(flags, Option.NAMESPACE_PREFIX, namespacePrefix);
        put(flags, Option.MAX_BODY_BYTES, maxBodyBytes);
        FleetServiceSettings settings;
        try {
            settings = FleetServiceSettings.parse(flags, System.getenv());
        } catch (ValidationException e) {
            return CliSupport.badInput(spec.commandLine().getErr(), "fleet-service", e);
        }
        FleetService service;
        try {
            service = settings.open();
            service.start();
        } catch (RuntimeException e) {
            // A store that does not answer or a port in use: one line, no stack trace.
            spec.commandLine().getErr().println("error: fleet-service: cannot start: " + e.getMessage()
                    + (e.getCause() != null ? " (" + e.getCause().getMessage() + ")" : ""));
            spec.commandLine().getErr().flush();
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        var out = spec.commandLine().getOut();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            service.close();
            out.println("fleet-service stopped. KPIs (also at GET /kpis while running):");
            service.kpiSummary().forEach(line -> out.println("  " + line));
            out.flush();
            stopped.countDown();
        }, "fleet-service-shutdown"));
        out.println("fleet-service listening on http://" + service.address().getHostString() + ":" + service.port()
                + " (" + settings.describeStores() + "); stop with SIGTERM or Ctrl-C");
        out.flush();
        stopped.await();
        return 0;
    }

    private static void put(Map<Option, String> flags, Option option, String value) {
        if (value != null) {
            flags.put(option, value);
        }
    }
}
