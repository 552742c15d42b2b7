package dev.hotspare.pool;

import dev.hotspare.json.Documents;
import dev.hotspare.pool.sizing.SizerSettings;
import dev.hotspare.pool.sizing.SizerSettings.ScheduledOverride;
import dev.hotspare.pool.sizing.SizerSettings.WaitTarget;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code runningCount: auto} in a spec file: what it reads to, and every bad field named with its value. */
class AutoSizingSpecTest {

    static PoolSpec yaml(String text) {
        return Documents.read(text, Documents.Format.YAML, PoolSpec.class);
    }

    static String messageOf(String text) {
        return assertThatThrownBy(() -> yaml(text)).isInstanceOf(ValidationException.class).actual().getMessage();
    }

    @Test
    void readsEveryFieldOfTheAutoSizingBlock() {
        PoolSpec spec = yaml("""
                name: ci
                size: 10
                runningCount: auto
                autoSizing:
                  targetWait: p95 <= PT30S
                  min: 1
                  max: 8
                  maxStep: 3
                  cooldown: 15m
                  overrides: ["Mon-Fri 08:50-17:00 runningCount >= 4"]
                  zone: Europe/Paris
                  apply: false
                """);
        SizerSettings s = spec.autoSizing().orElseThrow();
        assertThat(s.target()).isEqualTo(new WaitTarget(new BigDecimal("95"), Duration.ofSeconds(30)));
        assertThat(s.min()).isEqualTo(1);
        assertThat(s.max()).isEqualTo(8);
        assertThat(s.maxStep()).isEqualTo(3);
        assertThat(s.cooldown()).isEqualTo(Duration.ofMinutes(15));
        assertThat(s.overrides()).extracting(ScheduledOverride::text).containsExactly("Mon-Fri 08:50-17:00 runningCount >= 4");
        assertThat(s.zone()).isEqualTo(ZoneId.of("Europe/Paris"));
        assertThat(s.apply()).isFalse();
        assertThat(spec.runningCount()).as("starts from min").isEqualTo(1);
    }

    @Test
    void theDefaultsAreTheSizersAndApplyIsOn() {
        PoolSpec spec = yaml("name: ci\nsize: 4\nautoSizing: {targetWait: p99 = 2m, max: 5}\n");
        SizerSettings expected = SizerSettings.of(WaitTarget.parse("t", "p99 <= PT2M"), 0, 5);
        assertThat(spec.autoSizing()).contains(expected);
        assertThat(spec.runningCount()).isZero();
        assertThat(spec).isEqualTo(PoolSpec.builder("ci").size(4).autoSizing(expected).build());
    }

    @Test
    void aSpecWithoutItIsAsBefore() {
        PoolSpec spec = yaml("name: ci\nsize: 3\nrunningCount: 1\n");
        assertThat(spec.autoSizing()).isEqualTo(Optional.empty());
        assertThat(spec).isEqualTo(PoolSpec.builder("ci").size(3).runningCount(1).build());
    }

    @Test
    void autoWithoutTheBlockIsNamed() {
        assertThat(messageOf("name: ci\nsize: 3\nrunningCount: auto\n"))
                .isEqualTo("runningCount: bad value 'auto': needs an autoSizing block with at least targetWait and max");
    }

    @Test
    void everyBadFieldOfTheBlockIsNamedWithItsValue() {
        assertThat(messageOf("""
                name: ci
                size: 3
                autoSizing:
                  targetWait: p95 under a minute
                  overrides: ["Mon-Fri 8-17 runningCount >= 4"]
                  zone: Mars/Olympus
                """)).contains(
                "autoSizing.targetWait: bad value 'p95 under a minute': expected a wait target such as p95 <= PT30S or p99=2m",
                "autoSizing.max: bad value '<missing>': required: the most hot spares the pool may run",
                "autoSizing.overrides[0]: bad value 'Mon-Fri 8-17 runningCount >= 4'",
                "autoSizing.zone: bad value 'Mars/Olympus': expected a time zone such as UTC or Europe/Paris");
    }

    @Test
    void badBoundsAreNamed() {
        assertThat(messageOf("name: ci\nsize: 3\nautoSizing: {targetWait: p95<=1m, min: 4, max: 2, maxStep: 0}\n"))
                .contains("autoSizing.max: bad value '2': must be at least min (4)",
                        "autoSizing.maxStep: bad value '0': must be at least 1");
        assertThat(messageOf("name: ci\nsize: 3\nrunningCount: 9\nautoSizing: {targetWait: p95<=1m, max: 5}\n"))
                .contains("runningCount: bad value '9': with autoSizing it is the count the pool starts from and must lie "
                        + "within autoSizing.min..max (0..5)");
    }

    @Test
    void anUnknownFieldOfTheBlockGetsItsSuggestion() {
        assertThat(messageOf("name: ci\nsize: 3\nautoSizing: {targetWait: p95<=1m, max: 5, maxStpe: 2}\n"))
                .contains("autoSizing.maxStpe: bad value 'maxStpe': unknown field; did you mean 'maxStep'?");
    }

    @Test
    void aBadRunningCountKeepsItsMessage() {
        assertThat(messageOf("name: ci\nsize: 3\nrunningCount: two\n")).contains("runningCount: bad value 'two': expected a whole number");
    }
}
