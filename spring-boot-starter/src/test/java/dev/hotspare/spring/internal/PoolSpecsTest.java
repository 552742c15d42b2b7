package dev.hotspare.spring.internal;

import dev.hotspare.json.Documents;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.spring.HotspareConfigurationException;
import dev.hotspare.validation.Problem;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Pool properties to specs: relaxed names, nested fields, the spec's own reading and messages. */
class PoolSpecsTest {

    @Test
    void everyRelaxedFormOfAFieldNameReachesTheSpecsField() {
        for (String key : List.of("running-count", "runningCount", "running_count", "RUNNING_COUNT", "runningcount")) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("size", "3");
            fields.put(key, "2");
            assertThat(PoolSpecs.read(Map.of("ci", fields)).get("ci").runningCount()).as(key).isEqualTo(2);
        }
    }

    @Test
    void yamlValuesAndPropertiesStringsGiveTheSameSpecAsTheSameSpecFile() {
        Map<String, Object> yaml = Map.of("size", 3, "max-size", 5, "claim-lifetime", Map.of("default", "PT1H"));
        Map<String, Object> properties = Map.of("size", "3", "max-size", "5", "claim-lifetime", Map.of("default", "PT1H"));
        PoolSpec file = Documents.read("""
                name: ci
                size: 3
                maxSize: 5
                claimLifetime: {default: PT1H}
                """, Documents.Format.YAML, PoolSpec.class);
        assertThat(PoolSpecs.read(Map.of("ci", yaml)).get("ci")).isEqualTo(file);
        assertThat(PoolSpecs.read(Map.of("ci", properties)).get("ci")).isEqualTo(file);
        assertThat(file.claimLifetime().defaultLifetime()).hasValue(Duration.ofHours(1));
    }

    /** The messages are those the spec file reading gives, at the property instead of the field. */
    @Test
    void problemsAreTheSpecFilesProblemsAtTheirProperties() {
        List<Problem> fromFile = List.of();
        try {
            Documents.read("name: ci\nsize: 1\nclaimLifetime: {maxium: PT1H}\n", Documents.Format.YAML, PoolSpec.class);
        } catch (dev.hotspare.validation.ValidationException e) {
            fromFile = e.problems();
        }
        assertThat(fromFile).hasSize(1);
        Problem expected = fromFile.get(0);
        assertThatThrownBy(() -> PoolSpecs.read(Map.of("ci", Map.of("size", "1", "claim-lifetime", Map.of("maxium", "PT1H")))))
                .isInstanceOfSatisfying(HotspareConfigurationException.class, e -> assertThat(e.problems()).containsExactly(
                        new Problem("hotspare.pools.ci." + PoolSpecs.kebab(expected.path()), expected.value(), expected.message())));
    }

    @Test
    void namesAreTranslatedBothWays() {
        assertThat(PoolSpecs.camel("claim-lifetime")).isEqualTo("claimLifetime");
        assertThat(PoolSpecs.camel("hibernate_after")).isEqualTo("hibernateAfter");
        assertThat(PoolSpecs.camel("size")).isEqualTo("size");
        assertThat(PoolSpecs.kebab("claimLifetime.default")).isEqualTo("claim-lifetime.default");
        assertThat(PoolSpecs.kebab("maxConcurrent")).isEqualTo("max-concurrent");
    }

    @Test
    void noPoolsGiveNoSpecs() {
        assertThat(PoolSpecs.read(Map.of())).isEmpty();
    }

    @Test
    void autoSizingReadsFromRelaxedPropertiesAsFromASpecFile() {
        Map<String, Object> sizing = new LinkedHashMap<>();
        sizing.put("target-wait", "p95 <= 30s");
        sizing.put("max", "6");
        sizing.put("max-step", "3");
        sizing.put("apply", "false");
        sizing.put("overrides", List.of("Mon-Fri 08:50-17:00 runningCount >= 4"));
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("size", "8");
        fields.put("running-count", "auto");
        fields.put("auto-sizing", sizing);
        PoolSpec file = Documents.read("""
                name: ci
                size: 8
                runningCount: auto
                autoSizing:
                  targetWait: p95 <= 30s
                  max: 6
                  maxStep: 3
                  apply: false
                  overrides: ["Mon-Fri 08:50-17:00 runningCount >= 4"]
                """, Documents.Format.YAML, PoolSpec.class);
        assertThat(file.autoSizing()).isPresent();
        assertThat(PoolSpecs.read(Map.of("ci", fields)).get("ci")).isEqualTo(file);
    }

    @Test
    void aBadAutoSizingPropertyIsReportedAtItsProperty() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("size", "8");
        fields.put("auto-sizing", new LinkedHashMap<>(Map.of("target-wait", "soon", "max", "4")));
        assertThatThrownBy(() -> PoolSpecs.read(Map.of("ci", fields)))
                .hasMessageContaining("hotspare.pools.ci.auto-sizing.target-wait: bad value 'soon': expected a wait target");
    }
}
