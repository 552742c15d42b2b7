package dev.hotspare.cli;

import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.io.PrintWriter;

/** How every subcommand reports bad input: one line per problem, naming the file, field path and bad value. */
final class CliSupport {

    private CliSupport() {
    }

    /**
     * Prints every problem of {@code e} to {@code err}, prefixed with {@code source} (a file name or option),
     * and returns {@link HotspareCli#EXIT_BAD_INPUT}.
     */
    static int badInput(PrintWriter err, String source, ValidationException e) {
        for (Problem p : e.problems()) {
            err.println("error: " + source + ": " + plain(p.describe()));
        }
        err.flush();
        return HotspareCli.EXIT_BAD_INPUT;
    }

    /** Qualified Java names ({@code java.time.Duration}, {@code com.x.SomeException: }) in a message. */
    private static final java.util.regex.Pattern JAVA_NAME =
            java.util.regex.Pattern.compile("(?:class |type )?`?\\b(?:[a-z][a-z0-9_]*\\.)+([A-Z][A-Za-z0-9_$]*)`?(?:: )?");

    /**
     * {@code message} without Java: qualified class names become plain words ("java.time.Duration" → "Duration",
     * an exception's name and its colon are dropped), so no user ever reads a Java type or exception name.
     */
    static String plain(String message) {
        java.util.regex.Matcher m = JAVA_NAME.matcher(message);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String simple = m.group(1);
            m.appendReplacement(out, java.util.regex.Matcher.quoteReplacement(
                    simple.endsWith("Exception") || simple.endsWith("Error") ? "" : simple.toLowerCase(java.util.Locale.ROOT) + " "));
        }
        m.appendTail(out);
        return out.toString().replace("  ", " ").replace("( ", "(").replace(" )", ")").strip();
    }

    /**
     * Whether stdout and stderr are both terminals: on Linux from where file descriptors 1 and 2 point, elsewhere
     * from {@link System#console()} (which only knows about stdin and stdout). {@code NO_COLOR} forces no.
     */
    static boolean terminal() {
        if (System.getenv("NO_COLOR") != null) {
            return false;
        }
        java.nio.file.Path fds = java.nio.file.Path.of("/proc/self/fd");
        if (java.nio.file.Files.isDirectory(fds)) {
            return isTty(fds.resolve("1")) && isTty(fds.resolve("2"));
        }
        return System.console() != null;
    }

    private static boolean isTty(java.nio.file.Path fd) {
        try {
            String target = java.nio.file.Files.readSymbolicLink(fd).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (java.io.IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }
}
