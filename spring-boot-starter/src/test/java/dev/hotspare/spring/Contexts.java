package dev.hotspare.spring;

import dev.hotspare.spring.autoconfigure.HotspareAutoConfiguration;
import dev.hotspare.spring.autoconfigure.HotspareFleetAutoConfiguration;
import dev.hotspare.spring.autoconfigure.HotspareHealthAutoConfiguration;
import dev.hotspare.spring.autoconfigure.HotspareMetricsAutoConfiguration;
import dev.hotspare.validation.Problem;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/** What the starter's context tests share: a runner with every hotspare auto-configuration, and failure readers. */
final class Contexts {

    private Contexts() {
    }

    /** A runner with the four hotspare auto-configurations and nothing else. */
    static ApplicationContextRunner runner() {
        return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(
                HotspareMetricsAutoConfiguration.class, HotspareAutoConfiguration.class,
                HotspareFleetAutoConfiguration.class, HotspareHealthAutoConfiguration.class));
    }

    /** The problems of the {@link HotspareConfigurationException} that stopped {@code context}, as one line each. */
    static List<String> problems(AssertableApplicationContext context) {
        Throwable failure = context.getStartupFailure();
        if (failure == null) {
            throw new AssertionError("the context started; expected it to fail");
        }
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof HotspareConfigurationException e) {
                return e.problems().stream().map(Problem::describe).toList();
            }
        }
        throw new AssertionError("the context failed, but not with a HotspareConfigurationException", failure);
    }

    /**
     * {@code runner} with {@code client} as a bean that the context does not close when it closes: for the shared
     * test servers' clients, which Spring would otherwise close (they are {@code AutoCloseable}).
     */
    static <T> ApplicationContextRunner withSharedBean(ApplicationContextRunner runner, Class<T> type, T client) {
        return runner.withBean(type, () -> client, definition -> definition.setDestroyMethodName(""));
    }

    /** A name no other test (or earlier run against the same server) uses: schema names, key prefixes. */
    static String unique(String prefix) {
        return prefix + Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, 36).toLowerCase(Locale.ROOT);
    }
}
