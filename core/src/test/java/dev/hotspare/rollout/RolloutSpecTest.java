package dev.hotspare.rollout;

import dev.hotspare.json.Documents;
import dev.hotspare.rollout.RolloutSpec.DeviceStrategy;
import dev.hotspare.rollout.RolloutSpec.LabelSelector;
import dev.hotspare.rollout.RolloutSpec.MaintenanceWindow;
import dev.hotspare.rollout.RolloutSpec.MaxParallel;
import dev.hotspare.rollout.RolloutSpec.OpTimeouts;
import dev.hotspare.rollout.RolloutSpec.RetryPolicy;
import dev.hotspare.rollout.RolloutSpec.UnmatchedDevices;
import dev.hotspare.rollout.Target.TargetKind;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class RolloutSpecTest {

    @Test
    void minimalJsonTakesEveryDefault() {
        RolloutSpec spec = Documents.read("{\"name\": \"r1\", \"targetVersion\": \"2.0\"}", Documents.Format.JSON, RolloutSpec.class);
        assertThat(spec).isEqualTo(RolloutSpec.builder("r1", "2.0").build());
        assertThat(spec.upgradeControlPlane()).isTrue();
        assertThat(spec.strategy()).isEqualTo(DeviceStrategy.LINEAR);
        assertThat(spec.maxParallel()).isEqualTo(MaxParallel.of(2));
        assertThat(spec.unmatchedDevices()).isEqualTo(UnmatchedDevices.UPGRADE_LAST);
        assertThat(spec.timeouts()).isEqualTo(OpTimeouts.defaults());
        assertThat(spec.retry()).isEqualTo(RetryPolicy.none());
        assertThat(spec.window()).isEmpty();
        assertThat(spec.maxFailures()).isZero();
        assertThat(spec.prechecks()).isFalse();
    }

    @Test
    void fullYamlRoundTrips() {
        String yaml = """
                name: edge-2026-01
                targetVersion: 2.1.0
                upgradeControlPlane: false
                deviceOrder:
                  - matchLabels: {tier: canary}
                  - matchLabels: {tier: edge, zone: eu}
                unmatchedDevices: SKIP
                strategy: EXPONENTIAL
                maxParallel: 8
                prechecks: true
                timeouts: {device: PT5M}
                maxFailures: 3
                window: {start: 2026-01-01T22:00:00Z, end: 2026-01-02T04:00:00Z}
                retry: {attempts: 3, delay: PT2M}
                """;
        RolloutSpec spec = Documents.read(yaml, Documents.Format.YAML, RolloutSpec.class);
        assertThat(spec.deviceOrder()).containsExactly(LabelSelector.of("tier", "canary"),
                LabelSelector.matchLabels(Map.of("tier", "edge", "zone", "eu")));
        assertThat(spec.timeouts()).isEqualTo(new OpTimeouts(OpTimeouts.DEFAULT_NODE, OpTimeouts.DEFAULT_SERVICES, Duration.ofMinutes(5)));
        assertThat(spec.window()).contains(MaintenanceWindow.between(Instant.parse("2026-01-01T22:00:00Z"), Instant.parse("2026-01-02T04:00:00Z")));
        assertThat(spec.retry()).isEqualTo(new RetryPolicy(3, Duration.ofMinutes(2)));
        RolloutSpec again = Documents.read(Documents.toJson(spec), Documents.Format.JSON, RolloutSpec.class);
        assertThat(again).isEqualTo(spec);
    }

    @Test
    void everyProblemIsReportedWithItsPathAndValue() {
        String json = """
                {"name": "Bad_Name", "targetVersion": "", "maxParallel": 0, "maxFailures": -1,
                 "deviceOrder": [{"matchLabels": {}}, {"matchLabels": {"tier": "a"}}, {"matchLabels": {"tier": "a"}}],
                 "timeouts": {"node": "PT0S"},
                 "window": {"start": "2026-01-02T00:00:00Z", "end": "2026-01-01T00:00:00Z"},
                 "retry": {"attempts": 0, "delay": "-PT1M"}}
                """;
        ValidationException e = catchThrowableOfType(ValidationException.class,
                () -> Documents.read(json, Documents.Format.JSON, RolloutSpec.class));
        assertThat(e.problems()).extracting(Problem::path).containsExactlyInAnyOrder(
                "name", "targetVersion", "deviceOrder[0]", "deviceOrder[2]", "maxParallel",
                "timeouts.node", "maxFailures", "window.end", "retry.attempts", "retry.delay");
        assertThat(e.problems()).anySatisfy(p -> {
            assertThat(p.path()).isEqualTo("name");
            assertThat(p.value()).isEqualTo("Bad_Name");
        });
    }

    @Test
    void unknownFieldsAreRejectedWithASuggestion() {
        ValidationException e = catchThrowableOfType(ValidationException.class, () -> Documents.read(
                "{\"name\": \"r1\", \"targetVersion\": \"2\", \"maxParalel\": 3}", Documents.Format.JSON, RolloutSpec.class));
        assertThat(e.problems()).singleElement().satisfies(p -> assertThat(p.message()).contains("maxParallel"));
    }

    @Test
    void missingRequiredFieldsAreNamed() {
        ValidationException e = catchThrowableOfType(ValidationException.class,
                () -> Documents.read("{}", Documents.Format.JSON, RolloutSpec.class));
        assertThat(e.problems()).extracting(Problem::path).containsExactlyInAnyOrder("name", "targetVersion");
    }

    @Test
    void inventoryValidationCollectsEveryProblem() {
        assertThatThrownBy(() -> new Inventory(List.of(
                new Target(TargetKind.NODE, "node-1", Map.of(), "1.0"),
                new Target(TargetKind.NODE, "node-1", Map.of(), "1.0"),
                new Target(TargetKind.SERVICES, "svc", Map.of(), "1.0"),
                new Target(TargetKind.DEVICE, "Dev 1", Map.of("bad key!", "x"), null))))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.problems()).extracting(Problem::path)
                        .containsExactlyInAnyOrder("targets[1].name", "targets[2].kind", "targets[3].name",
                                "targets[3].labels", "targets[3].version"));
    }

    @Test
    void inventoryReadsFromJson() {
        Inventory inv = Documents.read("""
                {"targets": [{"kind": "NODE", "name": "n1", "version": "1"},
                             {"kind": "DEVICE", "name": "d1", "labels": {"tier": "edge"}, "version": "1"}]}
                """, Documents.Format.JSON, Inventory.class);
        assertThat(inv.ofKind(TargetKind.DEVICE)).singleElement().satisfies(t -> assertThat(t.labels()).containsEntry("tier", "edge"));
        assertThat(inv.find(TargetRef.node("n1"))).isPresent();
        assertThat(inv.find(TargetRef.node("zz"))).isEqualTo(Optional.empty());
    }
}
