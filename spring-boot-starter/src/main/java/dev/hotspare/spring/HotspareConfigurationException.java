package dev.hotspare.spring;

import dev.hotspare.validation.Problem;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Startup fails with this when the {@code hotspare.*} properties cannot be carried out: a pool spec with bad
 * fields, a store whose adapter or client bean is missing, a store that cannot do what was asked of it. It
 * carries every problem found, each naming the property ({@code hotspare.pools.ci.running-count}) and the bad
 * value; Spring Boot prints them as a failure analysis, without a stack trace.
 */
public final class HotspareConfigurationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient List<Problem> problems;

    /**
     * A failure with one or more problems.
     *
     * @param problems what is wrong, each with its property path; at least one
     */
    public HotspareConfigurationException(List<Problem> problems) {
        super(render(problems));
        this.problems = List.copyOf(problems);
    }

    /**
     * A failure with one problem.
     *
     * @param property the property at fault, e.g. {@code hotspare.store}
     * @param value    its value as written
     * @param why      what is wrong and how to fix it
     */
    public HotspareConfigurationException(String property, Object value, String why) {
        this(List.of(Problem.of(property, value, why)));
    }

    /**
     * Every problem found, in the order they were found.
     *
     * @return the problems, at least one
     */
    public List<Problem> problems() {
        return problems;
    }

    private static String render(List<Problem> problems) {
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("problems: bad value '[]': a configuration failure needs at least one problem");
        }
        return problems.stream().map(Problem::describe).collect(Collectors.joining("; "));
    }
}
