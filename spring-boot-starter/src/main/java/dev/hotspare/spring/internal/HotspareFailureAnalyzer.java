package dev.hotspare.spring.internal;

import dev.hotspare.spring.HotspareConfigurationException;
import dev.hotspare.validation.Problem;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import java.util.stream.Collectors;

/**
 * Turns a {@link HotspareConfigurationException} that stopped startup into Spring Boot's failure report: one line
 * per problem, naming the property and the bad value, and no stack trace.
 */
public final class HotspareFailureAnalyzer extends AbstractFailureAnalyzer<HotspareConfigurationException> {

    /** Spring Boot instantiates failure analyzers itself. */
    public HotspareFailureAnalyzer() {
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, HotspareConfigurationException cause) {
        String problems = cause.problems().stream().map(Problem::describe).map(line -> "    " + line)
                .collect(Collectors.joining(System.lineSeparator()));
        return new FailureAnalysis("hotspare cannot start with this configuration:" + System.lineSeparator() + problems,
                "Fix the hotspare.* properties named above (the hotspare Spring Boot guide lists every property).", cause);
    }
}
