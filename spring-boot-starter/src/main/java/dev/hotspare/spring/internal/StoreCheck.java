package dev.hotspare.spring.internal;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The answer of a store's health check.
 *
 * @param up      whether the store answered
 * @param details what to show: the store, where it is, and on failure the reason (a message, never a stack trace
 *                or a class name)
 */
public record StoreCheck(boolean up, Map<String, Object> details) {

    /** Causes looked at; chains are short, and a cyclic one must not loop. */
    private static final int MAX_CAUSES = 16;

    /** A qualified Java class name, with the ": " after it, wherever exception messages embed one. */
    private static final Pattern CLASS_NAME_PREFIX = Pattern.compile("\\b(?:[a-z_][\\w$]*\\.)+[A-Z][\\w$]*(?:Exception|Error)\\b:? ?");

    /**
     * A check result; {@code details} is copied, order kept.
     *
     * @param up      whether the store answered
     * @param details what to show
     */
    public StoreCheck {
        details = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(details, "details")));
    }

    /**
     * The store answered.
     *
     * @param details what to show
     * @return an up result
     */
    public static StoreCheck up(Map<String, Object> details) {
        return new StoreCheck(true, details);
    }

    /**
     * The store did not answer.
     *
     * @param details what to show
     * @param reason  why, as a message for people
     * @return a down result whose details end with {@code error}
     */
    public static StoreCheck down(Map<String, Object> details, String reason) {
        Map<String, Object> all = new LinkedHashMap<>(details);
        all.put("error", reason);
        return new StoreCheck(false, all);
    }

    /**
     * A message for people from a failure: the first message in its chain, and the network cause underneath when
     * there is one ("host not resolvable", "connection refused", "timed out"). Never a class name.
     *
     * @param failure what went wrong
     */
    static String reason(Throwable failure) {
        String first = null;
        String network = null;
        int depth = 0;
        for (Throwable t = failure; t != null && depth < MAX_CAUSES; t = t.getCause(), depth++) {
            if (first == null) {
                first = words(t.getMessage());
            }
            if (t instanceof java.net.UnknownHostException) {
                network = "host not resolvable" + suffix(words(t.getMessage()));
            } else if (t instanceof java.net.ConnectException) {
                network = "connection refused" + suffix(words(t.getMessage()));
            } else if (t instanceof java.net.SocketTimeoutException || t instanceof java.net.http.HttpTimeoutException) {
                network = "timed out";
            }
        }
        if (network != null) {
            return first == null || first.contains(network) || network.contains(first) ? network : first + " (" + network + ")";
        }
        return first == null ? "no answer" : first;
    }

    private static String words(String message) {
        if (message == null) {
            return null;
        }
        // Wrapping exceptions repeat their cause as "java.net.ConnectException: ..."; keep the words only.
        String stripped = CLASS_NAME_PREFIX.matcher(message.strip()).replaceAll("").strip();
        return stripped.isEmpty() ? null : stripped;
    }

    private static String suffix(String message) {
        return message == null || message.equalsIgnoreCase("connection refused") ? "" : ": " + message;
    }
}
