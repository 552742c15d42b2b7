package dev.hotspare.cli;

import tools.jackson.databind.JsonNode;
import dev.hotspare.fleet.versions.ConfigDiff;
import dev.hotspare.json.Documents;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code hotspare diff A.yaml B.yaml}: whether going from scheduler config A to B is a major release (rooms
 * are replaced) or a minor one, and every field that differs.
 */
@Command(name = "diff", mixinStandardHelpOptions = true,
        description = {"Compares two scheduler configs (YAML or JSON): prints major / minor / none and the field-level differences.",
                "Exit 0 on success, 2 if a file is missing or not a YAML/JSON object."})
public final class DiffCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "BEFORE", description = "the current config")
    Path before;

    @Parameters(index = "1", paramLabel = "AFTER", description = "the new config")
    Path after;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        List<String> problems = new ArrayList<>();
        JsonNode a = read(before, problems);
        JsonNode b = read(after, problems);
        if (!problems.isEmpty()) {
            problems.forEach(spec.commandLine().getErr()::println);
            return HotspareCli.EXIT_BAD_INPUT;
        }
        spec.commandLine().getOut().println(ConfigDiff.between(a, b).describe());
        return 0;
    }

    private static JsonNode read(Path file, List<String> problems) {
        try {
            JsonNode tree = Documents.read(file, JsonNode.class);
            if (!tree.isObject()) {
                problems.add(file + ": " + Problem.of("", tree.getNodeType().name().toLowerCase(), "a scheduler config must be an object").describe());
                return null;
            }
            return tree;
        } catch (ValidationException e) {
            e.problems().forEach(p -> problems.add(file + ": " + p.describe()));
            return null;
        }
    }
}
