package dev.hotspare.redis.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A Lua script and its SHA-1, computed locally so the first call can already go out as {@code EVALSHA};
 * {@link RedisAccess} sends the body only when the server answers {@code NOSCRIPT} (first use, or after a
 * restart emptied its script cache).
 *
 * @param name a short name for error messages
 * @param body the Lua source
 * @param sha  SHA-1 of the body, lower-case hex, as Redis computes it
 */
public record LuaScript(String name, String body, String sha) {

    /** Where the scripts live on the class path. */
    static final String DIRECTORY = "/dev/hotspare/redis/lua/";

    /** Checks every part is present. */
    public LuaScript {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(sha, "sha");
    }

    /** The script {@code body}, with its SHA-1. */
    public static LuaScript of(String name, String body) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(body.getBytes(StandardCharsets.UTF_8));
            return new LuaScript(name, body, HexFormat.of().formatHex(digest));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM provides SHA-1", e);
        }
    }

    /**
     * The script made of the class-path resources {@code files} (under {@value #DIRECTORY}), joined in order: a
     * shared prelude such as {@code room-keys.lua} first, then the script itself.
     *
     * @throws IllegalStateException if a file is missing or not plain ASCII (the SHA is computed over UTF-8, and
     *                               only ASCII is sure to reach Redis as the same bytes whatever the client encodes with)
     */
    public static LuaScript load(String name, String... files) {
        StringBuilder body = new StringBuilder();
        for (String file : files) {
            String path = DIRECTORY + file;
            try (InputStream in = LuaScript.class.getResourceAsStream(path)) {
                if (in == null) {
                    throw new IllegalStateException("script '" + name + "': resource " + path + " is missing from the jar");
                }
                String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                for (int i = 0; i < text.length(); i++) {
                    if (text.charAt(i) > 0x7f) {
                        throw new IllegalStateException("script '" + name + "': " + path + " has a non-ASCII character at "
                                + i + ": '" + text.charAt(i) + "'");
                    }
                }
                body.append(text);
            } catch (IOException e) {
                throw new UncheckedIOException("script '" + name + "': reading " + path, e);
            }
        }
        return of(name, body.toString());
    }
}
