package dev.hotspare.postgres;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Claim.ClaimOutcome;
import dev.hotspare.pool.ClaimRequest;
import dev.hotspare.pool.spi.ClaimStore;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link PostgresClaimStore#live} reads incrementally: one store object keeps a pool's claims and asks only for
 * what changed. Its answer must always equal a whole read — whoever wrote, and in whatever order the writers
 * committed.
 */
class PostgresIncrementalLiveTest {

    private static final String SCHEMA = "hs_test_claims";
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    private final DataSource ds = TestSchemas.migrated(SCHEMA);
    private final PostgresClaimStore reader = new PostgresClaimStore(ds, SCHEMA);
    private final String pool = "il" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);

    @Test
    void aTransactionThatCommitsAfterALaterOneIsStillSeen() throws Exception {
        PostgresClaimStore writer = new PostgresClaimStore(ds, SCHEMA);
        assertThat(reader.live(pool)).isEmpty();
        try (Connection slow = ds.getConnection()) {
            slow.setAutoCommit(false);
            try (PreparedStatement ps = slow.prepareStatement("INSERT INTO " + SCHEMA + ".claims (pool, name, created_at) VALUES (?, ?, ?)")) {
                ps.setString(1, pool);
                ps.setString(2, "slow");
                ps.setObject(3, OffsetDateTime.ofInstant(T0, ZoneOffset.UTC));
                ps.executeUpdate();
            }
            writer.submit(pool, "fast", Optional.empty(), T0.plusSeconds(1));
            assertThat(reader.live(pool)).extracting(Claim::name).containsExactly("fast");
            slow.commit();
        }
        assertThat(reader.live(pool)).extracting(Claim::name).containsExactly("slow", "fast");
        try (Connection slow = ds.getConnection()) {
            slow.setAutoCommit(false);
            try (PreparedStatement ps = slow.prepareStatement("DELETE FROM " + SCHEMA + ".claims WHERE pool = ? AND name = ?")) {
                ps.setString(1, pool);
                ps.setString(2, "fast");
                ps.executeUpdate();
            }
            writer.submit(pool, "later", Optional.empty(), T0.plusSeconds(2));
            assertThat(reader.live(pool)).extracting(Claim::name).containsExactly("slow", "fast", "later");
            slow.commit();
        }
        assertThat(reader.live(pool)).extracting(Claim::name).containsExactly("slow", "later");
    }

    @Test
    void randomWritesByTwoOtherStoresAlwaysReadAsAWholeRead() {
        long seed = ThreadLocalRandom.current().nextLong();
        Random random = new Random(seed);
        List<ClaimStore> writers = List.of(new PostgresClaimStore(ds, SCHEMA), new PostgresClaimStore(ds, SCHEMA));
        List<String> names = new ArrayList<>();
        for (int step = 0; step < 300; step++) {
            ClaimStore w = writers.get(random.nextInt(2));
            Instant now = T0.plusSeconds(step);
            int op = random.nextInt(6);
            String name = names.isEmpty() ? null : names.get(random.nextInt(names.size()));
            if (op <= 1 || name == null) {
                String fresh = "c-" + step;
                w.submit(pool, ClaimRequest.of(fresh), now);
                names.add(fresh);
            } else if (op == 2) {
                w.assign(pool, name, "m-" + random.nextInt(40), now, Optional.of(ClaimOutcome.SERVED_HOT));
            } else if (op == 3) {
                w.markReady(pool, name, now);
            } else if (op == 4) {
                w.release(pool, name);
                names.remove(name);
            } else {
                w.reserve(pool, "k-" + random.nextInt(10), ClaimRequest.of("r-" + step), Duration.ofSeconds(5), now);
                w.expireReservations(pool, now);
            }
            if (random.nextInt(3) == 0) {
                assertThat(reader.live(pool)).as("seed %d, step %d", seed, step)
                        .isEqualTo(new PostgresClaimStore(ds, SCHEMA).live(pool));
            }
        }
        assertThat(reader.live(pool)).as("seed %d", seed).isEqualTo(new PostgresClaimStore(ds, SCHEMA).live(pool));
    }
}
