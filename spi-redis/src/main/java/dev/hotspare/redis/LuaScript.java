package dev.hotspare.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A Lua script and its SHA-1, computed locally so the first call can already go out as {@code EVALSHA};
 * {@link RedisAccess} loads the body only when the server answers {@code NOSCRIPT} (first use, or after a
 * restart emptied its script cache).
 *
 * @param name a short name for error messages
 * @param body the Lua source
 * @param sha  SHA-1 of the body, lower-case hex, as Redis computes it
 */
record LuaScript(String name, String body, String sha) {

    LuaScript {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(sha, "sha");
    }

    static LuaScript of(String name, String body) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(body.getBytes(StandardCharsets.UTF_8));
            return new LuaScript(name, body, HexFormat.of().formatHex(digest));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM provides SHA-1", e);
        }
    }
}
