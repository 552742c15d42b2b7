package dev.hotspare.sim;

import dev.hotspare.validation.Problems;
import java.util.Objects;

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
     * {@code 2026-01-05T09:00:00Z,PT1H}). Blank lines and lines starting with {@code #} are skipped anywhere; the
     * first other line is a header, and skipped, when it does not start with a digit. A hold is at most
     * {@link #MAX_HOLD}, and the claims span at most {@link #MAX_SPAN} (a simulation runs through every minute of
     * it).
     *
     * @throws dev.hotspare.validation.ValidationException listing every bad line
     */
    public static List<ClaimArrival> parseCsv(List<String> lines) {
        Problems problems = new Problems();
        List<ClaimArrival> out = new ArrayList<>();
        boolean first = true;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            String where = "line " + (i + 1);
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            boolean header = first && !Character.isDigit(line.charAt(0));
            first = false;
            if (header) {
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
                } else if (hold.compareTo(MAX_HOLD) > 0) {
                    problems.add(where + ".hold", cells[1].strip(), "must be at most " + MAX_HOLD.toDays() + " days");
                    hold = null;
                }
            } catch (DateTimeParseException | ArithmeticException e) {
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
        Duration span = Duration.between(out.get(0).at(), out.get(out.size() - 1).at());
        if (span.compareTo(MAX_SPAN) > 0) {
            problems.add("", out.get(0).at() + " .. " + out.get(out.size() - 1).at(), "the claims span " + span.toDays()
                    + " days; a trace may span at most " + MAX_SPAN.toDays() + " days");
            problems.throwIfAny();
        }
        return out;
    }

    /** The longest hold of a claim in a trace: 365 days. */
    public static final Duration MAX_HOLD = Duration.ofDays(365);
    /** The longest time from a trace's first claim to its last: 3,660 days, as the longest generated trace. */
    public static final Duration MAX_SPAN = Duration.ofDays(3_660);

    /** Claims per hour in office hours on the diurnal trace: the CI pool's peak, 9 to 17 on weekdays. */
    public static final double DIURNAL_PEAK_PER_HOUR = 11;
    /** Claims per hour outside office hours and on weekends on the diurnal trace: about 8 over a 16-hour night. */
    public static final double DIURNAL_QUIET_PER_HOUR = 0.5;

    /**
     * A CI workload's week: {@value #DIURNAL_PEAK_PER_HOUR} claims per hour from 09:00 to 17:00 (UTC) on weekdays,
     * {@value #DIURNAL_QUIET_PER_HOUR} per hour at night and on weekends (about 8 over a night), each held for
     * {@code hold}. A Poisson process whose rate follows the clock; deterministic for a given {@code seed}.
     *
     * @param start  the first instant of the trace
     * @param length how long the trace runs
     * @param hold   how long each claim keeps its member
     * @param seed   the random seed
     * @return the claims, in arrival order
     */
    public static List<ClaimArrival> diurnal(Instant start, Duration length, Duration hold, long seed) {
        return varying(start, length, hold, seed, DIURNAL_PEAK_PER_HOUR, ClaimTraces::diurnalPerHour);
    }

    /**
     * The diurnal trace's true rate, one step per hour where it changes.
     *
     * @param start  the trace's first instant
     * @param length how long it runs
     * @return the steps, in time order
     */
    public static List<RateStep> diurnalRate(Instant start, Duration length) {
        List<RateStep> steps = new ArrayList<>();
        Instant end = start.plus(length);
        for (Instant t = start; t.isBefore(end); t = t.truncatedTo(java.time.temporal.ChronoUnit.HOURS).plus(Duration.ofHours(1))) {
            double rate = diurnalPerHour(t);
            if (steps.isEmpty() || steps.get(steps.size() - 1).perHour() != rate) {
                steps.add(new RateStep(t, rate));
            }
        }
        return steps;
    }

    private static double diurnalPerHour(Instant at) {
        java.time.ZonedDateTime t = at.atZone(java.time.ZoneOffset.UTC);
        boolean weekday = t.getDayOfWeek().getValue() <= 5;
        return weekday && t.getHour() >= 9 && t.getHour() < 17 ? DIURNAL_PEAK_PER_HOUR : DIURNAL_QUIET_PER_HOUR;
    }

    /**
     * Bursts on a low base: {@code basePerHour} claims per hour at random, plus bursts arriving at random about
     * every {@code burstEvery}, each of 5 to 15 claims within 10 minutes (a pipeline fanning out), each claim held
     * for {@code hold}. Deterministic for a given {@code seed}.
     *
     * @param start       the first instant of the trace
     * @param length      how long the trace runs
     * @param hold        how long each claim keeps its member
     * @param basePerHour the background rate, claims per hour
     * @param burstEvery  the mean time between bursts
     * @param seed        the random seed
     * @return the claims, in arrival order
     */
    public static List<ClaimArrival> bursty(Instant start, Duration length, Duration hold, double basePerHour,
                                            Duration burstEvery, long seed) {
        List<ClaimArrival> out = new ArrayList<>(poisson(basePerHour, start, length, hold, seed));
        Instant end = start.plus(length);
        for (Burst burst : bursts(start, length, burstEvery, seed)) {
            for (Instant at : burst.claims()) {
                if (at.isBefore(end)) {
                    out.add(new ClaimArrival(at, hold));
                }
            }
        }
        out.sort(Comparator.comparing(ClaimArrival::at));
        return out;
    }

    /** How long a burst of the bursty trace lasts. */
    static final Duration BURST_LENGTH = Duration.ofMinutes(10);

    /**
     * The bursty trace's true rate: {@code basePerHour}, plus each burst's claims spread over its 10 minutes while it
     * lasts (a policy that knows this knows when a burst comes and how big it is, not when its claims arrive).
     *
     * @param start       the trace's first instant
     * @param length      how long it runs
     * @param basePerHour the background rate
     * @param burstEvery  the mean time between bursts
     * @param seed        the trace's seed
     * @return the steps, in time order
     */
    public static List<RateStep> burstyRate(Instant start, Duration length, double basePerHour, Duration burstEvery, long seed) {
        java.util.TreeMap<Instant, Double> delta = new java.util.TreeMap<>();
        delta.put(start, basePerHour);
        double perHourPerClaim = 3600.0 / BURST_LENGTH.toSeconds();
        for (Burst burst : bursts(start, length, burstEvery, seed)) {
            delta.merge(burst.at(), burst.size() * perHourPerClaim, Double::sum);
            delta.merge(burst.at().plus(BURST_LENGTH), -burst.size() * perHourPerClaim, Double::sum);
        }
        List<RateStep> steps = new ArrayList<>();
        double rate = 0;
        for (var e : delta.entrySet()) {
            rate += e.getValue();
            steps.add(new RateStep(e.getKey(), Math.max(0, Math.round(rate * 1e9) / 1e9)));
        }
        return steps;
    }

    /** A burst: when it starts, how many claims, and when they arrive. */
    private record Burst(Instant at, int size, List<Instant> claims) {
    }

    /** The bursts of the bursty trace (one random source draws gaps, sizes and offsets, in that order). */
    private static List<Burst> bursts(Instant start, Duration length, Duration burstEvery, long seed) {
        Random random = new Random(seed ^ 0x5DEECE66DL);
        Instant end = start.plus(length);
        double meanGap = burstEvery.toSeconds();
        List<Burst> out = new ArrayList<>();
        Instant t = start;
        while (true) {
            t = t.plusSeconds(Math.max(1, Math.round(-Math.log(1.0 - random.nextDouble()) * meanGap)));
            if (!t.isBefore(end)) {
                return out;
            }
            int size = 5 + random.nextInt(11);
            List<Instant> claims = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                claims.add(t.plusMillis((long) (random.nextDouble() * BURST_LENGTH.toMillis())));
            }
            out.add(new Burst(t, size, claims));
        }
    }

    /**
     * A Poisson process whose rate (claims per hour, at most {@code maxPerHour}) follows {@code perHour}, by
     * thinning: candidates at the maximum rate, each kept with probability rate / maximum.
     */
    private static List<ClaimArrival> varying(Instant start, Duration length, Duration hold, long seed, double maxPerHour,
                                              java.util.function.ToDoubleFunction<Instant> perHour) {
        Random keep = new Random(seed * 31 + 7);
        List<ClaimArrival> out = new ArrayList<>();
        for (ClaimArrival candidate : poisson(maxPerHour, start, length, hold, seed)) {
            if (keep.nextDouble() * maxPerHour < perHour.applyAsDouble(candidate.at())) {
                out.add(candidate);
            }
        }
        return out;
    }

    /**
     * One claim of a simulated trace: when it arrives and how long its holder keeps the member.
     *
     * @param at   arrival time
     * @param hold how long the member is held once assigned
     */
    public record ClaimArrival(Instant at, Duration hold) {

        public ClaimArrival {
            Objects.requireNonNull(at, "at");
            Objects.requireNonNull(hold, "hold");
            if (hold.isNegative()) {
                throw new IllegalArgumentException("hold: bad value '" + hold + "': must not be negative");
            }
        }
    }

    /**
     * One step of a trace's true claim rate: from {@code from} on (until the next step) claims arrive at
     * {@code perHour}. Known for the built-in traces (they are generated from it), so a replay can score a policy that
     * knows the rate but not the arrivals.
     *
     * @param from    where the step starts
     * @param perHour claims per hour, not negative
     */
    public record RateStep(Instant from, double perHour) {

        public RateStep {
            Objects.requireNonNull(from, "from");
            if (!(perHour >= 0) || Double.isInfinite(perHour)) {
                throw new IllegalArgumentException("perHour: bad value '" + perHour + "': must be a rate >= 0");
            }
        }

        /**
         * The rate at {@code at} of a step function, 0 before its first step.
         *
         * @param steps the steps, in time order
         * @return claims per hour
         */
        public static double rateAt(List<RateStep> steps, Instant at) {
            int lo = 0;
            int hi = steps.size() - 1;
            int found = -1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                if (!steps.get(mid).from().isAfter(at)) {
                    found = mid;
                    lo = mid + 1;
                } else {
                    hi = mid - 1;
                }
            }
            return found < 0 ? 0 : steps.get(found).perHour();
        }
    }
}
