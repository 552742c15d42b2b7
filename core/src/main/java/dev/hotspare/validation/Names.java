package dev.hotspare.validation;

import java.util.Optional;

/**
 * Checks for names that end up as Kubernetes object names, Redis key parts or SQL values.
 * A DNS-1123 label is the strictest of those and safe in all three, so it is the rule for pool,
 * scheduler and room names.
 */
public final class Names {

    /** Maximum length of a DNS-1123 label. */
    public static final int MAX_LABEL_LENGTH = 63;

    private Names() {
    }

    /**
     * Whether {@code name} is a DNS-1123 label: lower-case alphanumerics and '-', 1..63 chars, alphanumeric at both ends.
     *
     * @return whether {@code name} is a DNS-1123 label: lower-case alphanumerics and '-', 1..63 chars, alphanumeric
     *         at both ends
     */
    public static boolean isDns1123Label(String name) {
        return name != null && !name.isEmpty() && name.length() <= MAX_LABEL_LENGTH
                && matchesLabelSyntax(name);
    }

    /**
     * Why {@code name} is not a DNS-1123 label, or empty if it is one.
     */
    public static Optional<String> dns1123LabelProblem(String name) {
        if (name == null || name.isEmpty()) {
            return Optional.of("must not be empty");
        }
        if (name.length() > MAX_LABEL_LENGTH) {
            return Optional.of("must be at most " + MAX_LABEL_LENGTH + " characters (DNS-1123 label), has " + name.length());
        }
        if (!matchesLabelSyntax(name)) {
            return Optional.of("must be a DNS-1123 label: lower-case letters, digits and '-', starting and ending with a letter or digit");
        }
        return Optional.empty();
    }

    /**
     * Whether {@code name} matches {@code [a-z0-9]([-a-z0-9]*[a-z0-9])?}, checked without a regex matcher: claim and
     * member names are checked on every hand-out, and a matcher is an allocation each time.
     */
    private static boolean matchesLabelSyntax(String name) {
        int last = name.length() - 1;
        for (int i = 0; i <= last; i++) {
            char c = name.charAt(i);
            boolean alphanumeric = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
            if (!alphanumeric && (c != '-' || i == 0 || i == last)) {
                return false;
            }
        }
        return last >= 0;
    }

    /**
     * Returns {@code name} if it is a DNS-1123 label.
     *
     * @throws ValidationException naming {@code field} and the bad value otherwise
     * @param field the field named in a problem
     */
    public static String requireDns1123Label(String field, String name) {
        dns1123LabelProblem(name).ifPresent(why -> {
            throw new ValidationException(Problem.of(field, name == null ? Problem.MISSING : name, why));
        });
        return name;
    }
}
