package dev.hotspare.spring.internal;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Health reasons name the cause in words, never a class name. */
class StoreCheckTest {

    @Test
    void networkCausesAreNamedInWords() {
        assertThat(StoreCheck.reason(new IllegalStateException("Failed to connect",
                new UncheckedIOException(new IOException("java.net.ConnectException: Connection refused", new ConnectException("Connection refused"))))))
                .isEqualTo("Failed to connect (connection refused)");
        assertThat(StoreCheck.reason(new RuntimeException("java.net.UnknownHostException: db.invalid", new UnknownHostException("db.invalid"))))
                .isEqualTo("host not resolvable: db.invalid");
        assertThat(StoreCheck.reason(new IllegalStateException())).isEqualTo("no answer");
        assertThat(StoreCheck.reason(new IllegalStateException("io.lettuce.core.RedisCommandTimeoutException: Command timed out")))
                .isEqualTo("Command timed out");
    }

    @Test
    void aDownCheckEndsWithItsReason() {
        StoreCheck down = StoreCheck.down(Map.of("store", "redis"), "no answer to PING within 1000 ms");
        assertThat(down.up()).isFalse();
        assertThat(down.details()).containsExactly(Map.entry("store", "redis"), Map.entry("error", "no answer to PING within 1000 ms"));
    }
}
