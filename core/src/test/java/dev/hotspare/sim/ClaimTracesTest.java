package dev.hotspare.sim;

import dev.hotspare.sim.ClaimTraces.ClaimArrival;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ClaimTracesTest {

    static final Instant MONDAY = Instant.parse("2026-01-05T00:00:00Z");

    @Test
    void theDiurnalTraceHasItsOfficeHoursPeakAndQuietNightsAndWeekends() {
        List<ClaimArrival> week = ClaimTraces.diurnal(MONDAY, Duration.ofDays(28), Duration.ofHours(1), 42);
        long office = week.stream().filter(c -> officeHours(c.at())).count();
        long quiet = week.size() - office;
        // 20 weekdays x 8 h x 11/h = 1760; (672 - 160) h x 0.5/h = 256. Poisson: within a few standard deviations.
        assertThat(office).isBetween(1760L - 150, 1760L + 150);
        assertThat(quiet).isBetween(256L - 60, 256L + 60);
        assertThat(week).isSortedAccordingTo(java.util.Comparator.comparing(ClaimArrival::at));
        assertThat(ClaimTraces.diurnal(MONDAY, Duration.ofDays(28), Duration.ofHours(1), 42)).as("deterministic").isEqualTo(week);
    }

    @Test
    void theBurstyTraceFansOutInBursts() {
        List<ClaimArrival> trace = ClaimTraces.bursty(MONDAY, Duration.ofDays(7), Duration.ofMinutes(30), 1, Duration.ofHours(4), 7);
        // Some 10-minute window holds at least 5 claims, where a 1/h background almost never puts 5.
        int most = 0;
        for (int i = 0; i < trace.size(); i++) {
            int j = i;
            while (j < trace.size() && trace.get(j).at().isBefore(trace.get(i).at().plus(Duration.ofMinutes(10)))) {
                j++;
            }
            most = Math.max(most, j - i);
        }
        assertThat(most).isGreaterThanOrEqualTo(5);
        assertThat(trace).isSortedAccordingTo(java.util.Comparator.comparing(ClaimArrival::at));
        assertThat(ClaimTraces.bursty(MONDAY, Duration.ofDays(7), Duration.ofMinutes(30), 1, Duration.ofHours(4), 7)).isEqualTo(trace);
    }

    private static boolean officeHours(Instant at) {
        ZonedDateTime t = at.atZone(ZoneOffset.UTC);
        return t.getDayOfWeek().getValue() <= 5 && t.getHour() >= 9 && t.getHour() < 17;
    }
}
