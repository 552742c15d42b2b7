package dev.hotspare.pool;

import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The first phase of a two-phase claim: a claim made under an idempotency key that the claimer must confirm before
 * {@code expiresAt}, or it ends by itself. The same key always answers with the same reservation (the same claim,
 * and the same member once one is assigned) while the claim is live, so a retry, a duplicate request or a claimer
 * that lost the answer never takes a second member.
 *
 * @param key         the claimer's idempotency key ({@link #requireValidKey})
 * @param claim       the claim the reservation holds, as stored
 * @param expiresAt   when an unconfirmed reservation ends; ignored once confirmed
 * @param confirmedAt when it was confirmed; empty while it is only reserved
 */
public record Reservation(String key, Claim claim, Instant expiresAt, Optional<Instant> confirmedAt) {

    /** Longest idempotency key accepted: room for a UUID, a request id and a prefix. */
    public static final int MAX_KEY_LENGTH = 128;
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9._~:-]+");

    /**
     * @throws ValidationException if the key is invalid or a part is missing
     */
    public Reservation {
        requireValidKey(key);
        Objects.requireNonNull(claim, "claim");
        Objects.requireNonNull(expiresAt, "expiresAt");
        confirmedAt = confirmedAt == null ? Optional.empty() : confirmedAt;
    }

    /** Whether the claimer confirmed it: it is then an ordinary claim and never expires as a reservation. */
    public boolean confirmed() {
        return confirmedAt.isPresent();
    }

    /** Whether it is still only reserved and its time ran out at {@code now}. */
    public boolean isExpiredAt(Instant now) {
        return !confirmed() && !now.isBefore(expiresAt);
    }

    /**
     * Checks an idempotency key: 1 to {@value #MAX_KEY_LENGTH} characters of ASCII letters, digits and
     * {@code . _ ~ : -} — what fits a URL, a header and a database column unescaped.
     *
     * @throws ValidationException naming field {@code key} and the value
     */
    public static String requireValidKey(String key) {
        if (key == null) {
            throw new ValidationException(Problem.of("key", Problem.MISSING, "required"));
        }
        if (key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
            throw new ValidationException(Problem.of("key", key, "must be 1 to " + MAX_KEY_LENGTH + " characters long"));
        }
        if (!KEY.matcher(key).matches()) {
            throw new ValidationException(Problem.of("key", key,
                    "may only contain ASCII letters, digits and . _ ~ : -"));
        }
        return key;
    }
}
