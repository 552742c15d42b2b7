package dev.hotspare.fleet;

import dev.hotspare.json.Documents;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

class SchedulerConfigTest {

    static String resource(String name) {
        try (InputStream in = SchedulerConfigTest.class.getResourceAsStream("/fleet/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void documentationExampleYamlParsesAndValidates() {
        SchedulerConfig c = SchedulerConfigs.parse(resource("maestro-example.yaml"), Documents.Format.YAML);

        assertThat(c.name()).isEqualTo("pong-free-for-all");
        assertThat(c.game()).isEqualTo("pong");
        assertThat(c.image()).isEqualTo("pong/pong:v123");
        assertThat(c.affinity()).contains("node-affinity");
        assertThat(c.toleration()).contains("node-toleration");
        assertThat(c.occupiedTimeout()).contains(180L);
        assertThat(c.ports()).containsExactly(new Port(5050, Port.Protocol.UDP, "gamebinary"),
                new Port(8888, Port.Protocol.TCP, "websocket"));
        assertThat(c.requests().memory()).contains(Quantity.parse("1Gi"));
        assertThat(c.requests().cpu().orElseThrow().value()).isEqualByComparingTo("1");
        assertThat(c.limits().memory().orElseThrow().value()).isEqualByComparingTo("134217728");
        assertThat(c.shutdownTimeout()).contains(180L);
        Autoscaling a = c.autoscaling();
        assertThat(a.min()).isEqualTo(100);
        assertThat(a.max()).isEqualTo(1000);
        assertThat(a.enablePanicScale()).isFalse();
        assertThat(a.up().triggers()).containsExactly(MetricsTrigger.of("room", 70, 80, 600));
        assertThat(a.up().cooldown()).isEqualTo(300);
        assertThat(a.down().triggers()).containsExactly(MetricsTrigger.of("cpu", 50, 80, 900));
        assertThat(c.env()).extracting(EnvVar::name).containsExactly("EXAMPLE_ENV_VAR", "ANOTHER_ENV_VAR");
        assertThat(c.cmd()).containsExactly("./room-binary", "-serverType", "6a8e136b-2dc1-417e-bbe8-0f0a2d2df431");
        ForwarderConfig mm = c.forwarders().get("grpc").get("matchmaking");
        assertThat(mm.enabled()).isTrue();
        assertThat(mm.forwardsResponse()).isTrue();
        assertThat(mm.metadata()).containsEntry("matchmakingScript", "default")
                .containsEntry("tags", Map.of("score", "score"));
        assertThat(c.validate()).isEmpty();
    }

    @Test
    void createRouteJsonBodyParsesAndValidatesWithTheOlderTriggerForm() {
        SchedulerConfig c = SchedulerConfigs.parse(resource("maestro-create.json"), Documents.Format.JSON);

        assertThat(c.name()).isEqualTo("room-name");
        assertThat(c.autoscaling().max()).isZero();
        assertThat(c.autoscaling().up().triggers()).containsExactly(
                new MetricsTrigger("legacy", 70, 80, 600, Optional.empty(), Optional.of(10)));
        assertThat(c.autoscaling().down().triggers()).containsExactly(
                new MetricsTrigger("legacy", 50, 80, 900, Optional.empty(), Optional.of(2)));
        assertThat(c.requests()).isEqualTo(Resources.NONE);
    }

    @Test
    void yamlAndJsonRoundTrip() {
        SchedulerConfig c = SchedulerConfigs.parse(resource("maestro-example.yaml"), Documents.Format.YAML);
        assertThat(SchedulerConfigs.parse(c.toYaml(), Documents.Format.YAML)).isEqualTo(c);
        assertThat(SchedulerConfigs.parse(c.toJson(), Documents.Format.JSON)).isEqualTo(c);
        SchedulerConfig legacy = SchedulerConfigs.parse(resource("maestro-create.json"), Documents.Format.JSON);
        assertThat(SchedulerConfigs.parse(legacy.toYaml(), Documents.Format.YAML)).isEqualTo(legacy);
    }

    @Test
    void plantedMistakesAreAllReportedWithPathsAndValues() {
        SchedulerConfigs.Check check = SchedulerConfigs.check(resource("planted-mistakes.yaml"),
                Documents.Format.YAML, TriggerTypes.BUILT_IN);

        assertThat(check.isValid()).isFalse();
        assertThat(check.problems()).extracting(Problem::path, Problem::value).containsExactlyInAnyOrder(
                tuple("name", "Pong_Free"),
                tuple("occupiedTimout", "occupiedTimout"),
                tuple("ports[0].containerPort", "70000"),
                tuple("ports[0].protocol", "SCTP"),
                tuple("ports[1].name", "game"),
                tuple("limits.memory", "12 8Mi"),
                tuple("autoscaling.max", "5"),
                tuple("autoscaling.up.metricsTrigger[0].threshold", "120"),
                tuple("autoscaling.up.metricsTrigger[0].limit", "70"),
                tuple("autoscaling.up.metricsTrigger[1].type", "cpu"),
                tuple("autoscaling.up.cooldown", "-5"),
                tuple("autoscaling.down.metricsTrigger[0].type", "memory"));
        assertThat(check.problems()).filteredOn(p -> p.path().equals("occupiedTimout"))
                .singleElement().extracting(Problem::message).asString().contains("did you mean 'occupiedTimeout'?");
        assertThat(check.problems()).filteredOn(p -> p.path().equals("autoscaling.down.metricsTrigger[0].type"))
                .singleElement().extracting(Problem::message).asString()
                .contains("did you mean 'mem'?").contains("known types: cpu, legacy, mem, room");
        assertThat(check.problems()).filteredOn(p -> p.path().equals("ports[0].protocol"))
                .singleElement().extracting(Problem::message).asString().contains("TCP, UDP");
    }

    @Test
    void parseThrowsEveryProblemAtOnce() {
        assertThatThrownBy(() -> SchedulerConfigs.parse(resource("planted-mistakes.yaml"), Documents.Format.YAML))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.problems()).hasSize(12));
    }

    @Test
    void missingRequiredFieldsAndWrongTypesAreReportedOnce() {
        String yaml = """
                game: pong
                ports: 5050
                autoscaling:
                  min: many
                  up:
                    metricsTrigger:
                      - type: room
                        threshold: 80
                        time: 60
                """;
        List<Problem> problems = SchedulerConfigs.check(yaml, Documents.Format.YAML, TriggerTypes.BUILT_IN).problems();
        assertThat(problems).extracting(Problem::path, Problem::value).containsExactlyInAnyOrder(
                tuple("ports", "5050"),
                tuple("autoscaling.min", "many"),
                tuple("autoscaling.up.metricsTrigger[0].usage", Problem.MISSING),
                tuple("name", Problem.MISSING),
                tuple("image", Problem.MISSING));
    }

    @Test
    void unknownTriggerTypeSuggestsCloseName() {
        SchedulerConfig c = SchedulerConfig.of("s", "g", "i", new Autoscaling(0, 0,
                ScalingSpec.of(0, MetricsTrigger.of("rooom", 70, 80, 60)), ScalingSpec.NONE, false));
        assertThat(c.validate()).singleElement().satisfies(p -> {
            assertThat(p.path()).isEqualTo("autoscaling.up.metricsTrigger[0].type");
            assertThat(p.message()).contains("did you mean 'room'?").contains("known types: cpu, legacy, mem, room");
        });
        assertThat(c.validate(Set.of("rooom"))).isEmpty();
    }

    @Test
    void ruleByRule() {
        Autoscaling ok = new Autoscaling(1, 0, ScalingSpec.of(0, MetricsTrigger.of("room", 70, 80, 60)),
                ScalingSpec.of(0, MetricsTrigger.of("room", 30, 80, 60)), false);
        SchedulerConfig base = SchedulerConfig.of("pong", "g", "img", ok);
        assertThat(base.validate()).isEmpty();

        assertThat(paths(base.withAutoscaling(new Autoscaling(-1, 0, ScalingSpec.NONE, ScalingSpec.NONE, false))))
                .containsExactly("autoscaling.min");
        assertThat(paths(base.withAutoscaling(new Autoscaling(0, -1, ScalingSpec.NONE, ScalingSpec.NONE, false))))
                .containsExactly("autoscaling.max");
        assertThat(paths(base.withAutoscaling(new Autoscaling(5, 0, ScalingSpec.NONE, ScalingSpec.NONE, false))))
                .as("max 0 is unbounded").isEmpty();
        assertThat(paths(base.withAutoscaling(new Autoscaling(0, 0,
                ScalingSpec.of(0, MetricsTrigger.of("room", 0, 0, -1)), ScalingSpec.NONE, false))))
                .containsExactly("autoscaling.up.metricsTrigger[0].usage", "autoscaling.up.metricsTrigger[0].threshold",
                        "autoscaling.up.metricsTrigger[0].time");
        assertThat(paths(base.withAutoscaling(new Autoscaling(0, 0,
                ScalingSpec.of(0, MetricsTrigger.of("room", 70, 80, 0).withLimit(101)), ScalingSpec.NONE, false))))
                .containsExactly("autoscaling.up.metricsTrigger[0].limit");
        assertThat(paths(base.withAutoscaling(new Autoscaling(0, 0, ScalingSpec.NONE,
                ScalingSpec.of(0, MetricsTrigger.of("room", 30, 80, 0).withLimit(90)), false))))
                .as("limit on a down trigger").containsExactly("autoscaling.down.metricsTrigger[0].limit");
        assertThat(paths(base.withAutoscaling(new Autoscaling(0, 0,
                ScalingSpec.of(0, MetricsTrigger.of("legacy", 70, 80, 0)), ScalingSpec.NONE, false))))
                .containsExactly("autoscaling.up.metricsTrigger[0].delta");
        assertThat(paths(base.withAutoscaling(new Autoscaling(0, 0,
                ScalingSpec.of(0, MetricsTrigger.of("mem", 70, 80, 0)), ScalingSpec.NONE, false))))
                .containsExactly("autoscaling.up.metricsTrigger[0].type");
        assertThat(paths(base.withAutoscaling(new Autoscaling(0, 0,
                ScalingSpec.of(0, MetricsTrigger.of("mem", 70, 80, 0)), ScalingSpec.NONE, false))
                .withRequests(new Resources(Optional.empty(), Optional.of(Quantity.parse("1Gi"))))))
                .isEmpty();
        assertThat(paths(SchedulerConfig.of("a".repeat(64), "g", "i", ok))).containsExactly("name");
        assertThat(paths(base.withOccupiedTimeout(0))).containsExactly("occupiedTimeout");
    }

    @Test
    void unknownNestedFieldSuggestsTheRightName() {
        String yaml = """
                name: pong
                game: pong
                image: img
                autoscaling:
                  up:
                    metricsTriger: []
                    coldown: 10
                """;
        assertThat(SchedulerConfigs.check(yaml, Documents.Format.YAML, TriggerTypes.BUILT_IN).problems())
                .extracting(Problem::path, Problem::message).containsExactly(
                        tuple("autoscaling.up.metricsTriger", "unknown field; did you mean 'metricsTrigger'?"),
                        tuple("autoscaling.up.coldown", "unknown field; did you mean 'cooldown'?"));
    }

    @Test
    void syntaxErrorsAndEmptyDocumentsAreProblemsNotExceptions() {
        assertThat(SchedulerConfigs.check("{\"name\": ", Documents.Format.JSON, TriggerTypes.BUILT_IN).problems())
                .singleElement().extracting(Problem::message).asString().startsWith("malformed document");
        assertThat(SchedulerConfigs.check("", Documents.Format.YAML, TriggerTypes.BUILT_IN).problems()).hasSize(1);
        assertThat(SchedulerConfigs.check("- a\n- b\n", Documents.Format.YAML, TriggerTypes.BUILT_IN).problems())
                .singleElement().extracting(Problem::path).isEqualTo("");
    }

    private static List<String> paths(SchedulerConfig c) {
        return c.validate().stream().map(Problem::path).toList();
    }
}
