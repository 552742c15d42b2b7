package dev.hotspare.fleet.versions;

import dev.hotspare.fleet.versions.ConfigDiff.ChangeKind;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scheduler version {@code vMAJOR.MINOR}. A major release changes the rooms themselves and they are
 * replaced; a minor release changes only how hotspare manages them. A new scheduler starts at {@code v1.0}.
 *
 * @param major at least 1
 * @param minor at least 0
 */
public record SchedulerVersion(int major, int minor) implements Comparable<SchedulerVersion> {

    /** The first version of every scheduler. */
    public static final SchedulerVersion FIRST = new SchedulerVersion(1, 0);

    private static final Pattern TEXT = Pattern.compile("v?(\\d{1,9})(?:\\.(\\d{1,9}))?");
    private static final Comparator<SchedulerVersion> ORDER =
            Comparator.comparingInt(SchedulerVersion::major).thenComparingInt(SchedulerVersion::minor);

    public SchedulerVersion {
        if (major < 1) {
            throw new IllegalArgumentException("major: bad value '" + major + "': must be at least 1");
        }
        if (minor < 0) {
            throw new IllegalArgumentException("minor: bad value '" + minor + "': must not be negative");
        }
    }

    /**
     * Parses {@code v2.3} (the leading {@code v} is optional); a version without a minor, {@code v3}, is
     * {@code v3.0}, as Maestro reads it.
     *
     * @param text the version
     * @throws ValidationException naming field {@code version} and the bad value
     */
    public static SchedulerVersion parse(String text) {
        Matcher m = text == null ? null : TEXT.matcher(text.trim());
        if (m == null || !m.matches() || Integer.parseInt(m.group(1)) < 1) {
            throw new ValidationException(Problem.of("version", text == null ? Problem.MISSING : text,
                    "must look like v1.0 or v1: 'v', a major of at least 1, optionally '.' and a minor"));
        }
        return new SchedulerVersion(Integer.parseInt(m.group(1)), m.group(2) == null ? 0 : Integer.parseInt(m.group(2)));
    }

    /**
     * The next major release, {@code v(major+1).0}.
     */
    public SchedulerVersion nextMajor() {
        return new SchedulerVersion(Math.addExact(major, 1), 0);
    }

    /**
     * The next minor release, {@code vmajor.(minor+1)}.
     */
    public SchedulerVersion nextMinor() {
        return new SchedulerVersion(major, Math.addExact(minor, 1));
    }

    /**
     * The release after this one for a change of {@code kind}; {@link ChangeKind#NONE} keeps this version.
     */
    public SchedulerVersion next(ChangeKind kind) {
        return switch (kind) {
            case MAJOR -> nextMajor();
            case MINOR -> nextMinor();
            case NONE -> this;
        };
    }

    @Override
    public int compareTo(SchedulerVersion other) {
        return ORDER.compare(this, other);
    }

    /** {@code v1.0}. */
    @Override
    public String toString() {
        return "v" + major + "." + minor;
    }
}
