package dev.hotspare.fleet.plan;

import dev.hotspare.fleet.SchedulerConfig.Autoscaling;
import dev.hotspare.fleet.SchedulerConfig.ScalingSpec;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.plan.FleetPlanner.FleetPlan;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.testkit.property.Gen;
import dev.hotspare.testkit.property.Property;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;

import static dev.hotspare.testkit.property.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The planner's answer to a manual request ({@link FleetPlanner#manual}) and the scale inputs' bookkeeping: a
 * request never removes more rooms than it asked for (unless the scheduler is above max, which Maestro's
 * SetScalingAmount brings down to max) and never goes below min or above max; only READY rooms go; a request applied
 * and read back is never applied twice.
 */
class ManualScaleDecisionProperties {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private final FleetPlanner planner = new FleetPlanner(Autoscaler.standard());

    record Case(int min, int max, int active, int ready, ScaleInputs.Kind kind, int amount) {
    }

    private static Gen<Case> cases() {
        return s -> {
            int min = Gen.integers(0, 5).generate(s);
            int max = Gen.integers(0, 1).generate(s) == 0 ? 0 : min + Gen.integers(0, 10).generate(s);
            int active = Gen.integers(0, 20).generate(s);
            int ready = Gen.integers(0, active).generate(s);
            ScaleInputs.Kind kind = ScaleInputs.Kind.values()[Gen.integers(0, 2).generate(s)];
            int amount = Gen.integers(kind == ScaleInputs.Kind.REPLICAS ? 0 : 1, 25).generate(s);
            return new Case(min, max, active, ready, kind, amount);
        };
    }

    @Property
    void aManualDecisionStaysWithinTheRequestMinAndMax() {
        forAll(cases()).tries(500).check(c -> {
            Autoscaling a = new Autoscaling(c.min(), c.max(), ScalingSpec.NONE, ScalingSpec.NONE, false);
            List<Member> ready = new ArrayList<>();
            for (int i = 0; i < c.ready(); i++) {
                ready.add(Member.provisioning("r" + i, NOW.minusSeconds(i), "v1.0", DesiredPower.RUNNING));
            }
            ScaleInputs.Request request = new ScaleInputs.Request("id", c.kind(), c.amount(), NOW);
            Optional<FleetPlan.Scaling> scaling = planner.manual(request, a, c.active(), ready, SchedulerVersion.FIRST);
            int up = scaling.orElse(null) instanceof FleetPlan.ScaleUp u ? u.count() : 0;
            List<String> down = scaling.orElse(null) instanceof FleetPlan.ScaleDown d ? d.rooms() : List.of();
            int after = c.active() + up - down.size();
            String why = c + " -> +" + up + " -" + down;
            assertThat(new HashSet<>(down)).as(why).hasSize(down.size());
            assertThat(down).as(why + ": only READY rooms go").allMatch(r -> ready.stream().anyMatch(m -> m.id().equals(r)));
            if (!down.isEmpty()) {
                assertThat(after).as(why + ": never below min").isGreaterThanOrEqualTo(c.min());
                int asked = c.kind() == ScaleInputs.Kind.DOWN ? c.amount() : c.active() - Math.max(c.min(), c.amount());
                int aboveMax = c.max() > 0 ? c.active() - c.max() : 0;
                assertThat(down.size()).as(why + ": never more than asked (or than the rooms above max)")
                        .isLessThanOrEqualTo(Math.max(asked, aboveMax));
            }
            if (up > 0) {
                if (c.max() > 0) {
                    assertThat(after).as(why + ": never above max").isLessThanOrEqualTo(c.max());
                }
                int asked = c.kind() == ScaleInputs.Kind.UP ? c.amount() : c.amount() - c.active();
                assertThat(up).as(why + ": never more than asked, unless raised to min")
                        .isLessThanOrEqualTo(Math.max(asked, c.min() - c.active()));
                assertThat(up).as(why + ": the scale-up cap").isLessThanOrEqualTo(Math.max(300, c.min() - c.active()));
            }
        });
    }

    @Property
    void aRequestAppliedAndReadBackIsNeverAppliedTwice() {
        forAll(Gen.integers(1, 6), Gen.integers(0, 5)).tries(200).check((requests, finished) -> {
            ScaleInputs inputs = ScaleInputs.EMPTY;
            for (int i = 0; i < requests; i++) {
                inputs = ScaleInputs.fromJson(inputs.withRequest(new ScaleInputs.Request("r" + i, ScaleInputs.Kind.UP, 1 + i, NOW)).toJson());
            }
            List<String> applied = new ArrayList<>();
            for (int round = 0; round < requests + 3; round++) {
                Optional<ScaleInputs.Request> next = ScaleInputs.fromJson(inputs.toJson()).next();
                if (next.isEmpty()) {
                    break;
                }
                ScaleInputs.Applying decision = new ScaleInputs.Applying(next.get(), 10, next.get().amount(), List.of());
                inputs = ScaleInputs.fromJson(inputs.start(decision).toJson());
                assertThat(inputs.next()).as("nothing new is decided while one is being applied").isEmpty();
                inputs = ScaleInputs.fromJson(inputs.finish(new ScaleInputs.Outcome(next.get().id(), decision.delta(), List.of())).toJson());
                // Read back: a finished request is never offered again, and finishing twice changes nothing.
                assertThat(inputs.finish(new ScaleInputs.Outcome(next.get().id(), decision.delta(), List.of()))).isEqualTo(inputs);
                applied.add(next.get().id());
            }
            assertThat(new HashSet<>(applied)).as("each request once").hasSize(applied.size()).hasSize(requests);
            assertThat(inputs.idle()).isTrue();
        });
    }
}
