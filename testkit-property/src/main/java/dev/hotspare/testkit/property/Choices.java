package dev.hotspare.testkit.property;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/** How the generators of {@link Gen} turn choices into numbers and lists, so that smaller choices mean simpler values. */
final class Choices {

    static final int FILTER_ATTEMPTS = 10_000;
    private static final int DUPLICATE_ATTEMPTS = 50;

    private Choices() {
    }

    /**
     * A number in {@code [min, max]}. The choice is a rank ordering the values by their distance from the value
     * nearest zero (alternately above and below it), so shrinking a choice moves the number towards zero.
     */
    static long integral(Source s, long min, long max) {
        long target = Math.max(min, Math.min(max, 0));
        long up = max - target;
        long down = target - min;
        long maxRank = max - min;
        double p = s.unit();
        // The value nearest zero and both bounds come up more often than uniformly: they are where bugs live.
        long proposal = p < 0.05 ? 0 : p < 0.08 ? rank(min, target, up, down) : p < 0.11 ? rank(max, target, up, down)
                : s.uniform(maxRank);
        return value(s.draw(maxRank, proposal), target, up, down);
    }

    static long value(long rank, long target, long up, long down) {
        long m = Math.min(up, down);
        if (rank <= 2 * m) {
            return rank == 0 ? target : rank % 2 == 1 ? target + (rank + 1) / 2 : target - rank / 2;
        }
        long extra = rank - 2 * m;
        return up > down ? target + m + extra : target - m - extra;
    }

    static long rank(long value, long target, long up, long down) {
        long m = Math.min(up, down);
        long d = value - target;
        long a = Math.abs(d);
        if (a <= m) {
            return d > 0 ? 2 * d - 1 : 2 * a;
        }
        return 2 * m + (a - m);
    }

    /**
     * A list: before every element past {@code minSize} a "one more?" choice (0 ends the list), so deleting an
     * element's choices deletes the element and shrinking a "one more?" to 0 cuts the list there. With a {@code key},
     * elements are distinct by it.
     */
    static <T> List<T> list(Source s, Gen<T> element, int minSize, int maxSize, Function<? super T, ?> key) {
        if (minSize < 0 || maxSize < minSize) {
            throw new IllegalArgumentException("list: bad size range [" + minSize + ", " + maxSize
                    + "]: sizes must be at least 0 and max at least min");
        }
        int target = s.unit() < 0.1 ? minSize : minSize + (int) s.uniform(maxSize - minSize);
        List<T> out = new ArrayList<>();
        Set<Object> keys = key == null ? null : new HashSet<>();
        while (out.size() < maxSize) {
            if (out.size() >= minSize && s.draw(1, out.size() < target ? 1 : 0) == 0) {
                break;
            }
            T value = element.generate(s);
            if (keys != null) {
                boolean added = keys.add(key.apply(value));
                for (int attempt = 1; !added && attempt < DUPLICATE_ATTEMPTS; attempt++) {
                    value = element.generate(s);
                    added = keys.add(key.apply(value));
                }
                if (!added) {
                    if (out.size() >= minSize) {
                        break;
                    }
                    throw new GenerationException("could not find " + minSize + " distinct elements");
                }
            }
            out.add(value);
        }
        return out;
    }
}
