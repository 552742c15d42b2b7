package dev.hotspare.fleet.plan;

import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfig.Autoscaling;
import dev.hotspare.fleet.SchedulerConfig.ScalingSpec;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.plan.FleetPlanner.FleetPlan;
import org.junit.jupiter.api.Test;

import static dev.hotspare.fleet.plan.FleetPlannerTest.config;
import static dev.hotspare.fleet.plan.FleetPlannerTest.observe;
import static dev.hotspare.fleet.plan.FleetPlannerTest.room;
import static org.assertj.core.api.Assertions.assertThat;

/** Maestro 10's rolling-update target, an option of the fleet planner. */
class RollingUpdateTargetTest {

    private static Autoscaling bounded(int max) {
        return config(0, max, ScalingSpec.NONE, ScalingSpec.NONE).autoscaling();
    }

    @Test
    void theTargetIsDesiredPlusTheSurgeCappedAtMaxAndASurgeBelowOneCountsAsOne() {
        assertThat(FleetPlanner.rollingUpdateTarget(4, bounded(10), 2)).isEqualTo(6);
        assertThat(FleetPlanner.rollingUpdateTarget(4, bounded(5), 2)).isEqualTo(5);
        assertThat(FleetPlanner.rollingUpdateTarget(4, bounded(0), 3)).as("max 0: unbounded").isEqualTo(7);
        assertThat(FleetPlanner.rollingUpdateTarget(4, bounded(10), 0)).isEqualTo(5);
        assertThat(FleetPlanner.rollingUpdateTarget(4, bounded(10), -7)).isEqualTo(5);
        assertThat(FleetPlanner.rollingUpdateTarget(6, bounded(5), 2)).as("never below desired").isEqualTo(6);
    }

    @Test
    void theSurgeIsTheConfigsMaxSurgeOfTheDesiredRooms() {
        SchedulerConfig config = config(0, 10, ScalingSpec.NONE, ScalingSpec.NONE);
        assertThat(FleetPlanner.surgeOf(config, 4)).as("25% of 4").isEqualTo(1);
        assertThat(FleetPlanner.surgeOf(config, 10)).as("25% of 10, rounded up").isEqualTo(3);
        assertThat(FleetPlanner.surgeOf(config, 0)).isEqualTo(1);
    }

    @Test
    void withTheOptionRoomsOfAnOlderMajorRaiseTheDesiredCountAndWithoutItNothingChanges() {
        FleetPlanner plain = new FleetPlanner(Autoscaler.standard());
        FleetPlanner surging = plain.withSurgeWhileOutdated();
        SchedulerConfig config = config(2, 10, ScalingSpec.NONE, ScalingSpec.NONE);
        FleetPlannerTest.Builder outdated = observe(config, room("a", 40, "v2.0"), room("b", 30, "v2.0"),
                room("c", 20, "v1.0"), room("d", 10, "v1.0"));
        outdated.replaceRunning = true;

        assertThat(plain.plan(outdated.build()).scaling()).isEmpty();
        assertThat(surging.plan(outdated.build()).scaling()).containsInstanceOf(FleetPlan.ScaleUp.class)
                .get().extracting(s -> ((FleetPlan.ScaleUp) s).count()).isEqualTo(1);

        FleetPlannerTest.Builder current = observe(config, room("c", 20, "v1.0"), room("d", 10, "v1.0"));
        assertThat(surging.plan(current.build()).scaling()).as("no older major: no surge").isEmpty();

        FleetPlannerTest.Builder atMax = observe(config(2, 4, ScalingSpec.NONE, ScalingSpec.NONE), room("a", 40, "v2.0"),
                room("b", 30, "v2.0"), room("c", 20, "v1.0"), room("d", 10, "v1.0"));
        atMax.replaceRunning = true;
        assertThat(surging.plan(atMax.build()).scaling()).as("capped at max").isEmpty();
    }
}
