package dev.hotspare.fleetserver;

import dev.hotspare.validation.Problem;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * Who may call which route (SECURITY.md): admin routes take a bearer token from the configured set; room routes
 * take the room's own token, an HMAC-SHA256 of {@code scheduler/room} under the service's room-token key, so a
 * room can speak only for itself and nothing has to be stored per room. Every comparison is constant-time, and
 * no token is ever written to a log line or an answer.
 */
final class Authenticator {

    /** Who a route is for. */
    enum Access {
        /** Anyone: the health probe. */
        PUBLIC,
        /** A configured admin token. */
        ADMIN,
        /** The room's own token only: an admin token cannot speak for a room either. */
        ROOM,
        /** The room's own token or an admin token (reading the room's address). */
        ROOM_OR_ADMIN
    }

    /** Shortest admin token accepted: 16 characters (a guessable token is no token). */
    static final int MIN_ADMIN_TOKEN_LENGTH = 16;
    /** Shortest room-token key accepted, in bytes. */
    static final int MIN_ROOM_KEY_BYTES = 32;

    private static final String HMAC = "HmacSHA256";

    private final boolean enabled;
    /** SHA-256 digests of the admin tokens: every comparison is then of equal length. */
    private final List<byte[]> adminDigests;
    private final SecretKeySpec roomKey;

    private Authenticator(boolean enabled, List<String> adminTokens, byte[] roomKey) {
        this.enabled = enabled;
        this.adminDigests = adminTokens.stream().map(Authenticator::sha256).toList();
        this.roomKey = new SecretKeySpec(roomKey.clone(), HMAC);
    }

    static Authenticator of(List<String> adminTokens, byte[] roomKey) {
        return new Authenticator(true, adminTokens, roomKey);
    }

    static Authenticator disabled(byte[] roomKey) {
        return new Authenticator(false, List.of(), roomKey);
    }

    boolean enabled() {
        return enabled;
    }

    /** The token of {@code room} of {@code scheduler}: URL-safe base64 of HMAC-SHA256(key, scheduler + "/" + room). */
    String roomToken(String scheduler, String room) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(roomKey);
            byte[] tag = mac.doFinal((scheduler + "/" + room).getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(tag);
        } catch (GeneralSecurityException e) {
            // HmacSHA256 is required of every JVM.
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    /**
     * Refuses a request to a route of {@code access} whose {@code Authorization} header does not carry the right
     * token: 401 when there is none or it is not valid here, 403 when an admin token is sent for a room report.
     */
    void check(Access access, Optional<String> authorization, String scheduler, String room) {
        if (!enabled || access == Access.PUBLIC) {
            return;
        }
        Optional<String> token = authorization.flatMap(Authenticator::bearer);
        if (token.isEmpty()) {
            throw unauthenticated(authorization.isPresent() ? "<not a bearer token>" : Problem.MISSING,
                    "send 'Authorization: Bearer <token>' with " + who(access));
        }
        boolean admin = isAdmin(token.get());
        switch (access) {
            case ADMIN -> {
                if (!admin) {
                    throw unauthenticated("Bearer <redacted>", "not an admin token of this service");
                }
            }
            case ROOM, ROOM_OR_ADMIN -> {
                boolean own = MessageDigest.isEqual(sha256(token.get()), sha256(roomToken(scheduler, room)));
                if (own || (admin && access == Access.ROOM_OR_ADMIN)) {
                    return;
                }
                if (admin) {
                    throw new ApiException(403, "FORBIDDEN", "forbidden", List.of(Problem.of("Authorization",
                            "Bearer <admin token>", "room reports take the room's own token (HOTSPARE_ROOM_TOKEN in its pod): "
                                    + "an admin token cannot speak for a room")));
                }
                throw unauthenticated("Bearer <redacted>", "not the token of room '" + room + "' of scheduler '" + scheduler + "'");
            }
            default -> throw new IllegalStateException(access.name());
        }
    }

    private static String who(Access access) {
        return switch (access) {
            case ADMIN -> "an admin token";
            case ROOM -> "the room's own token";
            default -> "the room's own token or an admin token";
        };
    }

    private boolean isAdmin(String token) {
        byte[] digest = sha256(token);
        boolean match = false;
        // Every token is compared, so the time taken does not say which one (or whether any) matched.
        for (byte[] admin : adminDigests) {
            match |= MessageDigest.isEqual(digest, admin);
        }
        return match;
    }

    private static Optional<String> bearer(String header) {
        String value = header.strip();
        if (value.length() < 7 || !value.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        String token = value.substring(7).strip();
        return token.isEmpty() ? Optional.empty() : Optional.of(token);
    }

    private static ApiException unauthenticated(Object shown, String why) {
        return new ApiException(401, "UNAUTHENTICATED", "authentication required", List.of(Problem.of("Authorization", shown, why)));
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }
}
