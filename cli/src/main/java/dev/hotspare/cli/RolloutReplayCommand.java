package dev.hotspare.cli;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import dev.hotspare.json.Documents;
import dev.hotspare.rollout.Inventory;
import dev.hotspare.rollout.RolloutMachine;
import dev.hotspare.rollout.RolloutMachine.Decision;
import dev.hotspare.rollout.RolloutMachine.RolloutCommand;
import dev.hotspare.rollout.RolloutMachine.RolloutEvent;
import dev.hotspare.rollout.RolloutPlanner;
import dev.hotspare.rollout.RolloutSpec;
import dev.hotspare.rollout.RolloutState;
import dev.hotspare.rollout.RolloutState.InFlightOp;
import dev.hotspare.rollout.RolloutState.Phase;
import dev.hotspare.rollout.RolloutState.Suspension;
import dev.hotspare.rollout.RolloutState.TargetRecord;
import dev.hotspare.rollout.RolloutState.TargetStatus;
import dev.hotspare.rollout.TargetRef;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Suggestions;
import dev.hotspare.validation.ValidationException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code hotspare rollout replay}: feeds timed events (JSON lines) to the pure state machine and prints, per
 * event, the resulting state summary and commands as one JSON line.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = "Feed timed events (JSON lines) to the rollout state machine; print state summary and commands per event as JSON lines.")
public final class RolloutReplayCommand implements Callable<Integer> {

    @Option(names = "--spec", required = true, paramLabel = "FILE", description = "Rollout spec (JSON or YAML).")
    Path specFile;

    @Option(names = "--inventory", required = true, paramLabel = "FILE", description = "Inventory (JSON or YAML).")
    Path inventoryFile;

    @Option(names = "--events", required = true, paramLabel = "FILE",
            description = "One event per line: {\"at\": \"2026-01-01T00:00:00Z\", \"event\": {\"type\": \"Start\"}}.")
    Path eventsFile;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** One line of the events file. */
    record TimedEvent(Instant at, RolloutEvent event) {
        @JsonCreator
        TimedEvent(@JsonProperty(value = "at", required = true) Instant at,
                   @JsonProperty(value = "event", required = true) RolloutEvent event) {
            this.at = at;
            this.event = event;
        }
    }

    /** The state after an event, in brief. */
    record Summary(Phase phase, Suspension suspension, boolean windowClosed, int deviceGroup, List<String> inFlight,
                   Map<TargetStatus, Integer> targets, int deviceFailures, List<TargetRef> precheckFailures,
                   long droppedReports, Optional<String> leader, Optional<String> reason, List<TargetRef> notStarted,
                   boolean specChangePending) {
        static Summary of(RolloutState s) {
            return new Summary(s.phase(), s.suspension(), s.windowClosed(), s.deviceGroup(),
                    s.inFlight().stream().map(InFlightOp::opId).toList(), s.countByStatus(), s.deviceFailures(),
                    s.precheckFailures().stream().map(TargetRecord::target).toList(), s.droppedReports(), s.leader(),
                    s.reason(), s.notStarted(), s.pendingSpec().isPresent());
        }
    }

    /** One output line. */
    record Step(int line, Instant at, RolloutEvent event, Summary state, List<RolloutCommand> commands) {
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        RolloutPlanCommand.Inputs inputs = new RolloutPlanCommand.Inputs();
        Optional<RolloutSpec> rollout = inputs.read(specFile, RolloutSpec.class);
        Optional<Inventory> inventory = inputs.read(inventoryFile, Inventory.class);
        List<Problem> eventProblems = new ArrayList<>();
        List<TimedEvent> events = readEvents(eventsFile, eventProblems);
        inputs.fail(eventsFile.toString(), eventProblems);
        if (rollout.isPresent() && inventory.isPresent()) {
            // The replay starts from the rollout as created, so it is refused as creating it would be.
            inputs.fail(specFile.toString(), RolloutPlanner.plan(rollout.get(), inventory.get()).refusals());
        }
        if (inputs.failed()) {
            return inputs.report(spec.commandLine().getErr());
        }
        RolloutState state = RolloutMachine.initial(rollout.orElseThrow(), inventory.orElseThrow());
        int line = 0;
        for (TimedEvent e : events) {
            line++;
            Decision d = RolloutMachine.decide(state, e.event(), e.at());
            state = d.state();
            out.println(Documents.toJsonLine(new Step(line, e.at(), e.event(), Summary.of(state), d.commands())));
        }
        out.flush();
        return 0;
    }

    /** Reads every non-blank line; collects the problems of every bad line (path {@code line N…}). */
    static List<TimedEvent> readEvents(Path file, List<Problem> problems) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (NoSuchFileException e) {
            problems.add(Problem.of("", file, "file not found"));
            return List.of();
        } catch (IOException e) {
            problems.add(Problem.of("", file, "cannot read file: " + e.getMessage()));
            return List.of();
        }
        List<TimedEvent> events = new ArrayList<>();
        Instant previous = Instant.MIN;
        for (int i = 0; i < lines.size(); i++) {
            String text = lines.get(i).strip();
            if (text.isEmpty()) {
                continue;
            }
            String path = "line " + (i + 1);
            try {
                Optional<Problem> unknownType = unknownEventType(text, path);
                if (unknownType.isPresent()) {
                    problems.add(unknownType.get());
                    continue;
                }
                TimedEvent e = Documents.read(text, Documents.Format.JSON, TimedEvent.class);
                if (e.at() == null || e.event() == null) {
                    problems.add(Problem.of(path + (e.at() == null ? ".at" : ".event"), Problem.MISSING, "required field is missing"));
                    continue;
                }
                if (e.at().isBefore(previous)) {
                    problems.add(Problem.of(path + ".at", e.at(), "events must be in time order; the previous one is at " + previous));
                }
                previous = e.at();
                events.add(e);
            } catch (ValidationException e) {
                e.problems().forEach(p -> problems.add(new Problem(p.path().isEmpty() ? path : path + "." + p.path(), p.value(), p.message())));
            }
        }
        return events;
    }

    private static final List<String> EVENT_TYPES = java.util.Arrays.stream(
            RolloutEvent.class.getAnnotation(JsonSubTypes.class).value()).map(JsonSubTypes.Type::name).sorted().toList();

    /** Jackson's own message for an unknown subtype is noisy; name the bad type and the known ones instead. */
    private static Optional<Problem> unknownEventType(String text, String path) {
        JsonNode tree;
        try {
            tree = Documents.jsonReader().readTree(text);
        } catch (JacksonException e) {
            return Optional.empty();
        }
        JsonNode type = tree.path("event").path("type");
        if (!type.isString() || EVENT_TYPES.contains(type.asString())) {
            return Optional.empty();
        }
        String hint = Suggestions.closest(type.asString(), EVENT_TYPES).map(s -> "; did you mean '" + s + "'?")
                .orElse("; one of " + String.join(", ", EVENT_TYPES));
        return Optional.of(Problem.of(path + ".event.type", type.asString(), "unknown event type" + hint));
    }
}
