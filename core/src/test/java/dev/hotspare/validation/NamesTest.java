package dev.hotspare.validation;

import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The DNS-1123 label check, written without a regex for speed, agrees with the label's regular expression. */
class NamesTest {

    private static final Pattern LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final String ALPHABET = "ab09-Z._ ";

    @Test
    void agreesWithTheLabelRegexOnSeededRandomNames() {
        Random random = new Random(22);
        for (int i = 0; i < 20_000; i++) {
            int length = random.nextInt(70);
            StringBuilder name = new StringBuilder(length);
            for (int k = 0; k < length; k++) {
                name.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
            }
            String candidate = name.toString();
            boolean expected = !candidate.isEmpty() && candidate.length() <= Names.MAX_LABEL_LENGTH
                    && LABEL.matcher(candidate).matches();
            assertThat(Names.isDns1123Label(candidate)).as("'%s' (case %d, seed 22)", candidate, i).isEqualTo(expected);
            assertThat(Names.dns1123LabelProblem(candidate).isEmpty()).as("'%s'", candidate).isEqualTo(expected);
        }
    }

    @Test
    void namesTheBoundaryCases() {
        assertThat(Names.isDns1123Label("a")).isTrue();
        assertThat(Names.isDns1123Label("a-b")).isTrue();
        assertThat(Names.isDns1123Label("-a")).isFalse();
        assertThat(Names.isDns1123Label("a-")).isFalse();
        assertThat(Names.isDns1123Label("-")).isFalse();
        assertThat(Names.isDns1123Label("A")).isFalse();
        assertThat(Names.isDns1123Label("a".repeat(63))).isTrue();
        assertThat(Names.isDns1123Label("a".repeat(64))).isFalse();
        assertThat(Names.dns1123LabelProblem("")).contains("must not be empty");
    }
}
