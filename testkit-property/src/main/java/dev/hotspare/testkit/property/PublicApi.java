package dev.hotspare.testkit.property;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

/**
 * The build check on a module's public API: the module's public types outside {@code …internal} packages, top-level
 * and nested (a public nested type of a public type is API as much as its owner), are listed in its
 * {@code src/test/resources/public-api.txt}, and a test fails on a type that is public but not listed (an addition
 * nobody decided on) or listed but gone (a removal that breaks users). Each library module of
 * hotspare runs it in a {@code PublicApiTest}; a module built on hotspare can do the same. It lives in this module
 * because this module depends on nothing of hotspare's, so hotspare-core's own tests can use it too:
 *
 * <pre>{@code
 * @Test
 * void publicApiIsListed() {
 *     PublicApi.check("my-module", Path.of("target", "classes"));
 * }
 * }</pre>
 */
public final class PublicApi {

    private PublicApi() {
    }

    /** {@code -Dhotspare.publicApi.write=true} rewrites the list instead of comparing against it. */
    public static final String WRITE_PROPERTY = "hotspare.publicApi.write";

    /** Where each module keeps its list, relative to the module's directory (the tests' working directory). */
    public static final Path LIST = Path.of("src", "test", "resources", "public-api.txt");

    /**
     * The public types among the compiled classes under {@code classes} (a module's {@code target/classes}), outside
     * every {@code …internal} package, by binary name, sorted: the public top-level types and the public nested types
     * whose enclosing types are all public too (a user can name them: {@code Owner.Nested}, binary name
     * {@code Owner$Nested}). Anonymous, local and synthetic classes are never listed.
     *
     * @param classes a directory of compiled main classes, on this test's class path
     * @return binary names, sorted
     */
    public static List<String> publicTypes(Path classes) {
        List<String> names = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                String relative = classes.relativize(file).toString().replace(java.io.File.separatorChar, '/');
                String name = relative.substring(0, relative.length() - ".class".length()).replace('/', '.');
                String simple = name.substring(name.lastIndexOf('.') + 1);
                if (simple.equals("package-info") || simple.equals("module-info")
                        || ("." + name + ".").contains(".internal.")) {
                    continue;
                }
                Class<?> type = Class.forName(name, false, Thread.currentThread().getContextClassLoader());
                if (reachable(type)) {
                    names.add(name);
                }
            }
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException("cannot list the public types under " + classes.toAbsolutePath() + ": " + e, e);
        }
        Collections.sort(names);
        return names;
    }

    /**
     * Whether a binary name from {@link #publicTypes} or a list names a nested type ({@code Owner$Nested}).
     *
     * @param type a binary name
     * @return true for a nested type
     */
    public static boolean isNested(String type) {
        return type.contains("$");
    }

    // Public itself and, up to the top-level type, a public member of a public type: a public type inside a
    // package-private, local or anonymous class cannot be named from another package.
    private static boolean reachable(Class<?> type) {
        for (Class<?> t = type; t != null; t = t.getEnclosingClass()) {
            if (t.isSynthetic() || t.isAnonymousClass() || t.isLocalClass() || !Modifier.isPublic(t.getModifiers())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Fails, naming the types to add to or remove from {@code src/test/resources/public-api.txt}, when the module's
     * public types (see {@link #publicTypes}) differ from that list; with {@code -Dhotspare.publicApi.write=true} it
     * rewrites the list instead: the counts on top, the top-level types, then the nested ones under their own header.
     *
     * @param module the module's directory in the build (its -pl name), for the message and the command that rewrites the list
     * @param classes the module's compiled main classes, usually {@code target/classes}
     */
    public static void check(String module, Path classes) {
        if (Boolean.getBoolean(WRITE_PROPERTY)) {
            try {
                Files.createDirectories(LIST.toAbsolutePath().getParent());
                Files.write(LIST, listFile(publicTypes(classes)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return;
        }
        check(module, classes, LIST);
    }

    /**
     * {@link #check(String, Path)} against the list in {@code list} instead of the module's own; it always compares
     * (only the module's own list is ever rewritten).
     *
     * @param module the module's directory in the build, for the message
     * @param classes the module's compiled main classes
     * @param list the file listing the expected public types, one binary name per line ({@code Owner$Nested} for a
     *     nested type), in any order, {@code #} for comments
     */
    public static void check(String module, Path classes, Path list) {
        List<String> actual = publicTypes(classes);
        List<String> listed;
        try {
            listed = Files.exists(list) ? Files.readAllLines(list).stream().map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#")).sorted().toList() : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> added = actual.stream().filter(t -> !listed.contains(t)).toList();
        List<String> gone = listed.stream().filter(t -> !actual.contains(t)).toList();
        if (added.isEmpty() && gone.isEmpty()) {
            return;
        }
        StringBuilder m = new StringBuilder("The public API of " + module + " changed: its public types (top-level, and "
                + "nested in public types) outside …internal packages differ from " + list + ".\n");
        if (!added.isEmpty()) {
            m.append("Public but not listed (add them to the list, or make them package-private or move them to an "
                    + "…internal package):\n");
            added.forEach(t -> m.append("  + ").append(t).append(kind(t)).append('\n'));
        }
        if (!gone.isEmpty()) {
            m.append("Listed but no longer public (remove them from the list; a removal breaks users):\n");
            gone.forEach(t -> m.append("  - ").append(t).append(kind(t)).append('\n'));
        }
        m.append("If the change is intended, rewrite the list and commit it: ./mvnw -pl ").append(module)
                .append(" -am test -Dtest=PublicApiTest -Dsurefire.failIfNoSpecifiedTests=false -D").append(WRITE_PROPERTY)
                .append("=true");
        throw new AssertionError(m.toString());
    }

    private static String kind(String type) {
        return isNested(type) ? " (nested: " + type.replace('$', '.') + ")" : " (top-level)";
    }

    private static List<String> listFile(List<String> types) {
        List<String> topLevel = types.stream().filter(t -> !isNested(t)).toList();
        List<String> nested = types.stream().filter(PublicApi::isNested).toList();
        List<String> lines = new ArrayList<>();
        lines.add("# " + topLevel.size() + " top-level types, " + nested.size() + " nested");
        lines.addAll(HEADER);
        lines.addAll(topLevel);
        lines.add("");
        lines.add(NESTED_HEADER);
        lines.addAll(nested);
        return lines;
    }

    private static final List<String> HEADER = List.of(
            "# The public API of this module: every public type outside …internal packages, one binary name per line;",
            "# the top-level types, then the public nested types whose enclosing types are public too.",
            "# PublicApiTest fails on a type missing here or listed here but gone. Regenerate after an intended change:",
            "#   ./mvnw -pl MODULE -am test -Dtest=PublicApiTest -Dsurefire.failIfNoSpecifiedTests=false -Dhotspare.publicApi.write=true");

    private static final String NESTED_HEADER = "# Nested types: Owner$Nested is the type a user writes as Owner.Nested.";
}
