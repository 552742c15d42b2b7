package dev.hotspare.fleet.lock.spi;

import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.util.regex.Pattern;

/**
 * The syntax of lock keys, shared by every {@link LockStore} so a key valid on one backend is valid on all:
 * one or more DNS-1123 labels joined by {@code '.'}, at most {@value #MAX_LENGTH} characters — a DNS-1123
 * subdomain. That is a legal Kubernetes object name as it is, and contains nothing a Redis key or SQL value
 * could be injected through ({@code : { } * space newline} are all excluded).
 *
 * <p>A list prefix follows the same rule, optionally ending in {@code '.'} (so {@code "scheduler.pong."}
 * lists exactly the locks of scheduler {@code pong}); the empty prefix lists everything.
 */
public final class LockKeys {

    /** Longest key accepted: a DNS-1123 subdomain. */
    public static final int MAX_LENGTH = 253;

    private static final Pattern KEY = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*");

    private LockKeys() {
    }

    /**
     * Whether {@code key} is a valid lock key.
     */
    public static boolean isValid(String key) {
        return key != null && !key.isEmpty() && key.length() <= MAX_LENGTH && KEY.matcher(key).matches();
    }

    /**
     * Returns {@code key} if valid.
     *
     * @throws ValidationException naming field {@code key} and the bad value otherwise
     */
    public static String requireValid(String key) {
        if (!isValid(key)) {
            throw new ValidationException(Problem.of("key", key == null ? Problem.MISSING : key,
                    "must be DNS-1123 labels joined by '.', at most " + MAX_LENGTH + " characters (e.g. 'scheduler.pong.config')"));
        }
        return key;
    }

    /**
     * Returns {@code prefix} if it is empty, a valid key, or a valid key followed by {@code '.'}.
     *
     * @throws ValidationException naming field {@code prefix} and the bad value otherwise
     * @param prefix the key prefix
     */
    public static String requireValidPrefix(String prefix) {
        if (prefix == null) {
            throw new ValidationException(Problem.of("prefix", Problem.MISSING, "must not be null; use \"\" to list every key"));
        }
        String body = prefix.endsWith(".") ? prefix.substring(0, prefix.length() - 1) : prefix;
        if (!prefix.isEmpty() && !isValid(body)) {
            throw new ValidationException(Problem.of("prefix", prefix,
                    "must be empty or a lock key, optionally followed by '.'"));
        }
        return prefix;
    }

    /**
     * Joins already-valid parts with {@code '.'} and validates the result.
     */
    public static String of(String... parts) {
        return requireValid(String.join(".", parts));
    }
}
