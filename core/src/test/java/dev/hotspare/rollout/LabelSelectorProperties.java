package dev.hotspare.rollout;

import dev.hotspare.validation.ValidationException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The label selector parser: total, round-tripping, blind to whitespace between tokens, and Kubernetes' semantics. */
class LabelSelectorProperties {

    private static final List<String> KEYS = List.of("tier", "zone", "example.com/rack", "a");
    private static final List<String> VALUES = List.of("canary", "edge", "", "1", "42", "in", "notin", "eu-west_1.b");

    @Provide
    Arbitrary<LabelRequirement> requirements() {
        Arbitrary<String> key = Arbitraries.of(KEYS);
        Arbitrary<List<String>> values = Arbitraries.of(VALUES).list().ofMinSize(1).ofMaxSize(3);
        Arbitrary<String> number = Arbitraries.integers().between(-5, 99).map(String::valueOf).filter(v -> !v.startsWith("-"));
        return Arbitraries.of(LabelRequirement.Operator.class).flatMap(op -> switch (op) {
            case IN, NOT_IN -> Combinators.combine(key, values).as((k, v) -> new LabelRequirement(k, op, v));
            case EQUALS, NOT_EQUALS -> Combinators.combine(key, Arbitraries.of(VALUES)).as((k, v) -> new LabelRequirement(k, op, List.of(v)));
            case EXISTS, DOES_NOT_EXIST -> key.map(k -> new LabelRequirement(k, op, List.of()));
            case GREATER_THAN, LESS_THAN -> Combinators.combine(key, number).as((k, v) -> new LabelRequirement(k, op, List.of(v)));
        });
    }

    @Provide
    Arbitrary<LabelSelector> selectors() {
        return requirements().list().ofMaxSize(5).map(LabelSelector::new);
    }

    @Provide
    Arbitrary<Map<String, String>> labels() {
        return Arbitraries.maps(Arbitraries.of(KEYS), Arbitraries.of(VALUES)).ofMaxSize(4);
    }

    /** Text made of the selector alphabet: keywords, operators, parentheses, commas, names and whitespace. */
    @Provide
    Arbitrary<String> noise() {
        return Arbitraries.of("x", "tier", "in", "notin", "=", "==", "!=", "!", "(", ")", ",", ">", "<", " ", "\t",
                "canary", "a/b", "-", "1", "é").list().ofMaxSize(12).map(parts -> String.join("", parts));
    }

    /** Parsing the string form gives back the same selector. */
    @Property(tries = 500)
    void theStringFormRoundTrips(@ForAll("selectors") LabelSelector selector) {
        assertThat(LabelSelector.parse(selector.describe())).isEqualTo(selector);
    }

    /** Whitespace between tokens (spaces, tabs, newlines, carriage returns) does not change the selector. */
    @Property(tries = 500)
    void whitespaceBetweenTokensDoesNotMatter(@ForAll("selectors") LabelSelector selector, @ForAll("spacing") String space) {
        String spaced = selector.describe().replace(",", space + "," + space).replace("(", space + "(" + space)
                .replace(")", space + ")").replace("!=", space + "!=" + space);
        assertThat(LabelSelector.parse(space + spaced + space)).isEqualTo(selector);
    }

    @Provide
    Arbitrary<String> spacing() {
        return Arbitraries.of(" ", "\t", "\n", "\r").list().ofMinSize(1).ofMaxSize(3).map(s -> String.join("", s));
    }

    /**
     * Any text is either a selector or one problem whose value is the text and whose message names a position
     * inside it (0 to its length); nothing else is ever thrown.
     */
    @Property(tries = 1000)
    void everyTextParsesOrNamesAPosition(@ForAll("noise") String text) {
        try {
            LabelSelector parsed = LabelSelector.parse(text);
            assertThat(LabelSelector.parse(parsed.describe())).isEqualTo(parsed);
        } catch (ValidationException e) {
            assertThat(e.problems()).singleElement().satisfies(p -> {
                assertThat(p.value()).isEqualTo(text);
                Matcher m = Pattern.compile("^at position (\\d+): ").matcher(p.message());
                assertThat(m.find()).as(p.message()).isTrue();
                assertThat(Integer.parseInt(m.group(1))).isBetween(0, text.length());
            });
        }
    }

    /** Kubernetes' semantics: {@code k in (v)} is {@code k=v}, {@code k notin (v)} is {@code k!=v}, {@code !k} is not {@code k}. */
    @Property(tries = 500)
    void setAndEqualityFormsAgree(@ForAll("labels") Map<String, String> labels) {
        for (String key : KEYS) {
            for (String value : VALUES) {
                assertThat(LabelRequirement.in(key, value).matches(labels)).isEqualTo(LabelRequirement.equalTo(key, value).matches(labels));
                assertThat(LabelRequirement.notIn(key, value).matches(labels))
                        .isEqualTo(new LabelRequirement(key, LabelRequirement.Operator.NOT_EQUALS, List.of(value)).matches(labels));
                assertThat(LabelRequirement.notIn(key, value).matches(labels)).isNotEqualTo(LabelRequirement.in(key, value).matches(labels));
            }
            assertThat(LabelRequirement.doesNotExist(key).matches(labels)).isNotEqualTo(LabelRequirement.exists(key).matches(labels));
        }
    }
}
