package dev.hotspare.postgres;

import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.lock.Fence;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.spi.StoreUnavailableException;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** With nothing listening, every store reports {@link StoreUnavailableException}, naming itself. */
class StoreUnavailableTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void everyStoreSaysTheDatabaseIsUnavailableWhenNothingListens() throws IOException {
        PGSimpleDataSource nowhere = new PGSimpleDataSource();
        nowhere.setServerNames(new String[] {"127.0.0.1"});
        nowhere.setPortNumbers(new int[] {closedPort()});
        nowhere.setConnectTimeout(2);

        PostgresClaimStore claims = new PostgresClaimStore(nowhere);
        assertUnavailable(() -> claims.submit("pool", "job", Optional.empty(), T0), "claim store");
        assertUnavailable(() -> claims.live("pool"), "claim store");
        assertUnavailable(() -> claims.assign("pool", "job", "m-1", T0), "claim store");
        assertUnavailable(() -> claims.assignOldest("pool", T0), "claim store");
        assertUnavailable(() -> claims.watch("pool", () -> { }), "claim store");
        PostgresLockStore locks = new PostgresLockStore(nowhere);
        assertUnavailable(() -> locks.tryAcquire("scheduler.pong.config", Duration.ofSeconds(1)), "lock store");
        PostgresSchedulerStore schedulers = new PostgresSchedulerStore(nowhere);
        assertUnavailable(() -> schedulers.get("pong"), "scheduler store");
        assertUnavailable(() -> schedulers.saveVersion("pong", new SchedulerVersion(2, 0), ConfigDocument.of("a: 1"), T0,
                new Fence("scheduler.pong.config", 1)), "scheduler store");
        PostgresRolloutStore rollouts = new PostgresRolloutStore(nowhere);
        assertUnavailable(() -> rollouts.load("r1"), "rollout store");
        assertUnavailable(() -> PostgresSchema.migrate(nowhere), "schema");
    }

    private static void assertUnavailable(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String store) {
        assertThatThrownBy(call).isInstanceOf(StoreUnavailableException.class).hasMessageContaining(store)
                .hasMessageContaining("unavailable");
    }

    /** A port nothing listens on: bound to find it, then closed. */
    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
