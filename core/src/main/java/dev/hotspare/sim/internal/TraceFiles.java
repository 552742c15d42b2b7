package dev.hotspare.sim.internal;

import dev.hotspare.sim.ClaimTraces;
import dev.hotspare.sim.ClaimTraces.ClaimArrival;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;
import dev.hotspare.validation.ValidationException;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;

/**
 * Trace files in the formats public traces come in, read into claims: hotspare's own {@code claim time,hold}
 * CSV, the Azure Functions 2019 per-minute invocation counts, and per-event CSVs whose first column is a timestamp
 * (as in Azure's LLM inference traces). Then stretched in time ({@code dilate}) and thinned ({@code thin}), so a
 * trace of a busier system can stand for a pool's claims.
 */
public final class TraceFiles {

    private TraceFiles() {
    }

    /** The formats a trace file can be in. */
    public enum Format {
        /** hotspare's own: {@code claim time,hold duration} (ISO-8601), one claim per line. */
        CLAIMS,
        /**
         * Azure Functions 2019: {@code HashOwner,HashApp,HashFunction,Trigger,1,2,…,1440}, one row per function with
         * its invocations in each minute of a day; all rows are summed (or only the rows of one function, see
         * {@link Options#function()}), each minute's invocations spread at random (seeded) within it.
         */
        AZURE_FUNCTIONS,
        /** One event per line, the first column a timestamp (ISO-8601, {@code 2023-11-16 18:15:46.6805900} as UTC, or epoch seconds). */
        EVENTS;

        /**
         * Reads a format name as written on a command line: {@code claims}, {@code azure-functions}, {@code events}.
         *
         * @param field the option, named in errors
         * @param text  the name
         */
        public static Format parse(String field, String text) {
            for (Format f : values()) {
                if (f.cliName().equalsIgnoreCase(text == null ? "" : text.strip())) {
                    return f;
                }
            }
            throw new ValidationException(Problem.of(field, text == null ? Problem.MISSING : text,
                    "expected claims, azure-functions or events"));
        }

        /** The name on a command line. */
        public String cliName() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /**
     * How to read a trace file.
     *
     * @param format the format, or empty to detect it from the first line
     * @param hold   the hold of each claim where the file has none (Azure Functions, events)
     * @param dilate how much to stretch time from the first claim (2: half the rate), > 0
     * @param thin   keep every {@code thin}-th claim (1: all), >= 1
     * @param start  the day an Azure Functions file's minute 1 starts (it names no date)
     * @param seed   the seed spreading each minute's invocations within it
     * @param function an Azure Functions file's {@code HashFunction} whose rows alone are read (a function's own
     *               traffic, not the whole region's), or empty to sum every row; compared ignoring case and
     *               surrounding blanks
     */
    public record Options(Optional<Format> format, Duration hold, double dilate, int thin, Instant start, long seed,
                          Optional<String> function) {

        /** Options that sum every row of an Azure Functions file. */
        public Options(Optional<Format> format, Duration hold, double dilate, int thin, Instant start, long seed) {
            this(format, hold, dilate, thin, start, seed, Optional.empty());
        }

        public Options {
            function = function.map(String::strip);
            Problems problems = new Problems();
            function.ifPresent(f -> problems.require(!f.isEmpty() && f.indexOf(',') < 0, "--function", f,
                    "must be a HashFunction from the file (not blank, no comma)"));
            problems.require(!hold.isNegative(), "--hold", hold, "must not be negative");
            problems.require(Double.isFinite(dilate) && dilate > 0, "--dilate", dilate, "must be a factor > 0");
            problems.require(thin >= 1, "--thin", thin, "must be at least 1 (keep every K-th claim)");
            problems.throwIfAny();
        }
    }

    /**
     * Detects a file's format from its first line that is not blank or a comment.
     *
     * @param lines the file
     * @return the format: Azure Functions when the header starts {@code HashOwner}; claims when the first two
     *         columns of the first data line are a time and a duration; events otherwise
     */
    public static Format detect(List<String> lines) {
        boolean header = true;
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.regionMatches(true, 0, "HashOwner", 0, 9)) {
                return Format.AZURE_FUNCTIONS;
            }
            if (header && !Character.isDigit(line.charAt(0))) {
                header = false;
                continue;
            }
            String[] cells = line.split(",", -1);
            return cells.length == 2 && cells[1].strip().toUpperCase(Locale.ROOT).startsWith("P") ? Format.CLAIMS : Format.EVENTS;
        }
        return Format.CLAIMS;
    }

    /**
     * Reads {@code lines} into claims in arrival order.
     *
     * @param lines   the file's lines
     * @param options how to read them
     * @throws ValidationException naming each bad line and field
     */
    public static List<ClaimArrival> read(List<String> lines, Options options) {
        Format format = options.format().orElseGet(() -> detect(lines));
        if (options.function().isPresent() && format != Format.AZURE_FUNCTIONS) {
            throw new ValidationException(Problem.of("--function", options.function().get(),
                    "selects a function of an Azure Functions file; this trace is read as " + format.cliName()));
        }
        return switch (format) {
            case CLAIMS -> reshape(ClaimTraces.parseCsv(lines), options.dilate(), options.thin());
            // Thinned while generated: a day of a busy function can hold millions of invocations.
            case AZURE_FUNCTIONS -> reshape(azure(lines, options), options.dilate(), 1);
            case EVENTS -> reshape(events(lines, options), options.dilate(), options.thin());
        };
    }

    /** Time stretched by {@code dilate} from the first claim, then every {@code thin}-th claim kept. */
    static List<ClaimArrival> reshape(List<ClaimArrival> claims, double dilate, int thin) {
        if (claims.isEmpty()) {
            return claims;
        }
        Instant first = claims.get(0).at();
        List<ClaimArrival> out = new ArrayList<>(claims.size() / thin + 1);
        for (int i = 0; i < claims.size(); i += thin) {
            ClaimArrival c = claims.get(i);
            out.add(dilate == 1 ? c : new ClaimArrival(first.plusNanos(Math.round(Duration.between(first, c.at()).toNanos() * dilate)),
                    c.hold()));
        }
        return out;
    }

    /** The most claims generated from per-minute counts (each is held in memory). */
    static final int MAX_GENERATED = 2_000_000;

    private static List<ClaimArrival> azure(List<String> lines, Options options) {
        Problems problems = new Problems();
        long[] perMinute = new long[1440];
        boolean sawHeader = false;
        Optional<String> wanted = options.function();
        int matched = 0;
        // The first few functions in the file, to name in the error when the wanted one is not there.
        List<String> some = new ArrayList<>();
        int rows = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String where = "line " + (i + 1);
            String[] cells = line.split(",", -1);
            if (!sawHeader) {
                sawHeader = true;
                if (!line.regionMatches(true, 0, "HashOwner", 0, 9) || cells.length != 1444) {
                    problems.add(where, abbreviate(line), "expected the header HashOwner,HashApp,HashFunction,Trigger,1,2,...,1440");
                    break;
                }
                continue;
            }
            if (cells.length != 1444) {
                problems.add(where, cells.length + " fields", "expected 1444: HashOwner,HashApp,HashFunction,Trigger and 1440 minutes");
                continue;
            }
            rows++;
            String function = cells[2].strip();
            if (wanted.isPresent()) {
                if (some.size() < 5) {
                    some.add(function + " (line " + (i + 1) + ")");
                }
                if (!function.equalsIgnoreCase(wanted.get())) {
                    continue; // another function's counts are neither summed nor checked
                }
                matched++;
            }
            for (int m = 0; m < 1440; m++) {
                String cell = cells[4 + m].strip();
                try {
                    long n = cell.isEmpty() ? 0 : Long.parseLong(cell);
                    if (n < 0) {
                        throw new NumberFormatException();
                    }
                    perMinute[m] += n;
                } catch (NumberFormatException e) {
                    problems.add(where + ", field " + (5 + m) + " (minute " + (m + 1) + ")", cell, "expected a count of invocations (0 or more)");
                }
            }
        }
        if (wanted.isPresent() && matched == 0 && problems.isEmpty()) {
            problems.add("--function", wanted.get(), "no row has this HashFunction (field 3); the file's " + rows
                    + " function rows" + (some.isEmpty() ? "" : " start with " + String.join(", ", some)));
        }
        problems.throwIfAny();
        Random random = new Random(options.seed());
        List<ClaimArrival> out = new ArrayList<>();
        long index = 0;
        for (int m = 0; m < 1440; m++) {
            Instant minute = options.start().plus(Duration.ofMinutes(m));
            for (long n = 0; n < perMinute[m]; n++, index++) {
                double offset = random.nextDouble();
                if (index % options.thin() != 0) {
                    continue;
                }
                if (out.size() >= MAX_GENERATED) {
                    throw new ValidationException(Problem.of("--thin", options.thin(), "leaves more than " + MAX_GENERATED
                            + " of the file's invocations; keep fewer (a larger --thin)"));
                }
                out.add(new ClaimArrival(minute.plusMillis((long) (offset * 60_000)), options.hold()));
            }
        }
        if (out.isEmpty()) {
            throw wanted.isPresent()
                    ? new ValidationException(Problem.of("--function", wanted.get(), "this function has no invocations in the file"))
                    : new ValidationException(Problem.of("trace", "<no invocations>", "the trace has no claims"));
        }
        out.sort(Comparator.comparing(ClaimArrival::at));
        return out;
    }

    /** {@code 2023-11-16 18:15:46.6805900} (or with a {@code T}), read as UTC. */
    private static final DateTimeFormatter LOCAL = new DateTimeFormatterBuilder().appendPattern("yyyy-MM-dd")
            .optionalStart().appendLiteral(' ').optionalEnd().optionalStart().appendLiteral('T').optionalEnd()
            .appendPattern("HH:mm:ss").optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true).optionalEnd()
            .toFormatter(Locale.ROOT);

    private static List<ClaimArrival> events(List<String> lines, Options options) {
        Problems problems = new Problems();
        List<ClaimArrival> out = new ArrayList<>();
        boolean first = true;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            boolean header = first && !Character.isDigit(line.charAt(0));
            first = false;
            if (header) {
                continue;
            }
            String cell = line.split(",", 2)[0].strip();
            Optional<Instant> at = timestamp(cell);
            if (at.isEmpty()) {
                problems.add("line " + (i + 1) + ", field 1 (timestamp)", cell,
                        "expected a timestamp: 2026-01-05T09:00:00Z, 2023-11-16 18:15:46.6805900 (UTC) or epoch seconds");
                continue;
            }
            out.add(new ClaimArrival(at.get(), options.hold()));
        }
        if (out.isEmpty() && problems.isEmpty()) {
            problems.add("trace", "<empty>", "the trace has no claims");
        }
        problems.throwIfAny();
        out.sort(Comparator.comparing(ClaimArrival::at));
        return out;
    }

    static Optional<Instant> timestamp(String cell) {
        try {
            return Optional.of(Instant.parse(cell));
        } catch (DateTimeParseException e) {
            // not an instant; try the other forms
        }
        try {
            return Optional.of(LocalDateTime.parse(cell, LOCAL).toInstant(ZoneOffset.UTC));
        } catch (DateTimeParseException e) {
            // not a local date-time either
        }
        try {
            double seconds = Double.parseDouble(cell);
            if (Double.isFinite(seconds) && seconds >= 0 && seconds < 1e11) {
                return Optional.of(Instant.ofEpochMilli(Math.round(seconds * 1000)));
            }
        } catch (NumberFormatException e) {
            // not a number
        }
        return Optional.empty();
    }

    private static String abbreviate(String line) {
        return line.length() <= 60 ? line : line.substring(0, 57) + "...";
    }
}
