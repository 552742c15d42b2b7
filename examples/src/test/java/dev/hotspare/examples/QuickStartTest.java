package dev.hotspare.examples;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class QuickStartTest {

    @Test
    void theReadmeQuickStartClaimsAHotMemberAndPrintsThePlan() {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            QuickStart.main(new String[0]);
        } finally {
            System.setOut(original);
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("claimed ci-pool-1 at 2026-01-01T00:45:00Z");
        // The claim was handed out at once, so the pass that follows plans no assignment: only the refill.
        assertThat(out).contains("\"assignments\" : [ ]").contains("running slot 1 of 1").contains("\"creates\" : [ {");
    }
}
