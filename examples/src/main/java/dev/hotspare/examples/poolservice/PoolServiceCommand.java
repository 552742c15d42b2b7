package dev.hotspare.examples.poolservice;

import dev.hotspare.examples.ExamplesMain;
import dev.hotspare.json.Documents;
import dev.hotspare.kubernetes.CustomResourceMemberDriver;
import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.micrometer.KpiSummary;
import dev.hotspare.micrometer.MicrometerKpis;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;
import dev.hotspare.validation.ValidationException;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * {@code java -jar hotspare-examples.jar pool-service}: runs a Hive-style pool (runningCount hot spares, FIFO claims,
 * hibernateAfter) on the in-memory driver or on Kubernetes custom resources, takes claims from stdin and, by default,
 * from a script, and prints what the pool does and why. See docs/pool-service.md.
 */
@Command(name = "pool-service", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run a Hive-style cluster pool and claim from it: watch runningCount at work.",
                "Reads commands on stdin, " + CommandParser.USAGE,
                "With no options: the demo pool in memory, 5 scripted claims 2s apart; exits when the script is done."})
public final class PoolServiceCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--pool", paramLabel = "FILE", description = "pool spec, YAML or JSON (see docs/pools.md); default: the demo pool of examples/pool.yaml")
    Path poolFile;

    @Option(names = "--claims", paramLabel = "N", description = "scripted claims, made once the pool has settled; 0 for stdin only (default: ${DEFAULT-VALUE})")
    int claims = 5;

    @Option(names = "--every", paramLabel = "DURATION", description = "time between scripted claims (default: ${DEFAULT-VALUE})")
    String every = "2s";

    @Option(names = "--hold", paramLabel = "DURATION", description = "lifetime of each scripted claim (default: held until the service stops)")
    String hold;

    @Option(names = "--install", paramLabel = "DURATION", description = "simulated install time, in memory or with --stub-provisioner (default: ${DEFAULT-VALUE})")
    String install = "7s";

    @Option(names = "--resume", paramLabel = "DURATION", description = "simulated resume time (default: ${DEFAULT-VALUE})")
    String resume = "3s";

    @Option(names = "--hibernate", paramLabel = "DURATION", description = "simulated hibernate time (default: ${DEFAULT-VALUE})")
    String hibernate = "2s";

    @Option(names = "--resync", paramLabel = "DURATION", description = "controller pass period without events; bounds how late hibernateAfter is noticed (default: ${DEFAULT-VALUE})")
    String resync = "1s";

    @Option(names = "--kubernetes", description = "members are ClusterDeployment custom resources on the cluster of your kubeconfig (or in-cluster service account)")
    boolean kubernetes;

    @Option(names = "--namespace", paramLabel = "NAME", description = "namespace of the custom resources (default: the kubeconfig's namespace, else 'default'); needs --kubernetes")
    String namespace;

    @Option(names = "--template", paramLabel = "FILE", description = "YAML of the ClusterDeployment members are made from (default: a minimal one); needs --kubernetes")
    Path templateFile;

    @Option(names = "--stub-provisioner", description = "also play the operator that installs, resumes and hibernates the custom resources (for clusters without Hive); needs --kubernetes")
    boolean stubProvisioner;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Problems problems = new Problems();
        Duration everyD = duration(problems, "--every", every, true);
        Optional<Duration> holdD = hold == null ? Optional.empty() : Optional.ofNullable(duration(problems, "--hold", hold, true));
        Duration installD = duration(problems, "--install", install, false);
        Duration resumeD = duration(problems, "--resume", resume, false);
        Duration hibernateD = duration(problems, "--hibernate", hibernate, false);
        Duration resyncD = duration(problems, "--resync", resync, true);
        problems.require(claims >= 0, "--claims", claims, "must be >= 0");
        problems.require(claims <= 1000, "--claims", claims, "at most 1000 scripted claims");
        if (!kubernetes) {
            problems.require(namespace == null, "--namespace", namespace, "needs --kubernetes");
            problems.require(templateFile == null, "--template", templateFile, "needs --kubernetes");
            problems.require(!stubProvisioner, "--stub-provisioner", true, "needs --kubernetes");
        } else {
            if (namespace != null) {
                Names.dns1123LabelProblem(namespace).ifPresent(why -> problems.add("--namespace", namespace, why));
            }
            if (!stubProvisioner) {
                for (String[] timing : new String[][]{{"--install", install}, {"--resume", resume}, {"--hibernate", hibernate}}) {
                    problems.require(!spec.commandLine().getParseResult().hasMatchedOption(timing[0]), timing[0], timing[1],
                            "simulated timings apply in memory or with --stub-provisioner; on Kubernetes the operator decides");
                }
            }
        }
        PoolSpec pool = DemoPool.spec();
        if (poolFile != null) {
            try {
                pool = Documents.read(poolFile, PoolSpec.class);
            } catch (ValidationException e) {
                for (Problem p : e.problems()) {
                    problems.add("--pool " + poolFile + (p.path().isEmpty() ? "" : ": " + p.path()), p.value(), p.message());
                }
            }
        }
        GenericKubernetesResource template = null;
        if (templateFile != null) {
            template = readTemplate(problems);
        }
        if (!problems.isEmpty()) {
            for (Problem p : problems.list()) {
                err.println("error: pool-service: " + p.describe());
            }
            err.flush();
            return ExamplesMain.EXIT_BAD_INPUT;
        }

        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "pool-service");
            t.setDaemon(true);
            return t;
        });
        TaskScheduler scheduler = TaskScheduler.system(executor, Clock.systemUTC());
        List<AutoCloseable> resources = new ArrayList<>();
        try {
            MemberDriver driver;
            if (kubernetes) {
                KubernetesClient client = new KubernetesClientBuilder().build();
                resources.add(client);
                String ns = namespace != null ? namespace : Optional.ofNullable(client.getNamespace()).orElse("default");
                try {
                    client.genericKubernetesResources(ClusterDeployments.CONTEXT).inNamespace(ns).list();
                } catch (KubernetesClientException e) {
                    err.println("error: --kubernetes: cannot list clusterdeployments.hive.openshift.io in namespace '" + ns
                            + "' at " + client.getMasterUrl() + ": " + (e.getCode() > 0 ? "HTTP " + e.getCode() + " "
                            : "") + firstLine(e.getCause() != null ? e.getCause().toString() : e.getMessage()));
                    err.println("       apply the CRD (docs/examples/clusterdeployment-crd.yaml, unless Hive is installed) and the RBAC "
                            + "(docs/kubernetes-rbac.yaml); see docs/pool-service.md");
                    err.flush();
                    return 1;
                }
                CustomResourceMemberDriver crs = CustomResourceMemberDriver.builder(client, ClusterDeployments.CONTEXT, ns)
                        .template(pool.templateVersion(), template != null ? template : ClusterDeployments.defaultTemplate())
                        .build();
                resources.add(0, crs);
                driver = crs;
                out.printf("members: ClusterDeployments in namespace %s at %s%s%n", ns, client.getMasterUrl(),
                        stubProvisioner ? " (with the stub provisioner playing Hive)" : "");
                if (stubProvisioner) {
                    StubProvisioner provisioner = new StubProvisioner(client, ClusterDeployments.CONTEXT, ns, pool.name(),
                            Clock.systemUTC(), installD, resumeD, hibernateD);
                    TaskScheduler.Cancellable stepping = scheduler.scheduleAtFixedRate(Duration.ofMillis(500),
                            Duration.ofMillis(500), provisioner::step);
                    resources.add(0, stepping::cancel);
                }
            } else {
                driver = InMemoryMemberDriver.builder(scheduler).installTime(installD).resumeTime(resumeD)
                        .hibernateTime(hibernateD).deleteTime(DemoPool.DELETE).build();
                out.printf("members: in memory (install %s, resume %s, hibernate %s)%n", DurationText.format(installD),
                        DurationText.format(resumeD), DurationText.format(hibernateD));
            }
            // The same meters the simulator fills (hotspare simulate), so a live run and a simulation compare line by line.
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            PoolService.Builder builder = PoolService.builder(pool, driver, new InMemoryClaimStore(), scheduler, out)
                    .resyncPeriod(resyncD).kpis(new MicrometerKpis(registry, Tags.of("source", "live")));
            if (claims > 0) {
                builder.script(new PoolService.Script(claims, everyD, holdD));
            }
            PoolService service = builder.build();
            resources.add(0, service);
            scheduler.execute(service::start);
            readCommands(service, scheduler, err, claims == 0);
            String why = service.finished().get();
            // The last status is taken on the scheduler thread, so no pass runs in the middle of it.
            java.util.concurrent.CompletableFuture<Void> last = new java.util.concurrent.CompletableFuture<>();
            scheduler.execute(() -> {
                try {
                    service.printStatus();
                    service.close();
                    out.println("KPIs (the meters hotspare-micrometer records; compare with hotspare simulate):");
                    KpiSummary.lines(registry).forEach(line -> out.println("  " + line));
                } finally {
                    last.complete(null);
                }
            });
            last.get(30, java.util.concurrent.TimeUnit.SECONDS);
            out.println("pool-service stopped: " + why);
            out.flush();
            return 0;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } finally {
            executor.shutdownNow();
            for (AutoCloseable r : resources) {
                try {
                    r.close();
                } catch (Exception e) {
                    // closing on the way out; nothing left to protect
                }
            }
        }
    }

    /**
     * Reads stdin on a daemon thread: each good line is carried out on the service's thread, a bad one is answered
     * with its problems and the usage. End of input finishes the service only when there is no script to wait for.
     */
    private void readCommands(PoolService service, TaskScheduler scheduler, PrintWriter err, boolean eofFinishes) {
        InputStream in = System.in;
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null && !service.finished().isDone()) {
                    try {
                        Optional<PoolCommand> command = CommandParser.parse(line);
                        command.ifPresent(c -> scheduler.execute(() -> service.handle(c)));
                    } catch (ValidationException e) {
                        synchronized (err) {
                            for (Problem p : e.problems()) {
                                err.println("error: " + p.describe());
                            }
                            err.println(CommandParser.USAGE);
                            err.flush();
                        }
                    }
                }
            } catch (IOException e) {
                err.println("error: stdin: " + e.getMessage());
                err.flush();
            }
            if (eofFinishes) {
                // Queued behind the commands already read, so a last 'quit' or 'claim' is carried out first.
                scheduler.execute(() -> service.finished().complete("end of input"));
            }
        }, "pool-service-stdin");
        reader.setDaemon(true);
        reader.start();
    }

    private GenericKubernetesResource readTemplate(Problems problems) {
        try {
            String yaml = Files.readString(templateFile);
            GenericKubernetesResource resource = new io.fabric8.kubernetes.client.utils.KubernetesSerialization()
                    .unmarshal(yaml, GenericKubernetesResource.class);
            if (resource == null || !"ClusterDeployment".equals(resource.getKind())) {
                problems.add("--template", templateFile, "must be one ClusterDeployment object (kind: ClusterDeployment)");
                return null;
            }
            return resource;
        } catch (IOException e) {
            problems.add("--template", templateFile, "cannot read: " + e.getMessage());
        } catch (RuntimeException e) {
            problems.add("--template", templateFile, "not a Kubernetes object in YAML: " + firstLine(e.getMessage()));
        }
        return null;
    }

    private static Duration duration(Problems problems, String flag, String text, boolean positive) {
        try {
            return positive ? DurationText.parsePositive(flag, text) : DurationText.parseNonNegative(flag, text);
        } catch (ValidationException e) {
            problems.addAll(e.problems());
            return Duration.ZERO;
        }
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "(no message)";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
