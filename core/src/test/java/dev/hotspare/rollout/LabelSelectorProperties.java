package dev.hotspare.rollout;

import dev.hotspare.rollout.RolloutSpec.LabelRequirement;
import dev.hotspare.rollout.RolloutSpec.LabelSelector;
import dev.hotspare.testkit.property.Gen;
import dev.hotspare.testkit.property.Property;
import dev.hotspare.validation.ValidationException;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.hotspare.testkit.property.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/** The label selector parser: total, round-tripping, blind to whitespace between tokens, and Kubernetes' semantics. */
class LabelSelectorProperties {

    private static final List<String> KEYS = List.of("tier", "zone", "example.com/rack", "a");
    private static final List<String> VALUES = List.of("canary", "edge", "", "1", "42", "in", "notin", "eu-west_1.b");

    Gen<LabelRequirement> requirements() {
        Gen<String> key = Gen.of(KEYS);
        Gen<List<String>> values = Gen.of(VALUES).list(1, 3);
        Gen<String> number = Gen.integers(-5, 99).map(String::valueOf).filter(v -> !v.startsWith("-"));
        return Gen.enums(LabelRequirement.Operator.class).flatMap(op -> switch (op) {
            case IN, NOT_IN -> Gen.combine(key, values, (k, v) -> new LabelRequirement(k, op, v));
            case EQUALS, NOT_EQUALS -> Gen.combine(key, Gen.of(VALUES), (k, v) -> new LabelRequirement(k, op, List.of(v)));
            case EXISTS, DOES_NOT_EXIST -> key.map(k -> new LabelRequirement(k, op, List.of()));
            case GREATER_THAN, LESS_THAN -> Gen.combine(key, number, (k, v) -> new LabelRequirement(k, op, List.of(v)));
        });
    }

    Gen<LabelSelector> selectors() {
        return requirements().list(0, 5).map(LabelSelector::new);
    }

    Gen<Map<String, String>> labels() {
        return Gen.maps(Gen.of(KEYS), Gen.of(VALUES), 0, 4);
    }

    /** Text made of the selector alphabet: keywords, operators, parentheses, commas, names and whitespace. */
    Gen<String> noise() {
        return Gen.of("x", "tier", "in", "notin", "=", "==", "!=", "!", "(", ")", ",", ">", "<", " ", "\t",
                "canary", "a/b", "-", "1", "é").list(0, 12).map(parts -> String.join("", parts));
    }

    /** Parsing the string form gives back the same selector. */
    @Property(tries = 500)
    void theStringFormRoundTrips() {
        forAll(selectors()).check(selector -> {
            assertThat(LabelSelector.parse(selector.describe())).isEqualTo(selector);
        });
    }

    /** Whitespace between tokens (spaces, tabs, newlines, carriage returns) does not change the selector. */
    @Property(tries = 500)
    void whitespaceBetweenTokensDoesNotMatter() {
        forAll(selectors(), spacing()).check((selector, space) -> {
            String spaced = selector.describe().replace(",", space + "," + space).replace("(", space + "(" + space)
                    .replace(")", space + ")").replace("!=", space + "!=" + space);
            assertThat(LabelSelector.parse(space + spaced + space)).isEqualTo(selector);
        });
    }

    Gen<String> spacing() {
        return Gen.of(" ", "\t", "\n", "\r").list(1, 3).map(s -> String.join("", s));
    }

    /**
     * Any text is either a selector or one problem whose value is the text and whose message names a position
     * inside it (0 to its length); nothing else is ever thrown.
     */
    @Property(tries = 1000)
    void everyTextParsesOrNamesAPosition() {
        forAll(noise()).check(text -> {
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
        });
    }

    /** Kubernetes' semantics: {@code k in (v)} is {@code k=v}, {@code k notin (v)} is {@code k!=v}, {@code !k} is not {@code k}. */
    @Property(tries = 500)
    void setAndEqualityFormsAgree() {
        forAll(labels()).check(labels -> {
            for (String key : KEYS) {
                for (String value : VALUES) {
                    assertThat(LabelRequirement.in(key, value).matches(labels)).isEqualTo(LabelRequirement.equalTo(key, value).matches(labels));
                    assertThat(LabelRequirement.notIn(key, value).matches(labels))
                            .isEqualTo(new LabelRequirement(key, LabelRequirement.Operator.NOT_EQUALS, List.of(value)).matches(labels));
                    assertThat(LabelRequirement.notIn(key, value).matches(labels)).isNotEqualTo(LabelRequirement.in(key, value).matches(labels));
                }
                assertThat(LabelRequirement.doesNotExist(key).matches(labels)).isNotEqualTo(LabelRequirement.exists(key).matches(labels));
            }
        });
    }
}
