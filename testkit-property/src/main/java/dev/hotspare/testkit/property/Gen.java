package dev.hotspare.testkit.property;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A generator of values for property tests: a function from a {@link Source} of random choices to a value.
 *
 * <p>Generators are built from the factories here and combined with {@link #map}, {@link #flatMap}, {@link #filter},
 * {@link #list}, {@link #optional} — or with a lambda calling other generators, which is how records are built:
 * <pre>{@code
 * Gen<Range> ranges = s -> {
 *     int low = Gen.integers(0, 100).generate(s);
 *     return new Range(low, low + Gen.integers(0, 10).generate(s));
 * };
 * }</pre>
 * Every generated value shrinks — numbers towards zero (or the bound nearest it), lists towards fewer and smaller
 * elements, choices towards the first alternative, optionals towards empty, records towards records of smaller parts
 * — because shrinking edits the recorded choices and replays the generator (see {@link Source}). A generator must
 * therefore draw all its randomness from the source: no {@code java.util.Random} of its own, no clock.
 *
 * @param <T> the type of the generated values
 */
@FunctionalInterface
public interface Gen<T> {

    /**
     * Generates one value.
     *
     * @param source the random choices
     */
    T generate(Source source);

    // --- factories ------------------------------------------------------------------------------------------------

    /**
     * Integers in {@code [min, max]}, the bounds and the value nearest zero more often than the rest; they shrink
     * towards zero (or the bound nearest to it).
     *
     * @param min the smallest value
     * @param max the largest value, at least {@code min}
     * @return the generator
     */
    static Gen<Integer> integers(int min, int max) {
        checkRange("integers", min, max);
        return s -> (int) Choices.integral(s, min, max);
    }

    /**
     * Longs in {@code [min, max]}; see {@link #integers}.
     *
     * @param min the smallest value
     * @param max the largest value, at least {@code min}, and {@code max - min} must not overflow
     * @return the generator
     */
    static Gen<Long> longs(long min, long max) {
        checkRange("longs", min, max);
        try {
            Math.subtractExact(max, min);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("longs: bad range [" + min + ", " + max + "]: max - min must fit in a long", e);
        }
        return s -> Choices.integral(s, min, max);
    }

    /**
     * Any int; shrinks towards zero.
     *
     * @return the generator
     */
    static Gen<Integer> integers() {
        return integers(Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    /**
     * Any long; shrinks towards zero.
     *
     * @return the generator
     */
    static Gen<Long> longs() {
        return s -> s.draw(1, s.uniform(1)) == 0 ? Choices.integral(s, 0, Long.MAX_VALUE) : -1 - Choices.integral(s, 0, Long.MAX_VALUE);
    }

    /**
     * {@code false} and {@code true}, equally likely; shrinks to {@code false}.
     *
     * @return the generator
     */
    static Gen<Boolean> booleans() {
        return s -> s.choose(1) == 1;
    }

    /**
     * Always {@code value}.
     *
     * @param value what every try gets (it never shrinks)
     * @param <T> its type
     * @return the generator
     */
    static <T> Gen<T> just(T value) {
        return s -> value;
    }

    /**
     * One of {@code values}, equally likely; shrinks towards the first.
     *
     * @param values the values, at least one
     * @param <T> their type
     * @return the generator
     */
    @SafeVarargs
    static <T> Gen<T> of(T... values) {
        return of(Arrays.asList(values));
    }

    /**
     * One of {@code values}, equally likely; shrinks towards the first.
     *
     * @param values the values, at least one
     * @param <T> their type
     * @return the generator
     */
    static <T> Gen<T> of(List<? extends T> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("values: bad value '[]': must name at least one value");
        }
        List<T> copy = List.copyOf(values);
        return s -> copy.get((int) s.choose(copy.size() - 1));
    }

    /**
     * One of the constants of an enum, equally likely; shrinks towards the first.
     *
     * @param type the enum
     * @param <E> the enum type
     * @return the generator
     */
    static <E extends Enum<E>> Gen<E> enums(Class<E> type) {
        return of(type.getEnumConstants());
    }

    /**
     * A value of one of {@code gens}, each equally likely; shrinks towards the first.
     *
     * @param gens the generators, at least one
     * @param <T> the type of the values
     * @return the generator
     */
    @SafeVarargs
    static <T> Gen<T> oneOf(Gen<? extends T>... gens) {
        List<Gen<? extends T>> all = List.of(gens);
        Gen<Gen<? extends T>> which = of(all);
        return s -> which.generate(s).generate(s);
    }

    /**
     * A generator with the weight it is chosen by in {@link #frequency}.
     *
     * @param weight the weight, positive
     * @param gen the generator
     * @param <T> the type of its values
     */
    record Weighted<T>(int weight, Gen<? extends T> gen) {
        /**
         * Checks the weight.
         *
         * @param weight the weight, positive
         * @param gen the generator
         */
        public Weighted {
            if (weight <= 0) {
                throw new IllegalArgumentException("weight: bad value '" + weight + "': must be positive");
            }
            Objects.requireNonNull(gen, "gen");
        }
    }

    /**
     * A weighted alternative for {@link #frequency}.
     *
     * @param weight the weight, positive
     * @param gen the generator
     * @param <T> the type of its values
     */
    static <T> Weighted<T> weighted(int weight, Gen<? extends T> gen) {
        return new Weighted<>(weight, gen);
    }

    /**
     * A value of one of the alternatives, each chosen in proportion to its weight; shrinks towards the first.
     *
     * @param alternatives the alternatives, at least one
     * @param <T> the type of the values
     * @return the generator
     */
    @SafeVarargs
    static <T> Gen<T> frequency(Weighted<? extends T>... alternatives) {
        if (alternatives.length == 0) {
            throw new IllegalArgumentException("alternatives: bad value '[]': must name at least one alternative");
        }
        List<Weighted<? extends T>> all = List.of(alternatives);
        long total = all.stream().mapToLong(Weighted::weight).sum();
        return s -> {
            long ticket = s.uniform(total - 1);
            int proposal = 0;
            for (long seen = all.get(0).weight(); seen <= ticket; seen += all.get(proposal).weight()) {
                proposal++;
            }
            return all.get((int) s.draw(all.size() - 1, proposal)).gen().generate(s);
        };
    }

    /**
     * A generator made when first used — for generators that refer to themselves.
     *
     * @param supplier makes the generator
     * @param <T> the type of the values
     */
    static <T> Gen<T> lazy(Supplier<Gen<T>> supplier) {
        return s -> supplier.get().generate(s);
    }

    /**
     * Strings of characters from {@code alphabet}; they shrink towards shorter strings of its first character.
     *
     * @param alphabet the characters, at least one
     * @param minLength the shortest length, at least 0
     * @param maxLength the longest length, at least {@code minLength}
     * @return the generator
     */
    static Gen<String> strings(String alphabet, int minLength, int maxLength) {
        if (alphabet.isEmpty()) {
            throw new IllegalArgumentException("alphabet: bad value '': must hold at least one character");
        }
        Gen<Character> chars = s -> alphabet.charAt((int) s.choose(alphabet.length() - 1));
        return chars.list(minLength, maxLength).map(cs -> {
            StringBuilder b = new StringBuilder(cs.size());
            cs.forEach(b::append);
            return b.toString();
        });
    }

    /** The letters a-z and A-Z, for {@link #strings}. */
    String ALPHA = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

    /**
     * Maps with {@code minSize..maxSize} distinct keys (insertion-ordered).
     *
     * @param keys   makes each key (duplicates are drawn again)
     * @param values makes the value of each key
     * @param minSize the fewest entries, at least 0
     * @param maxSize the most entries, at least {@code minSize}
     * @param <K> the key type
     * @param <V> the value type
     * @return the generator
     */
    static <K, V> Gen<Map<K, V>> maps(Gen<K> keys, Gen<V> values, int minSize, int maxSize) {
        Gen<Map.Entry<K, V>> entries = s -> Map.entry(keys.generate(s), values.generate(s));
        return s -> {
            List<Map.Entry<K, V>> list = Collections.unmodifiableList(
                    Choices.list(s, entries, minSize, maxSize, Map.Entry::getKey));
            Map<K, V> map = new LinkedHashMap<>();
            list.forEach(e -> map.put(e.getKey(), e.getValue()));
            return Collections.unmodifiableMap(map);
        };
    }

    /**
     * Values made by {@code maker} from one value of each generator (drawn in order) — records of generated parts.
     *
     * @param a the first generator
     * @param b the second generator
     * @param maker makes the value
     * @param <A> the first part's type
     * @param <B> the second part's type
     * @param <R> the value's type
     */
    static <A, B, R> Gen<R> combine(Gen<A> a, Gen<B> b, java.util.function.BiFunction<? super A, ? super B, ? extends R> maker) {
        return s -> maker.apply(a.generate(s), b.generate(s));
    }

    /**
     * Values made by {@code maker} from one value of each generator (drawn in order) — records of generated parts.
     *
     * @param a generator 1
     * @param b generator 2
     * @param c generator 3
     * @param maker makes the value
     * @param <A> the type of part 1
     * @param <B> the type of part 2
     * @param <C> the type of part 3
     * @param <R> the value's type
     */
    static <A, B, C, R> Gen<R> combine(Gen<A> a, Gen<B> b, Gen<C> c, Fn3<? super A, ? super B, ? super C, ? extends R> maker) {
        return s -> maker.apply(a.generate(s), b.generate(s), c.generate(s));
    }

    /**
     * Values made by {@code maker} from one value of each generator (drawn in order) — records of generated parts.
     *
     * @param a generator 1
     * @param b generator 2
     * @param c generator 3
     * @param d generator 4
     * @param maker makes the value
     * @param <A> the type of part 1
     * @param <B> the type of part 2
     * @param <C> the type of part 3
     * @param <D> the type of part 4
     * @param <R> the value's type
     */
    static <A, B, C, D, R> Gen<R> combine(Gen<A> a, Gen<B> b, Gen<C> c, Gen<D> d, Fn4<? super A, ? super B, ? super C, ? super D, ? extends R> maker) {
        return s -> maker.apply(a.generate(s), b.generate(s), c.generate(s), d.generate(s));
    }

    /**
     * Values made by {@code maker} from one value of each generator (drawn in order) — records of generated parts.
     *
     * @param a generator 1
     * @param b generator 2
     * @param c generator 3
     * @param d generator 4
     * @param e generator 5
     * @param maker makes the value
     * @param <A> the type of part 1
     * @param <B> the type of part 2
     * @param <C> the type of part 3
     * @param <D> the type of part 4
     * @param <E> the type of part 5
     * @param <R> the value's type
     */
    static <A, B, C, D, E, R> Gen<R> combine(Gen<A> a, Gen<B> b, Gen<C> c, Gen<D> d, Gen<E> e, Fn5<? super A, ? super B, ? super C, ? super D, ? super E, ? extends R> maker) {
        return s -> maker.apply(a.generate(s), b.generate(s), c.generate(s), d.generate(s), e.generate(s));
    }

    /**
     * Values made by {@code maker} from one value of each generator (drawn in order) — records of generated parts.
     *
     * @param a generator 1
     * @param b generator 2
     * @param c generator 3
     * @param d generator 4
     * @param e generator 5
     * @param f generator 6
     * @param maker makes the value
     * @param <A> the type of part 1
     * @param <B> the type of part 2
     * @param <C> the type of part 3
     * @param <D> the type of part 4
     * @param <E> the type of part 5
     * @param <F> the type of part 6
     * @param <R> the value's type
     */
    static <A, B, C, D, E, F, R> Gen<R> combine(Gen<A> a, Gen<B> b, Gen<C> c, Gen<D> d, Gen<E> e, Gen<F> f, Fn6<? super A, ? super B, ? super C, ? super D, ? super E, ? super F, ? extends R> maker) {
        return s -> maker.apply(a.generate(s), b.generate(s), c.generate(s), d.generate(s), e.generate(s), f.generate(s));
    }

    /**
     * Values made by {@code maker} from one value of each generator (drawn in order) — records of generated parts.
     *
     * @param a generator 1
     * @param b generator 2
     * @param c generator 3
     * @param d generator 4
     * @param e generator 5
     * @param f generator 6
     * @param g generator 7
     * @param maker makes the value
     * @param <A> the type of part 1
     * @param <B> the type of part 2
     * @param <C> the type of part 3
     * @param <D> the type of part 4
     * @param <E> the type of part 5
     * @param <F> the type of part 6
     * @param <G> the type of part 7
     * @param <R> the value's type
     */
    static <A, B, C, D, E, F, G, R> Gen<R> combine(Gen<A> a, Gen<B> b, Gen<C> c, Gen<D> d, Gen<E> e, Gen<F> f, Gen<G> g, Fn7<? super A, ? super B, ? super C, ? super D, ? super E, ? super F, ? super G, ? extends R> maker) {
        return s -> maker.apply(a.generate(s), b.generate(s), c.generate(s), d.generate(s), e.generate(s), f.generate(s), g.generate(s));
    }

    /**
     * Values made by {@code maker} from one value of each generator (drawn in order) — records of generated parts.
     *
     * @param a generator 1
     * @param b generator 2
     * @param c generator 3
     * @param d generator 4
     * @param e generator 5
     * @param f generator 6
     * @param g generator 7
     * @param h generator 8
     * @param maker makes the value
     * @param <A> the type of part 1
     * @param <B> the type of part 2
     * @param <C> the type of part 3
     * @param <D> the type of part 4
     * @param <E> the type of part 5
     * @param <F> the type of part 6
     * @param <G> the type of part 7
     * @param <H> the type of part 8
     * @param <R> the value's type
     */
    static <A, B, C, D, E, F, G, H, R> Gen<R> combine(Gen<A> a, Gen<B> b, Gen<C> c, Gen<D> d, Gen<E> e, Gen<F> f, Gen<G> g, Gen<H> h, Fn8<? super A, ? super B, ? super C, ? super D, ? super E, ? super F, ? super G, ? super H, ? extends R> maker) {
        return s -> maker.apply(a.generate(s), b.generate(s), c.generate(s), d.generate(s), e.generate(s), f.generate(s), g.generate(s), h.generate(s));
    }

    /**
     * A function of 3 parts, for {@link #combine}.
     *
     * @param <A> the type of part 1
     * @param <B> the type of part 2
     * @param <C> the type of part 3
     * @param <R> the result type
     */
    @FunctionalInterface
    interface Fn3<A, B, C, R> {
        /**
         * Makes the value.
         *
     * @param a part 1
     * @param b part 2
     * @param c part 3
         */
        R apply(A a, B b, C c);
    }

    /**
     * A function of 4 parts, for {@link #combine}.
     *
     * @param <A> the type of part 1
     * @param <B> the type of part 2
     * @param <C> the type of part 3
     * @param <D> the type of part 4
     * @param <R> the result type
     */
    @FunctionalInterface
    interface Fn4<A, B, C, D, R> {
        /**
         * Makes the value.
         *
     * @param a part 1
     * @param b part 2
     * @param c part 3
     * @param d part 4
         */
        R apply(A a, B b, C c, D d);
    }

    /**
     * A function of 5 parts, for {@link #combine}.
     *
     * @param <A> the type of part 1
     * @param <B> the type of part 2
     * @param <C> the type of part 3
     * @param <D> the type of part 4
     * @param <E> the type of part 5
     * @param <R> the result type
     */
    @FunctionalInterface
    interface Fn5<A, B, C, D, E, R> {
        /**
         * Makes the value.
         *
     * @param a part 1
     * @param b part 2
     * @param c part 3
     * @param d part 4
     * @param e part 5
         */
        R apply(A a, B b, C c, D d, E e);
    }

    /**
     * A function of 6 parts, for {@link #combine}.
     *
     * @param <A> the type of part 1
     * @param <B> the type of part 2
     * @param <C> the type of part 3
     * @param <D> the type of part 4
     * @param <E> the type of part 5
     * @param <F> the type of part 6
     * @param <R> the result type
     */
    @FunctionalInterface
    interface Fn6<A, B, C, D, E, F, R> {
        /**
         * Makes the value.
         *
     * @param a part 1
     * @param b part 2
     * @param c part 3
     * @param d part 4
     * @param e part 5
     * @param f part 6
         */
        R apply(A a, B b, C c, D d, E e, F f);
    }

    /**
     * A function of 7 parts, for {@link #combine}.
     *
     * @param <A> the type of part 1
     * @param <B> the type of part 2
     * @param <C> the type of part 3
     * @param <D> the type of part 4
     * @param <E> the type of part 5
     * @param <F> the type of part 6
     * @param <G> the type of part 7
     * @param <R> the result type
     */
    @FunctionalInterface
    interface Fn7<A, B, C, D, E, F, G, R> {
        /**
         * Makes the value.
         *
     * @param a part 1
     * @param b part 2
     * @param c part 3
     * @param d part 4
     * @param e part 5
     * @param f part 6
     * @param g part 7
         */
        R apply(A a, B b, C c, D d, E e, F f, G g);
    }

    /**
     * A function of 8 parts, for {@link #combine}.
     *
     * @param <A> the type of part 1
     * @param <B> the type of part 2
     * @param <C> the type of part 3
     * @param <D> the type of part 4
     * @param <E> the type of part 5
     * @param <F> the type of part 6
     * @param <G> the type of part 7
     * @param <H> the type of part 8
     * @param <R> the result type
     */
    @FunctionalInterface
    interface Fn8<A, B, C, D, E, F, G, H, R> {
        /**
         * Makes the value.
         *
     * @param a part 1
     * @param b part 2
     * @param c part 3
     * @param d part 4
     * @param e part 5
     * @param f part 6
     * @param g part 7
     * @param h part 8
         */
        R apply(A a, B b, C c, D d, E e, F f, G g, H h);
    }

    // --- combinators ----------------------------------------------------------------------------------------------

    /**
     * The generated values transformed by {@code f}.
     *
     * @param f the transformation; a pure function
     * @param <R> the new type
     * @return the generator
     */
    default <R> Gen<R> map(Function<? super T, ? extends R> f) {
        return s -> f.apply(generate(s));
    }

    /**
     * A value of the generator {@code f} makes from a generated value.
     *
     * @param f makes the second generator
     * @param <R> the new type
     */
    default <R> Gen<R> flatMap(Function<? super T, ? extends Gen<? extends R>> f) {
        return s -> f.apply(generate(s)).generate(s);
    }

    /**
     * Only the values {@code keep} accepts; generation fails (naming the predicate's misses) when 10 000 values in a
     * row are rejected, so keep filters that reject most values out.
     *
     * @return the generator
     */
    default Gen<T> filter(Predicate<? super T> keep) {
        return s -> {
            for (int attempt = 0; attempt < Choices.FILTER_ATTEMPTS; attempt++) {
                T value = generate(s);
                if (keep.test(value)) {
                    return value;
                }
            }
            throw new GenerationException("filter rejected " + Choices.FILTER_ATTEMPTS + " values in a row");
        };
    }

    /**
     * Lists of {@code minSize..maxSize} generated elements, their size about uniformly distributed.
     *
     * @param minSize the shortest size, at least 0
     * @param maxSize the longest size, at least {@code minSize}
     * @return the generator of unmodifiable lists
     */
    default Gen<List<T>> list(int minSize, int maxSize) {
        return s -> Collections.unmodifiableList(Choices.list(s, this, minSize, maxSize, null));
    }

    /**
     * Lists of {@code size} generated elements.
     *
     * @param size the size, at least 0
     * @return the generator of unmodifiable lists
     */
    default Gen<List<T>> list(int size) {
        return list(size, size);
    }

    /**
     * Lists of {@code minSize..maxSize} distinct generated elements.
     *
     * @param minSize the shortest size, at least 0
     * @param maxSize the longest size, at least {@code minSize}
     * @return the generator of unmodifiable lists
     */
    default Gen<List<T>> uniqueList(int minSize, int maxSize) {
        return s -> Collections.unmodifiableList(Choices.list(s, this, minSize, maxSize, Function.identity()));
    }

    /**
     * Sets of {@code minSize..maxSize} generated elements (insertion-ordered).
     *
     * @param minSize the fewest elements, at least 0
     * @param maxSize the most elements, at least {@code minSize}
     * @return the generator of unmodifiable sets
     */
    default Gen<Set<T>> set(int minSize, int maxSize) {
        return uniqueList(minSize, maxSize).map(l -> Collections.unmodifiableSet(new LinkedHashSet<>(l)));
    }

    /**
     * Present values 95 times in 100, empty otherwise; shrinks towards empty.
     *
     * @return the generator
     */
    default Gen<Optional<T>> optional() {
        return optional(0.95);
    }

    /**
     * Present values with probability {@code presence}, empty otherwise; shrinks towards empty.
     *
     * @param presence the probability of a present value, in [0, 1]
     * @return the generator
     */
    default Gen<Optional<T>> optional(double presence) {
        if (!(presence >= 0 && presence <= 1)) {
            throw new IllegalArgumentException("presence: bad value '" + presence + "': must be in [0, 1]");
        }
        return s -> s.draw(1, s.unit() < presence ? 1 : 0) == 1 ? Optional.of(generate(s)) : Optional.empty();
    }

    private static void checkRange(String what, long min, long max) {
        if (max < min) {
            throw new IllegalArgumentException(what + ": bad range [" + min + ", " + max + "]: max must be at least min");
        }
    }
}
