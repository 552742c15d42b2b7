package dev.hotspare.testkit.property;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Where a {@link Gen} takes its random choices from. Every value a generator makes is a function of the sequence of
 * choices it drew: in a run the choices come from a seeded random number generator and are recorded; when a
 * counter-example is shrunk, the runner replays edited sequences (choices deleted, choices made smaller) and the
 * generators build smaller values from them. A choice is a number in {@code [0, max]} whose smallest value, 0, stands
 * for the simplest outcome (the first element, an empty optional, the end of a list, the number nearest zero), so
 * shrinking works for every generator built from the ones in {@link Gen} without any code of its own.
 */
public final class Source {

    private final SplittableRandom random;
    private final long[] replay;
    private long[] drawn = new long[32];
    private int size;

    private Source(SplittableRandom random, long[] replay) {
        this.random = random;
        this.replay = replay;
    }

    /**
     * A source of fresh random choices.
     *
     * @param seed the seed of the random number generator; the same seed gives the same choices
     */
    public static Source random(long seed) {
        return new Source(new SplittableRandom(seed), null);
    }

    /**
     * A source replaying recorded choices (clamped into each draw's range); once they run out, every choice is 0.
     *
     * @param choices the choices to replay
     */
    static Source replay(long[] choices) {
        // The random numbers are still asked for (proposals are computed, then ignored): a fixed seed keeps that cheap.
        return new Source(new SplittableRandom(0), choices.clone());
    }

    /**
     * One choice in {@code [0, max]}, uniformly distributed in a fresh run.
     *
     * @param max the largest choice, at least 0
     */
    public long choose(long max) {
        return draw(max, uniform(max));
    }

    /**
     * One choice in {@code [0, max]}: {@code proposal} in a fresh run, the recorded choice when replaying.
     *
     * @param max the largest choice, at least 0
     * @param proposal what a fresh run chooses, in {@code [0, max]}
     */
    long draw(long max, long proposal) {
        if (max < 0) {
            throw new IllegalArgumentException("max: bad value '" + max + "': must be at least 0");
        }
        long choice;
        if (replay == null) {
            choice = proposal;
        } else if (size < replay.length) {
            choice = Math.min(Math.max(replay[size], 0), max);
        } else {
            choice = 0;
        }
        if (size == drawn.length) {
            drawn = Arrays.copyOf(drawn, size * 2);
        }
        drawn[size++] = choice;
        return choice;
    }

    /** A uniform number in {@code [0, max]}. */
    long uniform(long max) {
        return max == Long.MAX_VALUE ? random.nextLong() & Long.MAX_VALUE : random.nextLong(max + 1);
    }

    /** A uniform number in {@code [0, 1)}. */
    double unit() {
        return random.nextDouble();
    }

    /** The choices drawn so far, in order. */
    long[] choices() {
        return Arrays.copyOf(drawn, size);
    }
}
