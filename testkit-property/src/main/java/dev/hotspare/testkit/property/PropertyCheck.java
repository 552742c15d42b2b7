package dev.hotspare.testkit.property;

import org.junit.jupiter.api.function.ThrowingConsumer;

import java.util.SplittableRandom;

/**
 * Runs a property: generates values, checks each, and when one fails shrinks it and throws a {@link PropertyFailure}
 * that prints the seed and the shrunk counter-example.
 * <pre>{@code
 * forAll(Gen.integers(0, 100).list(0, 20)).tries(500).check(list -> assertThat(sorted(list)).hasSameSizeAs(list));
 * }</pre>
 * The tries default to the enclosing {@link Property}'s (1000 outside one); the seed is, in this order, the system
 * property {@value #SEED_PROPERTY}, {@link #seed(long)}, the enclosing {@link Property}'s, or a fresh random one. The
 * same seed gives the same values, tried in the same order.
 *
 * @param <T> the type of the generated values
 */
public final class PropertyCheck<T> {

    /** The system property that fixes the seed of every property in a run. */
    public static final String SEED_PROPERTY = "hotspare.property.seed";
    /** The number of tries when nothing else is said. */
    public static final int DEFAULT_TRIES = 1000;

    private static final int SHRINK_BUDGET = 10_000;
    private static final long SHRINK_NANOS = 30_000_000_000L;

    private final Gen<T> gen;
    private Integer tries;
    private Long seed;

    private PropertyCheck(Gen<T> gen) {
        this.gen = gen;
    }

    /**
     * A property over the values of {@code gen}.
     *
     * @param gen the generator
     * @param <T> the type of its values
     * @return the check, to configure and run
     */
    public static <T> PropertyCheck<T> forAll(Gen<T> gen) {
        return new PropertyCheck<>(gen);
    }

    /**
     * A property over pairs of values.
     *
     * @param a the first generator
     * @param b the second generator
     * @param <A> the type of the first values
     * @param <B> the type of the second values
     * @return the check, to configure and run
     */
    public static <A, B> Two<A, B> forAll(Gen<A> a, Gen<B> b) {
        return new Two<>(forAll(s -> new Tuple2<>(a.generate(s), b.generate(s))));
    }

    /**
     * A property over triples of values.
     *
     * @param a the first generator
     * @param b the second generator
     * @param c the third generator
     * @param <A> the type of the first values
     * @param <B> the type of the second values
     * @param <C> the type of the third values
     * @return the check, to configure and run
     */
    public static <A, B, C> Three<A, B, C> forAll(Gen<A> a, Gen<B> b, Gen<C> c) {
        return new Three<>(forAll(s -> new Tuple3<>(a.generate(s), b.generate(s), c.generate(s))));
    }

    /**
     * Sets the number of tries.
     *
     * @param count the number of values to try, at least 1
     * @return this check
     */
    public PropertyCheck<T> tries(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("tries: bad value '" + count + "': must be at least 1");
        }
        this.tries = count;
        return this;
    }

    /**
     * Fixes the seed (the system property {@value #SEED_PROPERTY} still wins).
     *
     * @param value the seed
     * @return this check
     */
    public PropertyCheck<T> seed(long value) {
        this.seed = value;
        return this;
    }

    /**
     * Checks the property on every try; returns when it held on all.
     *
     * @param property throws (an assertion error, any exception) when the property does not hold for a value
     * @throws PropertyFailure when it did not hold, with the seed and the shrunk counter-example
     */
    public void check(ThrowingConsumer<? super T> property) {
        Property annotation = PropertyExtension.current();
        int count = tries != null ? tries : annotation != null ? annotation.tries() : DEFAULT_TRIES;
        if (count < 1) {
            throw new IllegalArgumentException("tries: bad value '" + count + "': must be at least 1");
        }
        long runSeed = resolveSeed(annotation);
        SplittableRandom cases = new SplittableRandom(runSeed);
        for (int attempt = 1; attempt <= count; attempt++) {
            Source source = Source.random(cases.nextLong());
            T value;
            try {
                value = gen.generate(source);
            } catch (RuntimeException e) {
                throw new AssertionError("Property could not generate try " + attempt + " with seed " + runSeed
                        + " (reproduce with -D" + SEED_PROPERTY + "=" + runSeed + "): " + e, e);
            }
            Throwable failure = Shrinker.run(property, value);
            if (failure != null) {
                Shrinker.Result<T> shrunk = new Shrinker<>(gen, property, SHRINK_BUDGET, SHRINK_NANOS)
                        .shrink(source.choices(), value, failure);
                throw new PropertyFailure(runSeed, attempt, count, value, shrunk.value(), shrunk.steps(), shrunk.failure());
            }
        }
    }

    /**
     * The first values a run with {@code seed} tries, in order — to see what a generator makes.
     *
     * @param gen the generator
     * @param seed the run's seed: the same seed always gives the same values
     * @param count how many values
     * @param <T> the type of the values
     */
    public static <T> java.util.List<T> sample(Gen<T> gen, long seed, int count) {
        SplittableRandom cases = new SplittableRandom(seed);
        java.util.List<T> out = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(gen.generate(Source.random(cases.nextLong())));
        }
        return out;
    }

    private long resolveSeed(Property annotation) {
        String fixed = System.getProperty(SEED_PROPERTY, "").trim();
        if (!fixed.isEmpty()) {
            return parseSeed(SEED_PROPERTY, fixed);
        }
        if (seed != null) {
            return seed;
        }
        if (annotation != null && !annotation.seed().isBlank()) {
            return parseSeed("@Property(seed)", annotation.seed().trim());
        }
        return new SplittableRandom().nextLong();
    }

    private static long parseSeed(String field, String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(field + ": bad value '" + text + "': must be a decimal long", e);
        }
    }

    /** A pair of generated values, as a counter-example prints it. */
    record Tuple2<A, B>(A first, B second) {
        @Override
        public String toString() {
            return "(" + first + ", " + second + ")";
        }
    }

    /** A triple of generated values, as a counter-example prints it. */
    record Tuple3<A, B, C>(A first, B second, C third) {
        @Override
        public String toString() {
            return "(" + first + ", " + second + ", " + third + ")";
        }
    }

    /**
     * A property of two values.
     *
     * @param <A> the type of the first values
     * @param <B> the type of the second values
     */
    @FunctionalInterface
    public interface ThrowingBiConsumer<A, B> {
        /**
         * Checks two values.
         *
         * @param a the first value
         * @param b the second value
         * @throws Throwable when the property does not hold
         */
        void accept(A a, B b) throws Throwable;
    }

    /**
     * A property of three values.
     *
     * @param <A> the type of the first values
     * @param <B> the type of the second values
     * @param <C> the type of the third values
     */
    @FunctionalInterface
    public interface ThrowingTriConsumer<A, B, C> {
        /**
         * Checks three values.
         *
         * @param a the first value
         * @param b the second value
         * @param c the third value
         * @throws Throwable when the property does not hold
         */
        void accept(A a, B b, C c) throws Throwable;
    }

    /**
     * A property over pairs of values; see {@link PropertyCheck}.
     *
     * @param <A> the type of the first values
     * @param <B> the type of the second values
     */
    public static final class Two<A, B> {
        private final PropertyCheck<Tuple2<A, B>> check;

        private Two(PropertyCheck<Tuple2<A, B>> check) {
            this.check = check;
        }

        /**
         * Sets the number of tries.
         *
         * @param count the number of values to try, at least 1
         * @return this check
         */
        public Two<A, B> tries(int count) {
            check.tries(count);
            return this;
        }

        /**
         * Fixes the seed.
         *
         * @param value the seed
         * @return this check
         */
        public Two<A, B> seed(long value) {
            check.seed(value);
            return this;
        }

        /**
         * Checks the property on every try.
         *
         * @param property the invariant: throws (an assertion error, say) for a pair of values that breaks it
         */
        public void check(ThrowingBiConsumer<? super A, ? super B> property) {
            check.check(t -> property.accept(t.first(), t.second()));
        }
    }

    /**
     * A property over triples of values; see {@link PropertyCheck}.
     *
     * @param <A> the type of the first values
     * @param <B> the type of the second values
     * @param <C> the type of the third values
     */
    public static final class Three<A, B, C> {
        private final PropertyCheck<Tuple3<A, B, C>> check;

        private Three(PropertyCheck<Tuple3<A, B, C>> check) {
            this.check = check;
        }

        /**
         * Sets the number of tries.
         *
         * @param count the number of values to try, at least 1
         * @return this check
         */
        public Three<A, B, C> tries(int count) {
            check.tries(count);
            return this;
        }

        /**
         * Fixes the seed.
         *
         * @param value the seed
         * @return this check
         */
        public Three<A, B, C> seed(long value) {
            check.seed(value);
            return this;
        }

        /**
         * Checks the property on every try.
         *
         * @param property the invariant: throws (an assertion error, say) for three values that break it
         */
        public void check(ThrowingTriConsumer<? super A, ? super B, ? super C> property) {
            check.check(t -> property.accept(t.first(), t.second(), t.third()));
        }
    }
}
