package dev.hotspare.cli;

import dev.hotspare.json.Documents;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolPlanner;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.internal.PoolState;
import dev.hotspare.validation.ValidationException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;

/** {@code hotspare plan}: what the pool planner would do for a pool spec and an observed state. */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Print, as JSON, the plan the pool planner makes for a pool spec and an observed state.")
final class PlanCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--pool", required = true, paramLabel = "FILE", description = "pool spec, YAML or JSON (see docs/cli.md)")
    Path poolFile;

    @Option(names = "--state", required = true, paramLabel = "FILE", description = "members and claims, JSON (see docs/cli.md)")
    Path stateFile;

    @Option(names = "--now", paramLabel = "ISO-8601", description = "decision time, e.g. 2026-01-01T12:00:00Z (default: now)")
    Instant now;

    @Override
    public Integer call() {
        PoolSpec pool = null;
        PoolState state = null;
        int status = 0;
        try {
            pool = Documents.read(poolFile, PoolSpec.class);
        } catch (ValidationException e) {
            status = CliSupport.badInput(spec.commandLine().getErr(), poolFile.toString(), e);
        }
        try {
            state = Documents.read(stateFile, PoolState.class);
        } catch (ValidationException e) {
            status = CliSupport.badInput(spec.commandLine().getErr(), stateFile.toString(), e);
        }
        if (status != 0) {
            return status;
        }
        try {
            PoolPlan plan = PoolPlanner.plan(pool, state.members(), state.claims(), now == null ? Instant.now() : now);
            spec.commandLine().getOut().println(Documents.toJson(plan));
            spec.commandLine().getOut().flush();
            return 0;
        } catch (ValidationException e) {
            return CliSupport.badInput(spec.commandLine().getErr(), stateFile.toString(), e);
        }
    }
}
