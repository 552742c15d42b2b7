package dev.hotspare.testkit.property;

import org.junit.jupiter.api.function.ThrowingConsumer;

import java.util.Arrays;

/**
 * Shrinks a counter-example by editing the choices it was generated from — deleting runs of choices (fewer list
 * elements, shorter structures) and setting runs of choices to zero and making single choices smaller (numbers nearer zero, earlier
 * alternatives) —
 * and keeping every edit whose value still fails the same way. Candidates only ever get smaller (fewer choices, or
 * as many but lexicographically smaller), so shrinking ends; a budget of attempts and time bounds slow properties.
 */
final class Shrinker<T> {

    /** Run lengths to delete: a list element is its "one more?" choice and its own, so records need long runs. */
    private static final int[] RUNS = {12, 8, 6, 4, 3, 2, 1};

    /** The smallest counter-example found. */
    record Result<T>(T value, Throwable failure, int steps) {
    }

    private final Gen<T> gen;
    private final ThrowingConsumer<? super T> property;
    private final int budget;
    private final long deadline;
    private int attempts;
    private int steps;
    private long[] current;
    private T value;
    private Throwable failure;

    Shrinker(Gen<T> gen, ThrowingConsumer<? super T> property, int budget, long nanos) {
        this.gen = gen;
        this.property = property;
        this.budget = budget;
        this.deadline = System.nanoTime() + nanos;
    }

    /** The failure of {@code property} on {@code value}, or null when it holds. */
    static <T> Throwable run(ThrowingConsumer<? super T> property, T value) {
        try {
            property.accept(value);
            return null;
        } catch (Throwable t) {
            if (t instanceof VirtualMachineError error) {
                throw error;
            }
            return t;
        }
    }

    Result<T> shrink(long[] choices, T original, Throwable originalFailure) {
        current = choices;
        value = original;
        failure = originalFailure;
        boolean improved = true;
        while (improved && !exhausted()) {
            improved = deleteRuns() | zeroRuns() | minimiseEach();
        }
        return new Result<>(value, failure, steps);
    }

    private boolean deleteRuns() {
        boolean improved = false;
        for (int k : RUNS) {
            for (int i = current.length - k; i >= 0 && !exhausted(); i--) {
                if (i + k > current.length) {
                    continue;
                }
                long[] candidate = new long[current.length - k];
                System.arraycopy(current, 0, candidate, 0, i);
                System.arraycopy(current, i + k, candidate, i, current.length - i - k);
                improved |= attempt(candidate);
            }
        }
        return improved;
    }

    private boolean zeroRuns() {
        boolean improved = false;
        for (int k : new int[]{8, 4, 2}) {
            for (int i = 0; i + k <= current.length && !exhausted(); i++) {
                boolean allZero = true;
                long[] candidate = current.clone();
                for (int j = i; j < i + k; j++) {
                    allZero &= candidate[j] == 0;
                    candidate[j] = 0;
                }
                if (!allZero) {
                    improved |= attempt(candidate);
                }
            }
        }
        return improved;
    }

    private boolean minimiseEach() {
        boolean improved = false;
        for (int i = 0; i < current.length && !exhausted(); i++) {
            long v = current[i];
            if (v == 0) {
                continue;
            }
            if (attempt(with(i, 0))) {
                improved = true;
                continue;
            }
            // Binary search between a value that passes (lo) and one that fails (hi).
            long lo = 0;
            long hi = v;
            while (hi - lo > 1 && i < current.length && current[i] == hi && !exhausted()) {
                long mid = lo + (hi - lo) / 2;
                if (attempt(with(i, mid))) {
                    improved = true;
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
        }
        return improved;
    }

    private long[] with(int i, long v) {
        long[] candidate = current.clone();
        candidate[i] = v;
        return candidate;
    }

    private boolean exhausted() {
        return attempts >= budget || System.nanoTime() - deadline > 0;
    }

    /** Replays {@code candidate}; keeps it (as the choices actually drawn) when it fails the same way and is smaller. */
    private boolean attempt(long[] candidate) {
        attempts++;
        Source source = Source.replay(candidate);
        T candidateValue;
        try {
            candidateValue = gen.generate(source);
        } catch (RuntimeException e) {
            return false; // not a value the generator can make
        }
        long[] drawn = source.choices();
        if (!smaller(drawn, current)) {
            return false;
        }
        Throwable candidateFailure = run(property, candidateValue);
        if (candidateFailure == null || candidateFailure.getClass() != failure.getClass()) {
            return false;
        }
        current = drawn;
        value = candidateValue;
        failure = candidateFailure;
        steps++;
        return true;
    }

    /** Shortlex order: fewer choices, or as many and lexicographically smaller. */
    static boolean smaller(long[] a, long[] b) {
        if (a.length != b.length) {
            return a.length < b.length;
        }
        int mismatch = Arrays.mismatch(a, b);
        return mismatch >= 0 && a[mismatch] < b[mismatch];
    }
}
