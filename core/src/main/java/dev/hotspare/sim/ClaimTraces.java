package dev.hotspare.sim;

import dev.hotspare.validation.Problems;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/** Claim traces for the simulator: Poisson arrivals, or a CSV of (claim time, hold duration). */
public final class ClaimTraces {

    private ClaimTraces() {
    }

    /**
     * Poisson arrivals at {@code claimsPerHour} from {@code start} for {@code length}, each held for
     * {@code hold}. Deterministic for a given {@code seed}.
     */
    public static List<ClaimArrival> poisson(double claimsPerHour, Instant start, Duration length, Duration hold, long seed) {
        if (!(claimsPerHour > 0)) {
            throw new IllegalArgumentException("rate: bad value '" + claimsPerHour + "': must be > 0 claims per hour");
        }
        Random random = new Random(seed);
        List<ClaimArrival> out = new ArrayList<>();
        double meanGapSeconds = 3600.0 / claimsPerHour;
        Instant end = start.plus(length);
        Instant t = start;
        while (true) {
            double gap = -Math.log(1.0 - random.nextDouble()) * meanGapSeconds;
            t = t.plusMillis(Math.max(1, Math.round(gap * 1000)));
            if (!t.isBefore(end)) {
                return out;
            }
            out.add(new ClaimArrival(t, hold));
        }
    }

    /**
     * Parses a CSV trace: one claim per line, {@code claim time,hold duration} as ISO-8601 (for example
     * {@code 2026-01-05T09:00:00Z,PT1H}). A header line starting with a letter other than a digit is skipped,
     * as are blank lines and lines starting with {@code #}.
     *
     * @throws dev.hotspare.validation.ValidationException listing every bad line
     */
    public static List<ClaimArrival> parseCsv(List<String> lines) {
        Problems problems = new Problems();
        List<ClaimArrival> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            String where = "line " + (i + 1);
            if (line.isEmpty() || line.startsWith("#") || (i == 0 && !Character.isDigit(line.charAt(0)))) {
                continue;
            }
            String[] cells = line.split(",", -1);
            if (cells.length != 2) {
                problems.add(where, line, "expected two columns: claim time,hold duration");
                continue;
            }
            Instant at = null;
            Duration hold = null;
            try {
                at = Instant.parse(cells[0].strip());
            } catch (DateTimeParseException e) {
                problems.add(where + ".time", cells[0].strip(), "expected an ISO-8601 timestamp such as 2026-01-05T09:00:00Z");
            }
            try {
                hold = Duration.parse(cells[1].strip());
                if (hold.isNegative()) {
                    problems.add(where + ".hold", cells[1].strip(), "must not be negative");
                    hold = null;
                }
            } catch (DateTimeParseException e) {
                problems.add(where + ".hold", cells[1].strip(), "expected an ISO-8601 duration such as PT1H");
            }
            if (at != null && hold != null) {
                out.add(new ClaimArrival(at, hold));
            }
        }
        if (out.isEmpty() && problems.isEmpty()) {
            problems.add("", "<empty>", "the trace has no claims");
        }
        problems.throwIfAny();
        out.sort(Comparator.comparing(ClaimArrival::at));
        return out;
    }
}
