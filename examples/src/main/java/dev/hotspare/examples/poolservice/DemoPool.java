package dev.hotspare.examples.poolservice;

import dev.hotspare.pool.PoolSpec;

import java.time.Duration;

/**
 * The pool the service runs when no {@code --pool} is given, with member timings short enough to watch: the same
 * as {@code examples/pool.yaml}.
 */
public final class DemoPool {

    /** In-memory install time: long enough that a cold claim visibly waits. */
    public static final Duration INSTALL = Duration.ofSeconds(7);
    /** In-memory resume time: the wait of a warm claim. */
    public static final Duration RESUME = Duration.ofSeconds(3);
    /** In-memory hibernate time. */
    public static final Duration HIBERNATE = Duration.ofSeconds(2);
    /** In-memory delete time. */
    public static final Duration DELETE = Duration.ofSeconds(1);

    private DemoPool() {
    }

    /** ci-pool: 3 unclaimed members, 1 of them running, claimed members hibernate 10 s after they start running. */
    public static PoolSpec spec() {
        return PoolSpec.builder("ci-pool").size(3).runningCount(1).maxSize(10).hibernateAfter(Duration.ofSeconds(10))
                .build();
    }
}
