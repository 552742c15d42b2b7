package dev.hotspare.fleet.versions;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.versions.ConfigDiff.ChangeKind;
import dev.hotspare.fleet.versions.ConfigDiff.FieldChange;
import dev.hotspare.testkit.property.Gen;
import dev.hotspare.testkit.property.Property;

import java.util.List;

import static dev.hotspare.testkit.property.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

class ConfigDiffProperties {

    private static final List<String> FIELDS = List.of("image", "ports", "requests", "limits", "cmd", "env", "affinity",
            "toleration", "shutdownTimeout", "game", "occupiedTimeout", "autoscaling", "forwarders", "enablePanicScale");

    /** Sets field to value (or removes it when value is null). */
    record Edit(String field, String value) {
    }

    Gen<Edit> edits() {
        Gen<String> values = Gen.oneOf(
                Gen.strings(Gen.ALPHA, 0, 5).map(s -> "\"" + s + "\""),
                Gen.integers(0, 5).map(String::valueOf),
                Gen.integers(0, 5).map(i -> "[" + i + "]"),
                Gen.integers(0, 5).map(i -> "{\"min\":" + i + "}"),
                Gen.just(null));
        return Gen.combine(Gen.of(FIELDS), values, Edit::new);
    }

    private static JsonNode apply(JsonNode base, List<Edit> edits) {
        ObjectNode copy = (ObjectNode) base.deepCopy();
        for (Edit edit : edits) {
            if (edit.value() == null) {
                copy.remove(edit.field());
            } else {
                copy.set(edit.field(), ConfigDocument.of("{\"v\":" + edit.value() + "}").tree().get("v"));
            }
        }
        return copy;
    }

    private static JsonNode base() {
        return ConfigDocument.of(ConfigDiffTest.BASE).tree();
    }

    @Property
    void theKindIsMajorExactlyWhenARoomDefiningFieldDiffers() {
        forAll(edits().list(0, 4)).check(edits -> {
            JsonNode before = base();
            JsonNode after = apply(before, edits);

            ConfigDiff diff = ConfigDiff.between(before, after);

            boolean roomFieldDiffers = ConfigDiff.ROOM_DEFINING_FIELDS.stream()
                    .anyMatch(f -> !java.util.Objects.equals(before.get(f), after.get(f)));
            boolean anyDiffers = !before.equals(after);
            assertThat(diff.kind()).isEqualTo(roomFieldDiffers ? ChangeKind.MAJOR : anyDiffers ? ChangeKind.MINOR : ChangeKind.NONE);
        });
    }

    @Property
    void diffIsSymmetricInPathsAndKindAndLeavesItsInputsAlone() {
        forAll(edits().list(0, 4)).check(edits -> {
            JsonNode before = base();
            JsonNode after = apply(before, edits);
            JsonNode beforeCopy = before.deepCopy();
            JsonNode afterCopy = after.deepCopy();

            ConfigDiff forward = ConfigDiff.between(before, after);
            ConfigDiff backward = ConfigDiff.between(after, before);

            assertThat(forward.kind()).isEqualTo(backward.kind());
            assertThat(forward.changes()).extracting(FieldChange::path).containsExactlyElementsOf(
                    backward.changes().stream().map(FieldChange::path).toList());
            for (int i = 0; i < forward.changes().size(); i++) {
                assertThat(forward.changes().get(i).before()).isEqualTo(backward.changes().get(i).after());
            }
            assertThat(before).isEqualTo(beforeCopy);
            assertThat(after).isEqualTo(afterCopy);
            assertThat(ConfigDiff.between(after, after).kind()).isEqualTo(ChangeKind.NONE);
        });
    }
}
