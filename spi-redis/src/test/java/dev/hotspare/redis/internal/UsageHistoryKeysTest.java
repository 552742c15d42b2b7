package dev.hotspare.redis.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Where the autoscaler's usage points live in Redis. */
class UsageHistoryKeysTest {

    @Test
    void usageHistoryKeysAreHotsparesLayoutNotMaestros() {
        // Item 10 of issue 27, kept ▲: Maestro writes maestro:scale:<type>:<scheduler>; hotspare keeps every key of
        // a scheduler under its Cluster hash tag so the multi-key scripts run on Redis Cluster.
        KeyLayout layout = new KeyLayout("hotspare");
        assertThat(layout.usage("pong", "room")).isEqualTo("hotspare:{pong}:usage:room");
        assertThat(layout.usage("pong", "room")).isNotEqualTo("maestro:scale:room:pong");
        assertThat(layout.usage("pong", "room")).startsWith(layout.scheduler("pong"));
    }
}
