package dev.hotspare.validation;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Checks for names that end up as Kubernetes object names, Redis key parts or SQL values.
 * A DNS-1123 label is the strictest of those and safe in all three, so it is the rule for pool,
 * scheduler and room names.
 */
public final class Names {

    /** Maximum length of a DNS-1123 label. */
    public static final int MAX_LABEL_LENGTH = 63;

    private static final Pattern DNS_1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

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
                && DNS_1123_LABEL.matcher(name).matches();
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
        if (!DNS_1123_LABEL.matcher(name).matches()) {
            return Optional.of("must be a DNS-1123 label: lower-case letters, digits and '-', starting and ending with a letter or digit");
        }
        return Optional.empty();
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
