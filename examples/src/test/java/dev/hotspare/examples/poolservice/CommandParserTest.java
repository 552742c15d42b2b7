package dev.hotspare.examples.poolservice;

import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The stdin command language of the pool service, good lines and bad. */
class CommandParserTest {

    private static List<String> problems(String line) {
        ValidationException e = catchThrowableOfType(() -> CommandParser.parse(line), ValidationException.class);
        assertThat(e).as("'%s' should be rejected", line).isNotNull();
        return e.problems().stream().map(Problem::describe).toList();
    }

    @Test
    void parsesEveryCommand() {
        assertThat(CommandParser.parse("claim pr-1")).contains(new PoolCommand.Claim("pr-1", Optional.empty()));
        assertThat(CommandParser.parse("  claim   pr-2   90s ")).contains(new PoolCommand.Claim("pr-2", Optional.of(Duration.ofSeconds(90))));
        assertThat(CommandParser.parse("claim pr-3 PT1H")).contains(new PoolCommand.Claim("pr-3", Optional.of(Duration.ofHours(1))));
        assertThat(CommandParser.parse("claim pr-4 5m")).contains(new PoolCommand.Claim("pr-4", Optional.of(Duration.ofMinutes(5))));
        assertThat(CommandParser.parse("release pr-1")).contains(new PoolCommand.Release("pr-1"));
        assertThat(CommandParser.parse("explain pr-1")).contains(new PoolCommand.Explain("pr-1"));
        assertThat(CommandParser.parse("delete")).contains(new PoolCommand.Delete());
        assertThat(CommandParser.parse("status")).contains(new PoolCommand.Status());
        assertThat(CommandParser.parse("STATUS")).contains(new PoolCommand.Status());
        assertThat(CommandParser.parse("help")).contains(new PoolCommand.Help());
        assertThat(CommandParser.parse("quit")).contains(new PoolCommand.Quit());
        assertThat(CommandParser.parse("exit")).contains(new PoolCommand.Quit());
    }

    @Test
    void blankLinesAndCommentsAreNothing() {
        assertThat(CommandParser.parse("")).isEmpty();
        assertThat(CommandParser.parse("   ")).isEmpty();
        assertThat(CommandParser.parse("# a comment")).isEmpty();
    }

    @Test
    void badLinesNameTheArgumentAndTheValue() {
        assertThat(problems("clam pr-1")).containsExactly(
                "command: bad value 'clam': unknown command; expected one of [claim, release, explain, status, delete, help, quit]; did you mean 'claim'?");
        assertThat(problems("claim")).containsExactly("claim.name: bad value '<missing>': usage: claim <name> [lifetime]");
        assertThat(problems("claim PR_1 soon")).containsExactly(
                "claim.name: bad value 'PR_1': must be a DNS-1123 label: lower-case letters, digits and '-', starting and ending with a letter or digit",
                "claim.lifetime: bad value 'soon': expected a duration such as 5s, 2m, 1h or PT5S");
        assertThat(problems("claim pr-1 0s")).containsExactly("claim.lifetime: bad value '0s': must be a positive duration");
        assertThat(problems("claim pr-1 5s extra words")).containsExactly(
                "claim: bad value 'extra words': unexpected extra arguments; usage: claim <name> [lifetime]");
        assertThat(problems("release")).containsExactly("release.name: bad value '<missing>': usage: release <name>");
        assertThat(problems("release a b")).containsExactly("release: bad value 'b': unexpected extra arguments; usage: release <name>");
        assertThat(problems("status now")).containsExactly("status: bad value 'now': takes no arguments");
        assertThat(problems("explain")).containsExactly("explain.name: bad value '<missing>': usage: explain <name>");
        assertThat(problems("explain A_1")).singleElement().asString().startsWith("explain.name: bad value 'A_1': must be a DNS-1123 label");
        assertThat(problems("delete ci-pool")).containsExactly("delete: bad value 'ci-pool': takes no arguments");
        assertThat(problems("claim " + "x".repeat(64))).singleElement().asString()
                .startsWith("claim.name: bad value '" + "x".repeat(64) + "': must be at most 63 characters");
    }

    @Test
    void durationsPrintShort() {
        assertThat(DurationText.format(Duration.ofMillis(2500))).isEqualTo("2.5s");
        assertThat(DurationText.format(Duration.ofSeconds(125))).isEqualTo("2m05s");
        assertThat(DurationText.format(Duration.ofMinutes(62))).isEqualTo("1h02m");
        assertThat(DurationText.parse("--every", "250ms")).isEqualTo(Duration.ofMillis(250));
    }
}
