package dev.hotspare.examples;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Java snippets of the docs are compiled files: each snippet below is the region between {@code // snippet:} and
 * {@code // end snippet} of an example (same lines, indentation aside), its imports are the example's, and the
 * example runs and prints what the snippet's comments promise. A doc edit without the example (or the reverse)
 * fails here.
 */
class DocSnippetsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path EXAMPLES = ROOT.resolve("examples/src/main/java/dev/hotspare/examples");

    @Test
    void theReadmeQuickStartIsQuickStartJava() throws IOException {
        assertMirrors("README.md", 0, "QuickStart.java");
    }

    @Test
    void theFirstSnippetOfPoolsMdIsPoolsFirstLookJava() throws IOException {
        assertMirrors("docs/pools.md", 0, "PoolsFirstLook.java");
    }

    @Test
    void thePoolsMdSnippetFinishesAndPrintsWhyTheClaimWaitedAndTheMemberItGot() {
        String out = captured(() -> PoolsFirstLook.main(new String[0]));
        assertThat(out.lines()).containsExactly(
                "waiting for a new member to be installed (since 2026-01-01T00:00:00Z)",
                "ci-pool-1 at 2026-01-01T00:45:00Z");
    }

    private static String captured(Runnable run) {
        PrintStream original = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            run.run();
        } finally {
            System.setOut(original);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static void assertMirrors(String doc, int index, String example) throws IOException {
        List<String> snippet = javaBlocks(Files.readString(ROOT.resolve(doc))).get(index);
        List<String> source = Files.readAllLines(EXAMPLES.resolve(example));
        List<String> region = new ArrayList<>();
        boolean inside = false;
        for (String line : source) {
            String t = line.trim();
            if (t.startsWith("// snippet: ")) {
                assertThat(t).as("%s names the doc it is mirrored in", example).isEqualTo("// snippet: " + doc);
                inside = true;
            } else if (t.equals("// end snippet")) {
                inside = false;
            } else if (inside && !t.isEmpty()) {
                region.add(t);
            }
        }
        List<String> code = snippet.stream().map(String::trim).filter(t -> !t.isEmpty() && !t.startsWith("import ")).toList();
        assertThat(code).as("java snippet %d of %s vs %s", index, doc, example).containsExactlyElementsOf(region);
        List<String> imports = snippet.stream().map(String::trim).filter(t -> t.startsWith("import ")).toList();
        assertThat(source.stream().map(String::trim).toList()).as("imports of %s", example).containsAll(imports);
    }

    private static List<List<String>> javaBlocks(String markdown) {
        List<List<String>> blocks = new ArrayList<>();
        List<String> current = null;
        for (String line : markdown.split("\n", -1)) {
            if (current == null && line.trim().equals("```java")) {
                current = new ArrayList<>();
            } else if (current != null && line.trim().equals("```")) {
                blocks.add(current);
                current = null;
            } else if (current != null) {
                current.add(line);
            }
        }
        return blocks;
    }
}
