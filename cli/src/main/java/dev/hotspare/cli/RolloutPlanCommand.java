package dev.hotspare.cli;

import dev.hotspare.json.Documents;
import dev.hotspare.rollout.Inventory;
import dev.hotspare.rollout.RolloutPlanner;
import dev.hotspare.rollout.RolloutPlanner.RolloutPlan;
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
import java.util.Map;
import java.util.Optional;
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
        Inputs inputs = new Inputs();
        Optional<RolloutSpec> rollout = inputs.read(specFile, RolloutSpec.class);
        Optional<Inventory> inventory = inputs.read(inventoryFile, Inventory.class);
        if (inputs.failed()) {
            return inputs.report(spec.commandLine().getErr());
        }
        RolloutPlan plan = RolloutPlanner.plan(rollout.orElseThrow(), inventory.orElseThrow());
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
        // The stage column is as wide as its longest name ("wait for window start <instant>" is 42 characters), so
        // every row stays aligned.
        int width = Math.max(36, plan.stages().stream().mapToInt(st -> st.name().length()).max().orElse(0));
        String row = "%-3s %-" + width + "s %7s %8s %6s %10s %11s  %s%n";
        out.printf(row, "#", "stage", "targets", "parallel", "rounds", "op timeout", "worst case", "order");
        int i = 1;
        for (RolloutPlan.Stage s : plan.stages()) {
            String order = s.batches().isEmpty()
                    ? String.join(" ", s.targets().stream().map(t -> t.name()).toList())
                    : String.join(" | ", s.batches().stream().map(b -> String.join(" ", b)).toList());
            out.printf(row, i++, s.name(), s.targets().size(),
                    s.parallelism() == 0 ? "-" : String.valueOf(s.parallelism()), s.rounds(),
                    s.parallelism() == 0 ? "-" : s.opTimeout().toString(), s.estimatedDuration(), abbreviate(order));
        }
        out.println();
        if (!plan.skipped().isEmpty()) {
            out.println("skipped:");
            plan.skipped().forEach(s -> out.printf("  %s: %s%n", s.target(), s.reason()));
            out.println();
        }
        RolloutPlan.Estimate e = plan.estimate();
        out.printf("prechecks worst case: %s (before the window if started early enough)%n", e.prechecks());
        out.printf("window estimate:      %s = nodes %s + services %s + devices %s in %d round(s)%n", e.window(),
                e.nodes(), e.services(), e.devices(), e.deviceRounds());
        out.printf("rounds in all:        %d%n", plan.estimatedRounds());
        out.printf("window:               %s%s%n", plan.windowFit(),
                plan.windowLength().map(l -> " (window " + l + " from " + plan.windowStart().orElseThrow() + ")").orElse(""));
        plan.warnings().forEach(w -> out.printf("warning: %s%n", w));
        plan.refusals().forEach(p -> out.printf("creating this rollout is refused: %s%n", p.describe()));
    }

    private static String abbreviate(String text) {
        return text.length() <= 100 ? text : text.substring(0, 97) + "...";
    }

    /** Reads input files, collecting the problems of every file so all of them are reported in one go. */
    static final class Inputs {
        private final List<Map.Entry<String, ValidationException>> failures = new ArrayList<>();

        /** Reads {@code file} as {@code type}, or records its problems and returns empty. */
        <T> Optional<T> read(Path file, Class<T> type) {
            try {
                return Optional.of(Documents.read(file, type));
            } catch (ValidationException e) {
                failures.add(Map.entry(file.toString(), e));
                return Optional.empty();
            }
        }

        /** Records problems found in {@code source}. */
        void fail(String source, List<Problem> problems) {
            if (!problems.isEmpty()) {
                failures.add(Map.entry(source, new ValidationException(problems)));
            }
        }

        boolean failed() {
            return !failures.isEmpty();
        }

        /** Prints every problem, {@code error: <file>: <path>: bad value '<value>': <why>}, and returns exit status 2. */
        int report(PrintWriter err) {
            failures.forEach(f -> CliSupport.badInput(err, f.getKey(), f.getValue()));
            return HotspareCli.EXIT_BAD_INPUT;
        }
    }
}
