package dev.hotspare.fleet;

import dev.hotspare.fleet.PolicyTypes.PolicyParameter;
import dev.hotspare.fleet.PolicyTypes.PolicyType;
import dev.hotspare.fleet.PolicyTypes.TriggerTypes;
import dev.hotspare.fleet.SchedulerConfig.Autoscaling;
import dev.hotspare.fleet.SchedulerConfig.EnvVar;
import dev.hotspare.fleet.SchedulerConfig.ForwarderConfig;
import dev.hotspare.fleet.SchedulerConfig.MaxSurge;
import dev.hotspare.fleet.SchedulerConfig.MetricsTrigger;
import dev.hotspare.fleet.SchedulerConfig.PolicySpec;
import dev.hotspare.fleet.SchedulerConfig.Port;
import dev.hotspare.fleet.SchedulerConfig.Quantity;
import dev.hotspare.fleet.SchedulerConfig.Resources;
import dev.hotspare.fleet.SchedulerConfig.ScalingSpec;
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
        // Maestro 9.6.1 reads the older {delta, trigger} form as one room trigger: its delta is not used.
        assertThat(c.autoscaling().up().triggers()).containsExactly(MetricsTrigger.of("room", 70, 80, 600));
        assertThat(c.autoscaling().down().triggers()).containsExactly(MetricsTrigger.of("room", 50, 80, 900));
        assertThat(c.autoscaling().up().delta()).as("kept as written").contains(10);
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
    void theOlderFormNeedsNoDeltaButAnExplicitLegacyTriggerDoes() {
        String yaml = """
                name: pong
                game: pong
                image: pong:1
                autoscaling:
                  min: 1
                  up:
                    delta: 3
                    trigger: {usage: 70, time: 60, threshold: 80}
                    cooldown: 30
                  down:
                    trigger: {usage: 30, time: 120, threshold: 80}
                    cooldown: 60
                """;
        SchedulerConfig c = SchedulerConfigs.parse(yaml, Documents.Format.YAML);
        assertThat(c.autoscaling().down().triggers()).containsExactly(MetricsTrigger.of("room", 30, 80, 120));
        assertThat(SchedulerConfigs.check(yaml.replace("delta: 3", "delta: 0"), Documents.Format.YAML, TriggerTypes.BUILT_IN)
                .problems()).extracting(Problem::path, Problem::value).containsExactly(tuple("autoscaling.up.delta", "0"));
    }

    @Test
    void policyParametersAreTypedAndEveryBadOneIsNamedWithItsPath() {
        String yaml = """
                name: pong
                game: pong
                image: pong:1
                autoscaling:
                  min: 1
                  max: 100
                  policy:
                    type: roomOccupancy
                    parameters:
                      readyTarget: 1.5
                      downTreshold: 0.5
                      maxMatchesPerRoom: 2.5
                """;
        List<Problem> problems = SchedulerConfigs.check(yaml, Documents.Format.YAML, PolicyTypes.BUILT_IN).problems();
        assertThat(problems).extracting(Problem::path, Problem::value).containsExactly(
                tuple("autoscaling.policy.parameters.downTreshold", "downTreshold"),
                tuple("autoscaling.policy.parameters.readyTarget", "1.5"),
                tuple("autoscaling.policy.parameters.maxMatchesPerRoom", "2.5"));
        assertThat(problems.get(0).message()).contains("did you mean 'downThreshold'?");
        assertThat(problems.get(1).message()).isEqualTo("must be a number greater than 0 and less than 1");
        assertThat(problems.get(2).message()).isEqualTo("expected a whole number");

        SchedulerConfig ok = SchedulerConfigs.parse(yaml.replace("1.5", "0.9").replace("downTreshold", "downThreshold")
                .replace("2.5", "4"), Documents.Format.YAML);
        assertThat(ok.autoscaling().policy().orElseThrow().parameters())
                .containsEntry("readyTarget", 0.9).containsEntry("maxMatchesPerRoom", 4);

        assertThat(SchedulerConfigs.check(yaml.replace("      readyTarget: 1.5\n", ""), Documents.Format.YAML,
                PolicyTypes.BUILT_IN).problems()).extracting(Problem::path).contains("autoscaling.policy.parameters.readyTarget");
    }

    @Test
    void maestroTenNestedParametersAndPolicyMistakes() {
        String nested = """
                name: pong
                game: pong
                image: pong:1
                autoscaling:
                  min: 1
                  policy:
                    type: fixedBuffer
                    parameters:
                      fixedBuffer: {amount: 5}
                """;
        SchedulerConfig c = SchedulerConfigs.parse(nested, Documents.Format.YAML);
        assertThat(c.autoscaling().policy()).contains(PolicySpec.of("fixedBuffer", Map.of("amount", 5)));
        assertThat(SchedulerConfigs.parse(c.toYaml(), Documents.Format.YAML)).as("round trip").isEqualTo(c);
        assertThat(SchedulerConfigs.parse(c.toJson(), Documents.Format.JSON)).isEqualTo(c);

        assertThat(paths(c.withAutoscaling(Autoscaling.byPolicy(0, 0, PolicySpec.of("roomOccupancy", Map.of())))))
                .containsExactly("autoscaling.policy.parameters.readyTarget");
        List<Problem> unknown = c.withAutoscaling(Autoscaling.byPolicy(0, 0, PolicySpec.of("fixedbuffer", Map.of("amount", 1))))
                .validate();
        assertThat(unknown).extracting(Problem::path).containsExactly("autoscaling.policy.type");
        assertThat(unknown.get(0).message()).contains("did you mean 'fixedBuffer'?");
        assertThat(c.withAutoscaling(Autoscaling.byPolicy(0, 0, PolicySpec.of("room", Map.of()))).validate())
                .extracting(Problem::message).containsExactly("'room' is a trigger type: name it in autoscaling.up / down "
                        + "metricsTrigger; policies: fixedBuffer, roomOccupancy");
        Autoscaling both = new Autoscaling(0, 0, ScalingSpec.of(0, MetricsTrigger.of("room", 70, 80, 60)), ScalingSpec.NONE, false,
                Optional.of(PolicySpec.of("fixedBuffer", Map.of("amount", 1))));
        assertThat(paths(c.withAutoscaling(both))).containsExactly("autoscaling.policy");
        Autoscaling asTrigger = new Autoscaling(0, 0, ScalingSpec.of(0, MetricsTrigger.of("fixedBuffer", 70, 80, 60)),
                ScalingSpec.NONE, false);
        assertThat(c.withAutoscaling(asTrigger).validate()).extracting(Problem::path, Problem::message).containsExactly(
                tuple("autoscaling.up.metricsTrigger[0].type", "'fixedBuffer' is a policy, not a trigger type: name it in "
                        + "autoscaling.policy.type; trigger types: cpu, legacy, mem, room"));
    }

    @Test
    void aPlugInDeclaresItsTriggerParametersAndTheyAreChecked() {
        PolicyType queue = new PolicyType("queue", PolicyType.Kind.TRIGGER, List.of(
                PolicyParameter.whole("depth", "queued players per room").atLeast(1).atMost(50),
                PolicyParameter.decimal("weight", "how much a queued player counts").above(java.math.BigDecimal.ZERO)
                        .withDefault(java.math.BigDecimal.ONE)), true,
                (values, path) -> values.decimal("weight").compareTo(java.math.BigDecimal.TEN) > 0
                        ? List.of(Problem.of(path + ".weight", values.decimal("weight"), "must not exceed 10 with depth "
                        + values.whole("depth"))) : List.of());
        PolicyTypes types = PolicyTypes.of(List.of(queue));
        MetricsTrigger trigger = MetricsTrigger.of("queue", 50, 50, 60);
        SchedulerConfig base = SchedulerConfig.of("pong", "g", "img", new Autoscaling(0, 0,
                ScalingSpec.of(0, trigger.withParameters(Map.of("depth", 5))), ScalingSpec.NONE, false));
        assertThat(base.validate(types)).isEmpty();
        assertThat(base.withAutoscaling(new Autoscaling(0, 0, ScalingSpec.of(0, trigger.withParameters(Map.of("depth", 0, "colour", "x"))),
                ScalingSpec.NONE, false)).validate(types)).extracting(Problem::path, Problem::value).containsExactly(
                tuple("autoscaling.up.metricsTrigger[0].parameters.colour", "colour"),
                tuple("autoscaling.up.metricsTrigger[0].parameters.depth", "0"));
        assertThat(base.withAutoscaling(new Autoscaling(0, 0, ScalingSpec.of(0, trigger.withParameters(Map.of("depth", 5, "weight", 11))),
                ScalingSpec.NONE, false)).validate(types)).extracting(Problem::describe)
                .containsExactly("autoscaling.up.metricsTrigger[0].parameters.weight: bad value '11': must not exceed 10 with depth 5");
    }

    @Test
    void maxSurgeIsAPercentageOrANumberOfRooms() {
        SchedulerConfig base = SchedulerConfig.of("pong", "g", "img", Autoscaling.NONE);
        assertThat(base.maxSurgeValue()).isEqualTo(MaxSurge.DEFAULT);
        assertThat(base.withMaxSurge(MaxSurge.percent(10)).maxSurgeValue()).isEqualTo(MaxSurge.percent(10));
        assertThat(SchedulerConfigs.parse("name: p\ngame: g\nimage: i\nmaxSurge: \"3\"\n", Documents.Format.YAML)
                .maxSurgeValue()).isEqualTo(MaxSurge.rooms(3));
        assertThat(SchedulerConfigs.check("name: p\ngame: g\nimage: i\nmaxSurge: 150%\n", Documents.Format.YAML,
                TriggerTypes.BUILT_IN).problems()).extracting(Problem::path, Problem::value).containsExactly(tuple("maxSurge", "150%"));
    }

    @Test
    void webhookForwarderSettingsAreChecked() {
        String yaml = """
                name: pong
                game: pong
                image: pong:1
                forwarders:
                  webhook:
                    matchmaker:
                      enabled: true
                      url: ftp://matchmaker.example/events
                      timeout: 0
                      retries: 11
                      headers:
                        Authorization: Bearer abc
                        Bad Header: x
                        Host: other
                    audit:
                      enabled: true
                """;
        List<Problem> problems = SchedulerConfigs.check(yaml, Documents.Format.YAML, TriggerTypes.BUILT_IN).problems();
        assertThat(problems).extracting(Problem::path).containsExactlyInAnyOrder(
                "forwarders.webhook.matchmaker.url", "forwarders.webhook.matchmaker.timeout",
                "forwarders.webhook.matchmaker.retries", "forwarders.webhook.matchmaker.headers.Bad Header",
                "forwarders.webhook.matchmaker.headers.Host", "forwarders.webhook.audit.url");
        assertThat(problems).noneMatch(p -> p.value().contains("Bearer"));
        SchedulerConfig ok = SchedulerConfigs.parse(yaml.replace("ftp:", "https:").replace("timeout: 0", "timeout: 2")
                .replace("retries: 11", "retries: 2").replace("        Bad Header: x\n", "").replace("        Host: other\n", "")
                .replace("    audit:\n      enabled: true\n", ""), Documents.Format.YAML);
        ForwarderConfig webhook = ok.forwarders().get("webhook").get("matchmaker");
        assertThat(webhook.url()).contains("https://matchmaker.example/events");
        assertThat(webhook.timeout()).contains(2L);
        assertThat(webhook.headers()).containsExactly(Map.entry("Authorization", "Bearer abc"));
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
