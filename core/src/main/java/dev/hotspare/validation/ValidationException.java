package dev.hotspare.validation;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Thrown when an input (a spec, a config, a state file) has one or more problems. Carries <em>all</em>
 * problems found, not just the first, so a user can fix everything in one pass.
 */
public final class ValidationException extends IllegalArgumentException {

    private final List<Problem> problems;

    public ValidationException(List<Problem> problems) {
        super(render(problems));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a ValidationException needs at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    public ValidationException(Problem problem) {
        this(List.of(problem));
    }

    /**
     * Every problem found, in the order they were detected.
     */
    public List<Problem> problems() {
        return problems;
    }

    private static String render(List<Problem> problems) {
        return problems.stream().map(Problem::describe).collect(Collectors.joining("; "));
    }
}
