package dev.hotspare.testkit;

import dev.hotspare.testkit.property.PublicApi;
import dev.hotspare.testkit.rollout.LeaderElectionContract;
import dev.hotspare.testkit.rollout.RolloutGenerators;
import dev.hotspare.testkit.servers.TestRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The public types of hotspare-testkit are the ones listed in src/test/resources/public-api.txt (see PublicApi). */
class PublicApiTest {

    static final Path CLASSES = Path.of("target", "classes");

    @Test
    void publicTypesAreTheListedOnes() {
        PublicApi.check("testkit", CLASSES);
    }

    @Test
    void listsPublicTopLevelAndReachableNestedTypesOutsideInternalPackagesOnly() {
        List<String> types = PublicApi.publicTypes(CLASSES);
        assertThat(types).contains("dev.hotspare.testkit.architecture.ModuleArchitecture",
                        RolloutGenerators.Scenario.class.getName(), TestRedis.Server.class.getName())
                .doesNotContain(LeaderElectionContract.class.getName() + "$Counting") // protected, not public
                .noneMatch(t -> t.contains(".internal.") || t.endsWith("package-info") || t.matches(".*\\$\\d.*"))
                .isSorted();
        assertThat(PublicApi.isNested(RolloutGenerators.Scenario.class.getName())).isTrue();
        assertThat(PublicApi.isNested(RolloutGenerators.class.getName())).isFalse();
    }

    @Test
    void failsNamingTheTypesToAddAndToRemoveAndHowToRewriteTheList(@TempDir Path dir) throws IOException {
        Path list = dir.resolve("public-api.txt");
        String unlisted = "dev.hotspare.testkit.architecture.ModuleArchitecture";
        List<String> actual = PublicApi.publicTypes(CLASSES);
        List<String> lines = new ArrayList<>(List.of("# listed types"));
        actual.stream().filter(t -> !t.equals(unlisted)).forEach(lines::add);
        lines.add("dev.hotspare.testkit.Gone");
        lines.add("dev.hotspare.testkit.Gone$Nested");
        Files.write(list, lines);
        assertThatThrownBy(() -> PublicApi.check("testkit", CLASSES, list)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("  + " + unlisted + " (top-level)")
                .hasMessageContaining("  - dev.hotspare.testkit.Gone (top-level)")
                .hasMessageContaining("  - dev.hotspare.testkit.Gone$Nested (nested: dev.hotspare.testkit.Gone.Nested)")
                .hasMessageContaining("-pl testkit -am test -Dtest=PublicApiTest")
                .hasMessageContaining("-Dhotspare.publicApi.write=true");
    }

    @Test
    void failsOnAnUnlistedPublicNestedType(@TempDir Path dir) throws IOException {
        Path list = dir.resolve("public-api.txt");
        String nested = RolloutGenerators.Scenario.class.getName();
        Files.write(list, PublicApi.publicTypes(CLASSES).stream().filter(t -> !t.equals(nested)).toList());
        assertThatThrownBy(() -> PublicApi.check("testkit", CLASSES, list)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("  + dev.hotspare.testkit.rollout.RolloutGenerators$Scenario "
                        + "(nested: dev.hotspare.testkit.rollout.RolloutGenerators.Scenario)")
                .hasMessageNotContaining("  - ");
    }

    @Test
    void passesOnTheSameTypesInAnyOrderWithComments(@TempDir Path dir) throws IOException {
        Path list = dir.resolve("public-api.txt");
        List<String> reversed = new ArrayList<>(PublicApi.publicTypes(CLASSES));
        Collections.reverse(reversed);
        reversed.add(0, "# a comment");
        reversed.add("");
        Files.write(list, reversed);
        PublicApi.check("testkit", CLASSES, list);
    }
}
