package dev.hotspare.testkit.rollout;

import dev.hotspare.rollout.Target;
import dev.hotspare.testkit.property.Property;

import java.util.HashSet;
import java.util.Set;

import static dev.hotspare.testkit.property.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/** The public rollout generators make valid specs over inventories of distinct targets. */
class RolloutGeneratorsProperties {

    @Property(tries = 500)
    void scenariosAreValidSpecsOverDistinctTargets() {
        forAll(RolloutGenerators.scenarios(true)).check(s -> {
            assertThat(s.spec().name()).isEqualTo("r1");
            Set<String> names = new HashSet<>();
            for (Target t : s.inventory().targets()) {
                assertThat(names.add(t.kind() + "/" + t.name())).as("target %s listed once", t).isTrue();
            }
            assertThat(s.inventory().targets()).hasSizeLessThanOrEqualTo(13);
        });
    }
}
