package dev.hotspare.rollout;

import dev.hotspare.json.Documents;
import dev.hotspare.rollout.RolloutSpec.LabelRequirement;
import dev.hotspare.rollout.RolloutSpec.LabelSelector;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;

import static dev.hotspare.rollout.RolloutSpec.LabelRequirement.Operator.DOES_NOT_EXIST;
import static dev.hotspare.rollout.RolloutSpec.LabelRequirement.Operator.EQUALS;
import static dev.hotspare.rollout.RolloutSpec.LabelRequirement.Operator.EXISTS;
import static dev.hotspare.rollout.RolloutSpec.LabelRequirement.Operator.GREATER_THAN;
import static dev.hotspare.rollout.RolloutSpec.LabelRequirement.Operator.IN;
import static dev.hotspare.rollout.RolloutSpec.LabelRequirement.Operator.LESS_THAN;
import static dev.hotspare.rollout.RolloutSpec.LabelRequirement.Operator.NOT_EQUALS;
import static dev.hotspare.rollout.RolloutSpec.LabelRequirement.Operator.NOT_IN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The string form of label selectors, pinned to Kubernetes' own cases ({@code k8s.io/apimachinery/pkg/labels},
 * {@code selector_test.go}: {@code TestSelectorParse}, {@code TestSetSelectorParser}, {@code TestToString}) and
 * its error messages.
 */
class LabelSelectorTest {

    private static LabelRequirement req(String key, LabelRequirement.Operator op, String... values) {
        return new LabelRequirement(key, op, List.of(values));
    }

    private static String error(String selector) {
        ValidationException e = catchThrowableOfType(ValidationException.class, () -> LabelSelector.parse(selector));
        assertThat(e).as("'%s' should be rejected", selector).isNotNull();
        assertThat(e.problems()).singleElement().satisfies(p -> assertThat(p.value()).isEqualTo(selector));
        return e.problems().get(0).message();
    }

    /** TestSelectorParse's good strings. */
    @ParameterizedTest
    @ValueSource(strings = {"x=a,y=b,z=c", "", "x!=a,y=b", "x=", "x= ", "x=,z= ", "x= ,z= ", "!x", "x>1", "x>1,z<5"})
    void kubernetesGoodStringsParse(String selector) {
        LabelSelector parsed = LabelSelector.parse(selector);
        assertThat(LabelSelector.parse(parsed.describe())).isEqualTo(parsed);
    }

    /** TestSelectorParse's bad strings. */
    @ParameterizedTest
    @ValueSource(strings = {"x=a||y=b", "x==a==b", "!x=a", "x<a"})
    void kubernetesBadStringsAreRejected(String selector) {
        error(selector);
    }

    /** TestSetSelectorParser: the valid inputs and what they parse to. */
    @Test
    void kubernetesSetSelectorCasesParseToTheSameRequirements() {
        Map<String, LabelSelector> cases = new java.util.LinkedHashMap<>();
        cases.put("", LabelSelector.allOf());
        cases.put("\rx", LabelSelector.allOf(req("x", EXISTS)));
        cases.put("this-is-a-dns.domain.com/key-with-dash", LabelSelector.allOf(req("this-is-a-dns.domain.com/key-with-dash", EXISTS)));
        cases.put("this-is-another-dns.domain.com/key-with-dash in (so,what)",
                LabelSelector.allOf(req("this-is-another-dns.domain.com/key-with-dash", IN, "so", "what")));
        cases.put("0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)",
                LabelSelector.allOf(req("0.1.2.domain/99", NOT_IN, "10.10.100.1", "tick.tack.clock")));
        cases.put("foo  in\t (abc)", LabelSelector.allOf(req("foo", IN, "abc")));
        cases.put("x notin\n (abc)", LabelSelector.allOf(req("x", NOT_IN, "abc")));
        cases.put("x  notin\t\t\t(abc,def)", LabelSelector.allOf(req("x", NOT_IN, "abc", "def")));
        cases.put("x in (abc,def)", LabelSelector.allOf(req("x", IN, "abc", "def")));
        cases.put("x in (abc,)", LabelSelector.allOf(req("x", IN, "abc", "")));
        cases.put("x in ()", LabelSelector.allOf(req("x", IN, "")));
        cases.put("x notin (abc,,def),bar,z in (),w", LabelSelector.allOf(req("bar", EXISTS), req("w", EXISTS),
                req("x", NOT_IN, "abc", "", "def"), req("z", IN, "")));
        cases.put("x,y in (a)", LabelSelector.allOf(req("y", IN, "a"), req("x", EXISTS)));
        cases.put("x=a", LabelSelector.allOf(req("x", EQUALS, "a")));
        cases.put("x>1", LabelSelector.allOf(req("x", GREATER_THAN, "1")));
        cases.put("x<7", LabelSelector.allOf(req("x", LESS_THAN, "7")));
        cases.put("x=a,y!=b", LabelSelector.allOf(req("x", EQUALS, "a"), req("y", NOT_EQUALS, "b")));
        cases.put("x=a,y!=b,z in (h,i,j)", LabelSelector.allOf(req("x", EQUALS, "a"), req("y", NOT_EQUALS, "b"),
                req("z", IN, "h", "i", "j")));
        cases.put("x notin ( )", LabelSelector.allOf(req("x", NOT_IN, "")));
        cases.put("x notin (, a)", LabelSelector.allOf(req("x", NOT_IN, "", "a")));
        cases.put("a ", LabelSelector.allOf(req("a", EXISTS)));
        cases.put("a in (x,y,notin, z,in)", LabelSelector.allOf(req("a", IN, "in", "notin", "x", "y", "z")));
        cases.put("x==a", LabelSelector.allOf(req("x", EQUALS, "a")));
        cases.forEach((text, expected) -> assertThat(LabelSelector.parse(text)).as("'%s'", text).isEqualTo(expected));
    }

    /** TestSetSelectorParser: the invalid inputs, with Kubernetes' message and the position. */
    @Test
    void kubernetesSetSelectorBadCasesNameThePositionAndWhatWasFound() {
        assertThat(error("x=a||y=b")).startsWith("at position 2: unable to parse requirement: values[0]: Invalid value: \"a||y\": "
                + "a valid label must be an empty string or consist of alphanumeric characters");
        assertThat(error("x,,y")).isEqualTo("at position 2: found ',', expected: identifier after ','");
        assertThat(error(",x,y")).isEqualTo("at position 0: found ',', expected: !, identifier, or 'end of string'");
        assertThat(error("x nott in (y)")).isEqualTo("at position 2: unable to parse requirement: found 'nott', expected: "
                + "in, notin, =, ==, !=, gt, lt");
        assertThat(error("a in (xyz),")).isEqualTo("at position 11: found '', expected: identifier after ','");
        assertThat(error("a in (xyz)b notin ()")).isEqualTo("at position 10: found 'b', expected: ',' or 'end of string'");
        assertThat(error("a in (xyz abc)")).isEqualTo("at position 10: unable to parse requirement: found 'abc', expected: ',' or ')'");
        assertThat(error("a notin(")).isEqualTo("at position 8: unable to parse requirement: found '', expected: ',', ')' or identifier");
        assertThat(error("a (")).isEqualTo("at position 2: unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt");
        assertThat(error("(")).isEqualTo("at position 0: found '(', expected: !, identifier, or 'end of string'");
        assertThat(error("x==a==b")).isEqualTo("at position 4: found '==', expected: ',' or 'end of string'");
        assertThat(error("!x=a")).isEqualTo("at position 2: found '=', expected: ',' or 'end of string'");
        assertThat(error("x<a")).isEqualTo("at position 2: unable to parse requirement: values[0]: Invalid value: \"a\": "
                + "for 'Gt', 'Lt' operators, the value must be an integer");
        assertThat(error("x in a")).isEqualTo("at position 5: unable to parse requirement: found 'a' expected: '('");
        assertThat(error("tier=canary,Bad Key=x")).isEqualTo("at position 16: unable to parse requirement: found 'Key', "
                + "expected: in, notin, =, ==, !=, gt, lt");
        assertThat(error("-bad=x")).startsWith("at position 0: unable to parse requirement: invalid label key \"-bad\": "
                + "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
                + "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
                + "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')");
        assertThat(error("a/b/c")).contains("a qualified name must consist of");
    }

    /** TestToString: requirements print as Kubernetes prints them, in key order. */
    @Test
    void theStringFormIsKubernetesAndRoundTrips() {
        assertThat(LabelSelector.allOf(req("x", IN, "abc", "def"), req("y", NOT_IN, "jkl"), req("z", EXISTS)).describe())
                .isEqualTo("x in (abc,def),y notin (jkl),z");
        assertThat(LabelSelector.allOf(req("x", NOT_IN, "abc", "def"), req("y", NOT_EQUALS, "jkl"), req("z", DOES_NOT_EXIST)).describe())
                .isEqualTo("x notin (abc,def),y!=jkl,!z");
        assertThat(LabelSelector.allOf(req("x", NOT_IN, "abc"), req("y", IN, "jkl", "mno"), req("z", NOT_IN, "")).describe())
                .isEqualTo("x notin (abc),y in (jkl,mno),z notin ()");
        assertThat(LabelSelector.allOf(req("x", GREATER_THAN, "2"), req("y", LESS_THAN, "8"), req("z", EXISTS)).describe())
                .isEqualTo("x>2,y<8,z");
        assertThat(LabelSelector.parse("zone!=eu, tier in (edge,canary)").describe()).isEqualTo("tier in (canary,edge),zone!=eu");
    }

    /** Requirement.Matches: absent labels satisfy notin / != / !key, never in / = / exists / gt / lt. */
    @Test
    void matchingFollowsKubernetes() {
        Map<String, String> labels = Map.of("tier", "edge", "rack", "12");
        assertThat(LabelSelector.parse("tier in (canary,edge)").matches(labels)).isTrue();
        assertThat(LabelSelector.parse("tier notin (canary)").matches(labels)).isTrue();
        assertThat(LabelSelector.parse("zone notin (eu)").matches(labels)).isTrue();
        assertThat(LabelSelector.parse("zone!=eu").matches(labels)).isTrue();
        assertThat(LabelSelector.parse("zone=eu").matches(labels)).isFalse();
        assertThat(LabelSelector.parse("zone in (eu)").matches(labels)).isFalse();
        assertThat(LabelSelector.parse("tier").matches(labels)).isTrue();
        assertThat(LabelSelector.parse("!tier").matches(labels)).isFalse();
        assertThat(LabelSelector.parse("!zone").matches(labels)).isTrue();
        assertThat(LabelSelector.parse("rack>11,rack<13").matches(labels)).isTrue();
        assertThat(LabelSelector.parse("rack>12").matches(labels)).isFalse();
        assertThat(LabelSelector.parse("tier>1").matches(labels)).as("not an integer").isFalse();
        assertThat(LabelSelector.parse("zone<100").matches(labels)).as("absent").isFalse();
        assertThat(LabelSelector.parse("").matches(labels)).isTrue();
        assertThat(LabelSelector.parse("tier=edge,rack=12").matches(labels)).isTrue();
        assertThat(LabelSelector.parse("tier=edge,rack=13").matches(labels)).isFalse();
    }

    @Test
    void theObjectFormReadsToTheSameRequirementsAndProblemsNameTheirField() {
        LabelSelector fromObject = Documents.read("""
                {"matchLabels": {"tier": "edge"}, "matchExpressions": [{"key": "zone", "operator": "NotIn", "values": ["eu"]},
                 {"key": "legacy", "operator": "DoesNotExist"}]}
                """, Documents.Format.JSON, LabelSelector.class);
        assertThat(fromObject).isEqualTo(LabelSelector.parse("tier=edge,zone notin (eu),!legacy"));
        assertThat(Documents.read("\"tier in (a,b)\"", Documents.Format.JSON, LabelSelector.class))
                .isEqualTo(LabelSelector.allOf(LabelRequirement.in("tier", "b", "a")));
        ValidationException e = catchThrowableOfType(ValidationException.class, () -> Documents.read("""
                {"matchLabel": {"tier": "edge"}, "matchExpressions": [{"key": "zone", "operator": "Notin", "values": ["eu"]},
                 {"key": "zone", "operator": "In", "values": []}, {"key": "x", "operator": "Exists", "values": ["y"]}]}
                """, Documents.Format.JSON, LabelSelector.class));
        assertThat(e.problems()).extracting(Problem::path).containsExactly("matchLabel", "matchExpressions[0].operator",
                "matchExpressions[1].values", "matchExpressions[2].values");
        assertThat(e.problems().get(0).message()).isEqualTo("unknown field; did you mean 'matchLabels'?");
        assertThat(e.problems().get(1).message()).isEqualTo("unknown operator; did you mean 'NotIn'?");
        assertThat(e.problems().get(2).message()).isEqualTo("for 'in', 'notin' operators, values set can't be empty");
        assertThat(e.problems().get(3).message()).isEqualTo("values set must be empty for exists and does not exist");
    }

    @Test
    void theSelectorIsWrittenInItsStringForm() {
        assertThat(Documents.toJsonLine(LabelSelector.parse("tier in (b,a),!x"))).isEqualTo("\"tier in (a,b),!x\"");
    }
}
