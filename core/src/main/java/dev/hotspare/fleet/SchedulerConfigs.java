package dev.hotspare.fleet;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import dev.hotspare.fleet.PolicyTypes.TriggerTypes;
import dev.hotspare.fleet.SchedulerConfig.FleetLimits;
import dev.hotspare.json.Documents;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;
import dev.hotspare.validation.ValidationException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads {@link SchedulerConfig}s from YAML or JSON and validates them, reporting <em>every</em> problem of
 * a document at once: syntax, unknown fields (with "did you mean"), wrong types, bad quantities, missing
 * required fields and the semantic rules.
 */
public final class SchedulerConfigs {

    private SchedulerConfigs() {
    }

    /**
     * The outcome of checking one document.
     *
     * @param config   the config when the document could be bound (possibly with problems)
     * @param problems everything wrong, in document order for structure, then rule order
     */
    public record Check(Optional<SchedulerConfig> config, List<Problem> problems) {

        public Check {
            problems = List.copyOf(problems);
        }

        /**
         * Whether the document is a valid config.
         */
        public boolean isValid() {
            return problems.isEmpty() && config.isPresent();
        }

        /**
         * The valid config, or a {@link ValidationException} with every problem.
         */
        public SchedulerConfig orThrow() {
            if (!isValid()) {
                throw new ValidationException(problems.isEmpty()
                        ? List.of(Problem.of("", "<empty>", "document is empty")) : problems);
            }
            return config.orElseThrow();
        }
    }

    /**
     * Reads and validates {@code file} against the built-in trigger types.
     *
     * @param file the document
     */
    public static SchedulerConfig read(Path file) {
        return check(file, TriggerTypes.BUILT_IN).orThrow();
    }

    /**
     * Reads and validates {@code file}; {@code triggerTypes} are the known trigger type names.
     *
     * @param file the document
     * @param triggerTypes the known trigger type names
     */
    public static SchedulerConfig read(Path file, Set<String> triggerTypes) {
        return check(file, triggerTypes).orThrow();
    }

    /**
     * Parses and validates {@code text} against the built-in trigger types.
     *
     * @param text the document
     * @param format JSON or YAML
     */
    public static SchedulerConfig parse(String text, Documents.Format format) {
        return check(text, format, TriggerTypes.BUILT_IN).orThrow();
    }

    /**
     * Parses and validates {@code text}; {@code triggerTypes} are the known trigger type names.
     *
     * @param text the document
     * @param format JSON or YAML
     * @param triggerTypes the known trigger type names
     */
    public static SchedulerConfig parse(String text, Documents.Format format, Set<String> triggerTypes) {
        return check(text, format, triggerTypes).orThrow();
    }

    /**
     * Parses and validates {@code text}, checking policy parameters against what each policy declares.
     *
     * @param text   the document
     * @param format JSON or YAML
     * @param types  the scaling policies configs may name
     * @return the valid config
     * @throws ValidationException with every problem
     */
    public static SchedulerConfig parse(String text, Documents.Format format, PolicyTypes types) {
        return check(text, format, types).orThrow();
    }

    /**
     * Reads and validates {@code file}, checking policy parameters against what each policy declares.
     *
     * @param file  the document
     * @param types the scaling policies configs may name
     * @return the valid config
     * @throws ValidationException with every problem
     */
    public static SchedulerConfig read(Path file, PolicyTypes types) {
        return check(file, types).orThrow();
    }

    /**
     * Checks {@code file} without throwing.
     *
     * @param file the document
     * @param triggerTypes the known trigger type names
     */
    public static Check check(Path file, Set<String> triggerTypes) {
        return check(file, PolicyTypes.named(triggerTypes));
    }

    /**
     * Checks {@code file} without throwing.
     *
     * @param file  the document
     * @param types the scaling policies configs may name
     * @return the config, if it could be bound, and every problem
     */
    public static Check check(Path file, PolicyTypes types) {
        String text;
        try {
            text = Documents.readText(file);
        } catch (ValidationException e) {
            return new Check(Optional.empty(), e.problems());
        }
        return check(text, Documents.formatOf(file), types);
    }

    /**
     * Checks {@code text} without throwing, under the default {@link FleetLimits}.
     *
     * @param text the document
     * @param format JSON or YAML
     * @param triggerTypes the known trigger type names
     */
    public static Check check(String text, Documents.Format format, Set<String> triggerTypes) {
        return check(text, format, PolicyTypes.named(triggerTypes), FleetLimits.DEFAULT);
    }

    /**
     * Checks {@code text} without throwing.
     *
     * @param text   the document
     * @param format JSON or YAML
     * @param types  the scaling policies configs may name
     * @return the config, if it could be bound, and every problem
     */
    public static Check check(String text, Documents.Format format, PolicyTypes types) {
        return check(text, format, types, FleetLimits.DEFAULT);
    }

    /**
     * Checks {@code text} without throwing, under {@code limits}.
     *
     * @param text         the document
     * @param format       JSON or YAML
     * @param triggerTypes the known trigger type names
     * @param limits       the bounds of counts and durations
     * @return the config, if it could be bound, and every problem
     */
    public static Check check(String text, Documents.Format format, Set<String> triggerTypes, FleetLimits limits) {
        return check(text, format, PolicyTypes.named(triggerTypes), limits);
    }

    /**
     * Checks {@code text} without throwing, under {@code limits}, policy parameters checked against what each
     * policy declares.
     *
     * @param text   the document
     * @param format JSON or YAML
     * @param types  the scaling policies configs may name
     * @param limits the bounds of counts and durations
     * @return the config, if it could be bound, and every problem
     */
    public static Check check(String text, Documents.Format format, PolicyTypes types, FleetLimits limits) {
        JsonNode tree;
        try {
            tree = Documents.reader(format).readTree(text);
        } catch (JacksonException e) {
            return new Check(Optional.empty(), Documents.problemsOf(e));
        }
        if (tree == null || tree.isMissingNode() || tree.isNull()) {
            return new Check(Optional.empty(), List.of(Problem.of("", "<empty>", "document is empty")));
        }
        Problems structural = new Problems();
        JsonNode cleaned = ConfigShape.check(tree, SchedulerConfig.class, structural);
        if (cleaned == null) {
            return new Check(Optional.empty(), structural.list());
        }
        SchedulerConfig config;
        try {
            config = Documents.reader(format).treeToValue(cleaned, SchedulerConfig.class);
        } catch (JacksonException e) {
            List<Problem> all = ConfigShape.firstPerPath(structural.list(), Documents.problemsOf(e));
            return new Check(Optional.empty(), all);
        }
        List<Problem> all = ConfigShape.firstPerPath(structural.list(), config.validate(types, limits));
        return new Check(Optional.of(config), all);
    }

    /**
     * Checks {@code text} as the fleet service does before it saves a config: {@link #check(String, Documents.Format,
     * PolicyTypes, FleetLimits)}, and every forwarder plugin the config names must be one of {@code forwarderPlugins}
     * (a plugin that does not exist would fail the scheduler's watcher on every tick). {@code hotspare validate}
     * and the service run this one check, so the CLI never calls valid what the service refuses.
     *
     * @param text             the document
     * @param format           JSON or YAML
     * @param types            the scaling policies configs may name
     * @param limits           the bounds of counts and durations
     * @param forwarderPlugins the forwarder plugins that exist (e.g. {@code EventDispatcher.pluginNames(loader)})
     * @return the config, if it could be bound, and every problem
     */
    public static Check check(String text, Documents.Format format, PolicyTypes types, FleetLimits limits,
                              Set<String> forwarderPlugins) {
        Check check = check(text, format, types, limits);
        if (check.config().isEmpty()) {
            return check;
        }
        List<Problem> problems = new java.util.ArrayList<>(check.problems());
        for (String plugin : new java.util.TreeSet<>(check.config().get().forwarders().keySet())) {
            if (!forwarderPlugins.contains(plugin)) {
                problems.add(Problem.of("forwarders." + plugin, plugin, "unknown forwarder plugin; known: "
                        + (forwarderPlugins.isEmpty() ? "none" : String.join(", ", new java.util.TreeSet<>(forwarderPlugins)))));
            }
        }
        return new Check(check.config(), problems);
    }

    /**
     * {@link #check(String, Documents.Format, PolicyTypes, FleetLimits, Set)} of a file, under the default limits.
     *
     * @param file             the document
     * @param types            the scaling policies configs may name
     * @param forwarderPlugins the forwarder plugins that exist
     * @return the config, if it could be bound, and every problem
     */
    public static Check check(Path file, PolicyTypes types, Set<String> forwarderPlugins) {
        String text;
        try {
            text = Documents.readText(file);
        } catch (ValidationException e) {
            return new Check(Optional.empty(), e.problems());
        }
        return check(text, Documents.formatOf(file), types, FleetLimits.DEFAULT, forwarderPlugins);
    }
}
