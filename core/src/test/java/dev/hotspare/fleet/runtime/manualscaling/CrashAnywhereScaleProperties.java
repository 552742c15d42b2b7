package dev.hotspare.fleet.runtime.manualscaling;

import dev.hotspare.fleet.plan.ScaleInputs;
import dev.hotspare.fleet.runtime.Fleet;
import dev.hotspare.testkit.property.Gen;
import dev.hotspare.testkit.property.Property;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static dev.hotspare.testkit.property.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Crash anywhere between saving a manual request's decision and saving its outcome: a second worker on the same
 * stores resumes it to the same room count as an uninterrupted run, and applies it once.
 */
class CrashAnywhereScaleProperties {

    record Case(int min, int max, int rooms, ScaleInputs.Kind kind, int amount, ScaleWorld.CrashPoint crash, int after) {
    }

    private static Gen<Case> cases() {
        return s -> {
            int min = Gen.integers(0, 3).generate(s);
            int max = Gen.integers(0, 1).generate(s) == 0 ? 0 : min + Gen.integers(0, 8).generate(s);
            int rooms = Gen.integers(min, max > 0 ? max : min + 8).generate(s);
            ScaleInputs.Kind kind = ScaleInputs.Kind.values()[Gen.integers(0, 2).generate(s)];
            int amount = Gen.integers(kind == ScaleInputs.Kind.REPLICAS ? 0 : 1, 8).generate(s);
            ScaleWorld.CrashPoint crash = ScaleWorld.CrashPoint.values()[Gen.integers(0, 2).generate(s)];
            return new Case(min, max, rooms, kind, amount, crash, Gen.integers(0, 6).generate(s));
        };
    }

    private static CompletableFuture<Integer> ask(Fleet fleet, ScaleInputs.Kind kind, int amount) {
        return switch (kind) {
            case UP -> fleet.operations().scaleUp("pong", amount);
            case DOWN -> fleet.operations().scaleDown("pong", amount);
            case REPLICAS -> fleet.operations().scaleTo("pong", amount);
        };
    }

    @Property
    void aCrashAnywhereResumesToTheSameRoomCountAndAppliesOnce() {
        forAll(cases()).tries(60).check(c -> {
            ScaleWorld plain = new ScaleWorld(c.min(), c.max(), c.rooms());
            Fleet alone = plain.fleet();
            CompletableFuture<Integer> expected = ask(alone, c.kind(), c.amount());
            plain.time.advanceBy(Duration.ofSeconds(30));
            alone.close();
            assertThat(expected).as(c + ": applied without a crash").isDone();

            ScaleWorld world = new ScaleWorld(c.min(), c.max(), c.rooms());
            Fleet first = world.crashingFleet(c.crash(), c.after());
            CompletableFuture<Integer> asked = ask(first, c.kind(), c.amount());
            world.time.runDueTasks();
            first.close();
            Fleet second = world.fleet();
            world.time.advanceBy(Duration.ofSeconds(30));

            assertThat(world.rooms()).as(c + ": the same room count as without the crash").hasSameSizeAs(plain.rooms());
            assertThat(asked).as(c + ": the same answer").isCompletedWithValue(expected.join());
            ScaleInputs inputs = world.schedulers.loadScaleInputs("pong").inputs();
            assertThat(inputs.idle()).as(c + ": nothing left to apply").isTrue();
            assertThat(inputs.outcomes()).as(c + ": one outcome").hasSize(1);
            world.time.advanceBy(Duration.ofMinutes(1));
            assertThat(world.rooms()).as(c + ": applied once").hasSameSizeAs(plain.rooms());
            second.close();
        });
    }
}
