package dev.hotspare.testkit.property;

/**
 * A property that did not hold: the seed that reproduces the run, the counter-example found and the one it shrank
 * to. The cause is the failure of the shrunk counter-example.
 */
public final class PropertyFailure extends AssertionError {

    private static final long serialVersionUID = 1L;

    private final long seed;
    private final int failedTry;
    private final transient Object original;
    private final transient Object shrunk;
    private final int shrinkSteps;

    PropertyFailure(long seed, int failedTry, int tries, Object original, Object shrunk, int shrinkSteps, Throwable cause) {
        super(message(seed, failedTry, tries, original, shrunk, shrinkSteps, cause), cause);
        this.seed = seed;
        this.failedTry = failedTry;
        this.original = original;
        this.shrunk = shrunk;
        this.shrinkSteps = shrinkSteps;
    }

    private static String message(long seed, int failedTry, int tries, Object original, Object shrunk, int steps, Throwable cause) {
        return "Property failed on try " + failedTry + " of " + tries + " with seed " + seed
                + "\n  reproduce with -D" + PropertyCheck.SEED_PROPERTY + "=" + seed + " or @Property(seed = \"" + seed + "\")"
                + "\n  shrunk counter-example (" + steps + " shrink steps): " + shrunk
                + "\n  original counter-example: " + original
                + "\n  failure of the shrunk counter-example: " + cause;
    }

    /**
     * The seed of the run that failed.
     */
    public long seed() {
        return seed;
    }

    /**
     * The try (1-based) that found the counter-example.
     */
    public int failedTry() {
        return failedTry;
    }

    /**
     * The counter-example as first generated.
     *
     * @return the original counter-example
     */
    public Object original() {
        return original;
    }

    /**
     * The smallest counter-example shrinking found.
     *
     * @return the shrunk counter-example
     */
    public Object shrunk() {
        return shrunk;
    }

    /**
     * How many smaller counter-examples shrinking went through.
     *
     * @return the number of steps
     */
    public int shrinkSteps() {
        return shrinkSteps;
    }
}
