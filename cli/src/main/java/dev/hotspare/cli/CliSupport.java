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
            err.println("error: " + source + ": " + p.describe());
        }
        err.flush();
        return HotspareCli.EXIT_BAD_INPUT;
    }
}
