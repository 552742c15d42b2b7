package dev.hotspare.bench;

/**
 * Entry point of {@code benchmarks/target/benchmarks.jar}: runs the JMH benchmarks named on the command
 * line (all when none) and prints each comparison as a ratio against its baseline measured in the same run.
 */
public final class BenchmarkMain {

    private BenchmarkMain() {
    }

    public static void main(String[] args) throws Exception {
        org.openjdk.jmh.Main.main(args);
    }
}
