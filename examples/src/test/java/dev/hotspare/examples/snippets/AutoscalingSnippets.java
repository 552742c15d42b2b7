package dev.hotspare.examples.snippets;

import dev.hotspare.examples.fleet.ReadyBufferPolicy;
import dev.hotspare.fleet.PolicyTypes.PolicyParameter;
import dev.hotspare.fleet.PolicyTypes.PolicyParameters;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfig.MetricsTrigger;
import dev.hotspare.fleet.SchedulerConfigs;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.autoscale.ScalingPolicies;
import dev.hotspare.fleet.autoscale.ScalingPolicy;
import dev.hotspare.fleet.autoscale.ScalingPolicy.PolicyContext;
import dev.hotspare.fleet.autoscale.ScalingPolicy.Utilization;
import dev.hotspare.json.Documents;
import dev.hotspare.validation.Problem;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;

/** The snippets of docs/autoscaling.md; compiled, the names they use are parameters. */
final class AutoscalingSnippets {

    private AutoscalingSnippets() {
    }

    /** The typed parameters of docs/autoscaling.md, in a policy of their own. */
    static final class QueuedPlayersPolicy implements ScalingPolicy {

        @Override
        public String type() {
            return "queued";
        }

        @Override
        public Utilization utilization(RoomStatusCounts counts, PolicyContext context) {
            return new Utilization.Undefined("the snippet shows only the parameters");
        }

        // snippet: docs/autoscaling.md#1
        public List<PolicyParameter> parameters() {
            return List.of(
                    PolicyParameter.whole("depth", "queued players per room").atLeast(1).atMost(50),     // required
                    PolicyParameter.decimal("weight", "how much a queued player counts")
                            .above(BigDecimal.ZERO).withDefault(BigDecimal.ONE));                        // optional
        }

        public List<Problem> checkParameters(PolicyParameters values, String path) {                     // rules between them
            return values.decimal("weight").compareTo(BigDecimal.TEN) > 0
                    ? List.of(Problem.of(path + ".weight", values.decimal("weight"), "must not exceed 10"))
                    : List.of();
        }

        public int delta(MetricsTrigger trigger, RoomStatusCounts counts, PolicyContext context) {
            PolicyParameters p = parametersOf(trigger);                // checked values, defaults filled in
            return p.whole("depth") - counts.ready();
        }
        // end snippet
    }

    static void parse(String text) {
        // snippet: docs/autoscaling.md#2
        ScalingPolicies policies = ScalingPolicies.loaded();
        SchedulerConfig config = SchedulerConfigs.parse(text, Documents.Format.YAML, policies.types());
        // end snippet
    }

    static void register() {
        // snippet: docs/autoscaling.md#4
        Autoscaler autoscaler = Autoscaler.builder()
                .policies(ScalingPolicies.builtIn().with(new ReadyBufferPolicy()))
                .build();
        // end snippet
    }

    static void read(Path path) {
        // snippet: docs/autoscaling.md#5
        ScalingPolicies policies = ScalingPolicies.loaded();
        SchedulerConfig config = SchedulerConfigs.read(path, policies.typeNames());
        // end snippet
    }
}
