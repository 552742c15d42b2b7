package dev.hotspare.json;

import tools.jackson.databind.JsonNode;
import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.PolicyTypes.TriggerTypes;
import dev.hotspare.fleet.SchedulerConfigs;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * YAML and JSON that a reader would understand differently from hotspare are refused, wherever they are read
 * (configs over HTTP, files in the CLI): aliases and anchors, duplicate keys, a second document, content after the
 * JSON value; and input beyond the parser's limits is refused instead of read at any cost.
 */
class DocumentsStrictnessTest {

    private static final String CONFIG = "name: pong\ngame: pong\nimage: pong:1\n";

    private static List<String> problems(String text, Documents.Format format) {
        return SchedulerConfigs.check(text, format, TriggerTypes.BUILT_IN).problems().stream().map(Problem::describe).toList();
    }

    @Test
    void aYamlAliasIsRefusedInsteadOfReadAsItsName() {
        String text = "name: pong\ngame: &img pong\nimage: *img\n";
        assertThat(problems(text, Documents.Format.YAML)).singleElement().asString().contains("is not accepted");
        assertThatThrownBy(() -> ConfigDocument.of("name: pong\nimage: *img\n"))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.problems().get(0).describe())
                        .contains("alias '*img' is not accepted"));
    }

    @Test
    void duplicateKeysAreRefusedInYamlAndJson() {
        assertThat(problems(CONFIG + "image: pong:2\n", Documents.Format.YAML)).singleElement().asString()
                .contains("Duplicate field 'image'");
        assertThat(problems("{\"name\":\"pong\",\"game\":\"pong\",\"image\":\"a\",\"image\":\"b\"}", Documents.Format.JSON))
                .singleElement().asString().contains("Duplicate field 'image'");
        assertThatThrownBy(() -> ConfigDocument.of(CONFIG + "game: other\n")).isInstanceOf(ValidationException.class);
    }

    @Test
    void aSecondYamlDocumentIsRefusedNotIgnored() {
        assertThat(problems(CONFIG + "---\nname: other\n", Documents.Format.YAML)).singleElement().asString()
                .contains("more than one document");
        assertThatThrownBy(() -> ConfigDocument.of(CONFIG + "---\nname: other\n")).isInstanceOf(ValidationException.class);
    }

    @Test
    void parseErrorsNameNoJavaClassTwoDocumentsAComplexKeyOrALongLine() {
        java.util.List<String> messages = new java.util.ArrayList<>();
        for (String text : java.util.List.of("{\"a\":1} {\"b\":2}", "name: pong\n? [a, b]\n: x\n",
                "name: pong\nimage: " + "x".repeat(900_000) + "\n", "name: pong\n# " + "c".repeat(70_000) + "\n")) {
            assertThatThrownBy(() -> ConfigDocument.of(text)).isInstanceOfSatisfying(ValidationException.class,
                    e -> messages.add(e.problems().get(0).describe()));
            assertThatThrownBy(() -> Documents.read(text, Documents.Format.YAML, JsonNode.class)).isInstanceOfSatisfying(
                    ValidationException.class, e -> messages.add(e.problems().get(0).describe()));
        }
        assertThat(messages).hasSize(8).allSatisfy(m -> assertThat(m).doesNotContain("java.", "com.fasterxml", "org.yaml",
                "Exception", "Event(", "`").doesNotContain("\n"));
        assertThat(messages.get(0)).contains("not valid YAML or JSON: expected '<document start>'");
        assertThatThrownBy(() -> Documents.read("{\"a\":1} {\"b\":2}", Documents.Format.JSON, JsonNode.class))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.problems().get(0).describe())
                        .contains("more than one document, or something after the document").doesNotContain("com.fasterxml", "`"));
        assertThat(messages.get(2)).contains("a construct that is not supported");
        assertThat(messages.get(4)).contains("line 2 is longer than 65536 characters, the longest line");
        assertThat(messages.get(6)).contains("line 2 is longer than 65536 characters");
    }

    @Test
    void contentAfterTheJsonValueIsRefused() {
        assertThat(problems("{\"name\":\"pong\",\"game\":\"pong\",\"image\":\"a\"} {\"x\":1}", Documents.Format.JSON)).isNotEmpty();
        assertThatThrownBy(() -> Documents.read("{\"a\":1} trailing", Documents.Format.JSON, JsonNode.class))
                .isInstanceOf(ValidationException.class);
    }

    @Test
    void aDocumentNestedDeeperThanTheLimitIsRefused() {
        String deep = "[".repeat(Documents.MAX_NESTING_DEPTH + 10) + "]".repeat(Documents.MAX_NESTING_DEPTH + 10);
        assertThatThrownBy(() -> Documents.read(deep, Documents.Format.JSON, JsonNode.class))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.problems().get(0).describe()).contains("depth"));
    }

    @Test
    void aYamlDocumentLargerThanTheLimitIsRefused() {
        String huge = "# " + "x".repeat(Documents.MAX_DOCUMENT_CHARS + 10) + "\n" + CONFIG;
        assertThat(problems(huge, Documents.Format.YAML)).isNotEmpty();
    }

    @Test
    void aLineLongerThanTheLimitIsRefusedWhileManyShortLinesAreRead() {
        String longLine = "# " + "x".repeat(StrictYamlFactory.MAX_LINE_CHARS) + "\n" + CONFIG;
        assertThat(problems(longLine, Documents.Format.YAML)).singleElement().asString()
                .contains("line 1 is longer than " + StrictYamlFactory.MAX_LINE_CHARS + " characters");
        String manyLines = ("# " + "x".repeat(1_000) + "\n").repeat(1_000) + CONFIG;
        assertThat(problems(manyLines, Documents.Format.YAML)).isEmpty();
    }

    @Test
    void aFileLargerThanTheLimitIsRefusedBeforeItIsRead(@TempDir Path dir) throws IOException {
        Path big = dir.resolve("big.yaml");
        Files.write(big, new byte[Documents.MAX_DOCUMENT_CHARS + 1]);
        assertThatThrownBy(() -> Documents.readText(big)).isInstanceOfSatisfying(ValidationException.class, e ->
                assertThat(e.problems().get(0).describe()).endsWith("file is " + (Documents.MAX_DOCUMENT_CHARS + 1)
                        + " bytes; the limit is " + Documents.MAX_DOCUMENT_CHARS + " bytes"));
        assertThatThrownBy(() -> Documents.readText(dir)).isInstanceOfSatisfying(ValidationException.class, e ->
                assertThat(e.problems().get(0).describe()).endsWith("not a regular file"));
    }
}
