package dev.hotspare.cli;

import dev.hotspare.fleet.PolicyTypes;
import dev.hotspare.fleet.SchedulerConfigs;
import dev.hotspare.fleet.autoscale.ScalingPolicies;
import dev.hotspare.validation.Problem;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code hotspare validate FILE...}: checks scheduler configs (YAML or JSON) and prints {@code FILE: valid}
 * or one line per problem, {@code FILE: path: bad value 'x': why}. Trigger types of plug-in policies on the
 * class path are known.
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = {"Validate scheduler configs (YAML or JSON).",
                "Prints 'FILE: valid' per valid file, or every problem as 'FILE: path: bad value 'x': why'.",
                "Exit status: 0 all valid, 1 some file invalid or unreadable, 2 bad usage."})
public final class ValidateCommand implements Callable<Integer> {

    /** Exit status when at least one file has problems. */
    public static final int EXIT_INVALID = 1;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "scheduler config files (.yaml, .yml or .json)")
    List<Path> files;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        // Every policy on the class path, with the parameters it declares, so plug-in parameters are checked too.
        PolicyTypes types = ScalingPolicies.loaded().types();
        // And every forwarder plug-in, as the fleet service checks them: validate refuses what the service refuses.
        java.util.Set<String> forwarders = dev.hotspare.fleet.events.EventDispatcher.pluginNames(
                Thread.currentThread().getContextClassLoader());
        boolean allValid = true;
        for (Path file : files) {
            SchedulerConfigs.Check check = SchedulerConfigs.check(file, types, forwarders);
            if (check.isValid()) {
                out.println(file + ": valid");
                continue;
            }
            allValid = false;
            List<Problem> problems = check.problems().isEmpty()
                    ? List.of(Problem.of("", "<empty>", "document is empty")) : check.problems();
            for (Problem p : problems) {
                out.println(file + ": " + p.describe());
            }
        }
        out.flush();
        return allValid ? 0 : EXIT_INVALID;
    }
}
