package dev.hotspare.rollout;

import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Kubernetes label syntax, shared by the selectors, the spec and the inventory. The rules and the wording of
 * the messages are those of Kubernetes ({@code k8s.io/apimachinery/pkg/util/validation}: {@code IsQualifiedName},
 * {@code IsValidLabelValue}), so a label Kubernetes accepts is accepted here and vice versa.
 */
final class Labels {

    private static final String QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    private static final String QUALIFIED_NAME_MSG =
            "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
    private static final String LABEL_VALUE_FMT = "(" + QUALIFIED_NAME_FMT + ")?";
    private static final String LABEL_VALUE_MSG = "a valid label must be an empty string or consist of alphanumeric "
            + "characters, '-', '_' or '.', and must start and end with an alphanumeric character";
    private static final String SUBDOMAIN_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
    private static final String SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
            + "characters, '-' or '.', and must start and end with an alphanumeric character";

    private static final Pattern QUALIFIED_NAME = Pattern.compile(QUALIFIED_NAME_FMT);
    private static final Pattern LABEL_VALUE = Pattern.compile(LABEL_VALUE_FMT);
    private static final Pattern SUBDOMAIN = Pattern.compile(SUBDOMAIN_FMT);
    private static final Pattern VERSION = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._+-]*");

    /** Longest label value and name part of a key. */
    static final int MAX_NAME_LENGTH = 63;
    /** Longest key prefix (a DNS subdomain). */
    static final int MAX_PREFIX_LENGTH = 253;

    private Labels() {
    }

    /** Everything wrong with label key {@code key} (Kubernetes' {@code IsQualifiedName}); empty if it is valid. */
    static List<String> keyProblems(String key) {
        List<String> errors = new ArrayList<>();
        String[] parts = key.split("/", -1);
        String name;
        if (parts.length == 1) {
            name = parts[0];
        } else if (parts.length == 2) {
            String prefix = parts[0];
            name = parts[1];
            if (prefix.isEmpty()) {
                errors.add("prefix part must be non-empty");
            } else {
                if (prefix.length() > MAX_PREFIX_LENGTH) {
                    errors.add("prefix part must be no more than " + MAX_PREFIX_LENGTH + " characters");
                }
                if (!SUBDOMAIN.matcher(prefix).matches()) {
                    errors.add("prefix part " + regexError(SUBDOMAIN_MSG, SUBDOMAIN_FMT, "example.com"));
                }
            }
        } else {
            errors.add("a qualified name " + regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")
                    + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
            return errors;
        }
        if (name.isEmpty()) {
            errors.add("name part must be non-empty");
        } else if (name.length() > MAX_NAME_LENGTH) {
            errors.add("name part must be no more than " + MAX_NAME_LENGTH + " characters");
        }
        if (!QUALIFIED_NAME.matcher(name).matches()) {
            errors.add("name part " + regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc"));
        }
        return errors;
    }

    /** Everything wrong with label value {@code value} (Kubernetes' {@code IsValidLabelValue}); empty if it is valid. */
    static List<String> valueProblems(String value) {
        List<String> errors = new ArrayList<>();
        if (value.length() > MAX_NAME_LENGTH) {
            errors.add("must be no more than " + MAX_NAME_LENGTH + " characters");
        }
        if (!LABEL_VALUE.matcher(value).matches()) {
            errors.add(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"));
        }
        return errors;
    }

    /** Kubernetes' {@code RegexError} wording, examples included, so messages read the same as kubectl's. */
    private static String regexError(String message, String format, String... examples) {
        StringBuilder s = new StringBuilder(message).append(" (e.g. ");
        for (int i = 0; i < examples.length; i++) {
            if (i > 0) {
                s.append(",  or ");
            }
            s.append('\'').append(examples[i]).append('\'');
        }
        return s.append(", regex used for validation is '").append(format).append("')").toString();
    }

    /** Checks every key and value of {@code labels}; problems at {@code path} (keys) and {@code path.key} (values). */
    static void check(Problems problems, String path, Map<String, String> labels) {
        labels.forEach((key, value) -> {
            List<String> keyErrors = key == null ? List.of("must not be null") : keyProblems(key);
            if (!keyErrors.isEmpty()) {
                problems.add(path, key, "invalid label key: " + String.join("; ", keyErrors));
                return;
            }
            List<String> valueErrors = value == null ? List.of("must not be null") : valueProblems(value);
            if (!valueErrors.isEmpty()) {
                problems.add(path + "." + key, value, "invalid label value: " + String.join("; ", valueErrors));
            }
        });
    }

    static void checkVersion(Problems problems, String path, String version) {
        if (version == null) {
            problems.add(path, Problem.MISSING, "required field is missing");
        } else if (version.length() > 128 || !VERSION.matcher(version).matches()) {
            problems.add(path, version, "version must be 1..128 letters, digits, '.', '_', '+', '-', starting with a letter or digit");
        }
    }
}
