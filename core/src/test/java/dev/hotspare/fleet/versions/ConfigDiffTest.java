package dev.hotspare.fleet.versions;

import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.versions.ConfigDiff.ChangeKind;
import dev.hotspare.fleet.versions.ConfigDiff.FieldChange;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ConfigDiffTest {

    static final String BASE = """
            name: pong-free-for-all
            game: pong
            image: pong/pong:v123
            occupiedTimeout: 300
            ports:
              - containerPort: 5050
                protocol: UDP
                name: gamebinary
            shutdownTimeout: 180
            autoscaling:
              min: 100
              max: 1000
            env:
              - name: EXAMPLE_ENV_VAR
                value: examplevalue
            """;

    private static ConfigDiff diff(String before, String after) {
        return ConfigDiff.between(ConfigDocument.of(before).tree(), ConfigDocument.of(after).tree());
    }

    @Test
    void aNewImageIsAMajorRelease() {
        ConfigDiff diff = diff(BASE, BASE.replace("pong/pong:v123", "pong/pong:v124"));

        assertThat(diff.kind()).isEqualTo(ChangeKind.MAJOR);
        assertThat(diff.changes()).extracting(FieldChange::describe)
                .containsExactly("~ image: \"pong/pong:v123\" -> \"pong/pong:v124\"");
    }

    @Test
    void everyRoomDefiningFieldMakesAMajorRelease() {
        assertThat(diff(BASE, BASE.replace("5050", "5051")).kind()).isEqualTo(ChangeKind.MAJOR);
        assertThat(diff(BASE, BASE.replace("examplevalue", "other")).kind()).isEqualTo(ChangeKind.MAJOR);
        assertThat(diff(BASE, BASE.replace("shutdownTimeout: 180", "shutdownTimeout: 60")).kind()).isEqualTo(ChangeKind.MAJOR);
        assertThat(diff(BASE, BASE + "affinity: node-affinity\n").kind()).isEqualTo(ChangeKind.MAJOR);
        assertThat(diff(BASE, BASE + "toleration: node-toleration\n").kind()).isEqualTo(ChangeKind.MAJOR);
        assertThat(diff(BASE, BASE + "cmd: [\"./room\"]\n").kind()).isEqualTo(ChangeKind.MAJOR);
        assertThat(diff(BASE, BASE + "requests:\n  cpu: 100m\n").kind()).isEqualTo(ChangeKind.MAJOR);
        assertThat(diff(BASE, BASE + "limits:\n  memory: 128Mi\n").kind()).isEqualTo(ChangeKind.MAJOR);
    }

    @Test
    void managementOnlyChangesAreMinorAndListEveryField() {
        ConfigDiff diff = diff(BASE, BASE.replace("min: 100", "min: 120").replace("occupiedTimeout: 300", "occupiedTimeout: 600")
                + "forwarders:\n  grpc:\n    matchmaking:\n      enabled: true\n");

        assertThat(diff.kind()).isEqualTo(ChangeKind.MINOR);
        assertThat(diff.changes()).extracting(FieldChange::path)
                .containsExactly("autoscaling.min", "forwarders", "occupiedTimeout");
        assertThat(diff.describe()).startsWith("minor (rooms are kept)").contains("+ forwarders: {\"grpc\"");
    }

    @Test
    void removedListElementsAndFieldsAreReported() {
        ConfigDiff diff = diff(BASE, BASE.replace("""
                env:
                  - name: EXAMPLE_ENV_VAR
                    value: examplevalue
                """, ""));

        assertThat(diff.changes()).extracting(FieldChange::describe)
                .containsExactly("- env: [{\"name\":\"EXAMPLE_ENV_VAR\",\"value\":\"examplevalue\"}]");
    }

    @Test
    void identicalConfigsWrittenDifferentlyHaveNoDifferences() {
        String json = ConfigDocument.of(BASE).json();
        ConfigDiff diff = diff(BASE, json.replace("\"shutdownTimeout\":180", "\"shutdownTimeout\":180.0,\"toleration\":null"));

        assertThat(diff.kind()).isEqualTo(ChangeKind.NONE);
        assertThat(diff.changes()).isEmpty();
        assertThat(diff.describe()).isEqualTo("none (no differences)");
    }
}
