package dev.hotspare.cli;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.hotspare.json.Documents;
import dev.hotspare.rollout.Decision;
import dev.hotspare.rollout.InFlightOp;
import dev.hotspare.rollout.Phase;
import dev.hotspare.rollout.RolloutCommand;
import dev.hotspare.rollout.RolloutEvent;
import dev.hotspare.rollout.RolloutMachine;
import dev.hotspare.rollout.RolloutState;
import dev.hotspare.rollout.Suspension;
import dev.hotspare.rollout.TargetRef;
import dev.hotspare.rollout.TargetStatus;
import dev.hotspare.validation.Problem;
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
                   Map<TargetStatus, Integer> targets, int deviceFailures, long droppedReports, Optional<String> leader,
                   Optional<String> reason, List<TargetRef> notStarted) {
        static Summary of(RolloutState s) {
            return new Summary(s.phase(), s.suspension(), s.windowClosed(), s.deviceGroup(),
                    s.inFlight().stream().map(InFlightOp::opId).toList(), s.countByStatus(), s.deviceFailures(),
                    s.droppedReports(), s.leader(), s.reason(), s.notStarted());
        }
    }

    /** One output line. */
    record Step(int line, Instant at, RolloutEvent event, Summary state, List<RolloutCommand> commands) {
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        RolloutPlanCommand.Inputs inputs;
        List<TimedEvent> events;
        try {
            List<Problem> problems = new ArrayList<>();
            RolloutPlanCommand.Inputs read = null;
            try {
                read = RolloutPlanCommand.Inputs.read(specFile, inventoryFile);
            } catch (ValidationException e) {
                problems.addAll(e.problems());
            }
            events = readEvents(eventsFile, problems);
            if (!problems.isEmpty()) {
                throw new ValidationException(problems);
            }
            inputs = read;
        } catch (ValidationException e) {
            return RolloutPlanCommand.Inputs.reportProblems(spec.commandLine().getErr(), e);
        }
        RolloutState state = RolloutMachine.initial(inputs.spec(), inputs.inventory());
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

    /** Reads every non-blank line; collects a problem per bad line (path {@code events[line]}). */
    static List<TimedEvent> readEvents(Path file, List<Problem> problems) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (NoSuchFileException e) {
            problems.add(Problem.of("events", file, "file not found"));
            return List.of();
        } catch (IOException e) {
            problems.add(Problem.of("events", file, "cannot read file: " + e.getMessage()));
            return List.of();
        }
        List<TimedEvent> events = new ArrayList<>();
        Instant previous = Instant.MIN;
        for (int i = 0; i < lines.size(); i++) {
            String text = lines.get(i).strip();
            if (text.isEmpty()) {
                continue;
            }
            String path = "events[line " + (i + 1) + "]";
            try {
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
}
