package dev.hotspare.cli;

import dev.hotspare.json.Documents;
import dev.hotspare.rollout.Inventory;
import dev.hotspare.rollout.RolloutPlan;
import dev.hotspare.rollout.RolloutPlanner;
import dev.hotspare.rollout.RolloutSpec;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code hotspare rollout plan}: the dry-run preview of a rollout spec over an inventory. */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Print the stages, order, parallelism and worst-case duration of a rollout (dry run).")
public final class RolloutPlanCommand implements Callable<Integer> {

    @Option(names = "--spec", required = true, paramLabel = "FILE", description = "Rollout spec (JSON or YAML).")
    Path specFile;

    @Option(names = "--inventory", required = true, paramLabel = "FILE", description = "Inventory of nodes and devices (JSON or YAML).")
    Path inventoryFile;

    @Option(names = "--json", description = "Print the plan as JSON instead of a table.")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        RolloutPlan plan;
        try {
            Inputs inputs = Inputs.read(specFile, inventoryFile);
            plan = RolloutPlanner.plan(inputs.spec(), inputs.inventory());
        } catch (ValidationException e) {
            return Inputs.reportProblems(spec.commandLine().getErr(), e);
        }
        if (json) {
            out.println(Documents.toJson(plan));
        } else {
            printTable(out, plan);
        }
        out.flush();
        return 0;
    }

    private static void printTable(PrintWriter out, RolloutPlan plan) {
        out.printf("rollout %s -> version %s%n%n", plan.rollout(), plan.targetVersion());
        out.printf("%-3s %-32s %7s %8s %6s %11s  %s%n", "#", "stage", "targets", "parallel", "rounds", "worst case", "order");
        int i = 1;
        for (RolloutPlan.Stage s : plan.stages()) {
            String order = s.batches().isEmpty()
                    ? String.join(" ", s.targets().stream().map(t -> t.name()).toList())
                    : String.join(" | ", s.batches().stream().map(b -> String.join(" ", b)).toList());
            out.printf("%-3d %-32s %7d %8s %6d %11s  %s%n", i++, s.name(), s.targets().size(),
                    s.parallelism() == 0 ? "-" : String.valueOf(s.parallelism()), s.rounds(), s.estimatedDuration(), abbreviate(order));
        }
        out.println();
        if (!plan.skipped().isEmpty()) {
            out.println("skipped:");
            plan.skipped().forEach(s -> out.printf("  %s: %s%n", s.target(), s.reason()));
            out.println();
        }
        out.printf("prechecks worst case: %s%n", plan.precheckDuration());
        out.printf("upgrade worst case:   %s in %d rounds%n", plan.upgradeDuration(), plan.estimatedRounds());
        out.printf("window:               %s%s%n", plan.windowFit(),
                plan.windowLength().map(l -> " (window " + l + " from " + plan.windowStart().orElseThrow() + ")").orElse(""));
    }

    private static String abbreviate(String text) {
        return text.length() <= 100 ? text : text.substring(0, 97) + "...";
    }

    /** Spec and inventory files, read together so every problem in both is reported at once. */
    record Inputs(RolloutSpec spec, Inventory inventory) {
        static Inputs read(Path specFile, Path inventoryFile) {
            List<Problem> problems = new ArrayList<>();
            RolloutSpec spec = null;
            Inventory inventory = null;
            try {
                spec = Documents.read(specFile, RolloutSpec.class);
            } catch (ValidationException e) {
                e.problems().forEach(p -> problems.add(prefixed("spec", p)));
            }
            try {
                inventory = Documents.read(inventoryFile, Inventory.class);
            } catch (ValidationException e) {
                e.problems().forEach(p -> problems.add(prefixed("inventory", p)));
            }
            if (!problems.isEmpty()) {
                throw new ValidationException(problems);
            }
            return new Inputs(spec, inventory);
        }

        static Problem prefixed(String prefix, Problem p) {
            return new Problem(p.path().isEmpty() ? prefix : prefix + "." + p.path(), p.value(), p.message());
        }

        static int reportProblems(PrintWriter err, ValidationException e) {
            e.problems().forEach(p -> err.println(p.describe()));
            err.flush();
            return HotspareCli.EXIT_BAD_INPUT;
        }
    }
}
