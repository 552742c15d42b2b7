package dev.hotspare.fleet.versions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hotspare.fleet.ConfigDocument;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ConfigDiffProperties {

    private static final List<String> FIELDS = List.of("image", "ports", "requests", "limits", "cmd", "env", "affinity",
            "toleration", "shutdownTimeout", "game", "occupiedTimeout", "autoscaling", "forwarders", "enablePanicScale");

    /** Sets field to value (or removes it when value is null). */
    record Edit(String field, String value) {
    }

    @Provide
    Arbitrary<Edit> edits() {
        Arbitrary<String> values = Arbitraries.oneOf(
                Arbitraries.strings().alpha().ofMaxLength(5).map(s -> "\"" + s + "\""),
                Arbitraries.integers().between(0, 5).map(String::valueOf),
                Arbitraries.integers().between(0, 5).map(i -> "[" + i + "]"),
                Arbitraries.integers().between(0, 5).map(i -> "{\"min\":" + i + "}"),
                Arbitraries.just(null));
        return Combinators.combine(Arbitraries.of(FIELDS), values).as(Edit::new);
    }

    private static JsonNode apply(JsonNode base, List<Edit> edits) {
        ObjectNode copy = base.deepCopy();
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
    void theKindIsMajorExactlyWhenARoomDefiningFieldDiffers(@ForAll @Size(max = 4) List<@net.jqwik.api.From("edits") Edit> edits) {
        JsonNode before = base();
        JsonNode after = apply(before, edits);

        ConfigDiff diff = ConfigDiff.between(before, after);

        boolean roomFieldDiffers = ConfigDiff.ROOM_DEFINING_FIELDS.stream()
                .anyMatch(f -> !java.util.Objects.equals(before.get(f), after.get(f)));
        boolean anyDiffers = !before.equals(after);
        assertThat(diff.kind()).isEqualTo(roomFieldDiffers ? ChangeKind.MAJOR : anyDiffers ? ChangeKind.MINOR : ChangeKind.NONE);
    }

    @Property
    void diffIsSymmetricInPathsAndKindAndLeavesItsInputsAlone(@ForAll @Size(max = 4) List<@net.jqwik.api.From("edits") Edit> edits) {
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
    }
}
