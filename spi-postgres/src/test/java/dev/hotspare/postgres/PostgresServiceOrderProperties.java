package dev.hotspare.postgres;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Claim.ClaimClass;
import dev.hotspare.pool.ClaimRequest;
import dev.hotspare.pool.PoolPlanner;
import dev.hotspare.testkit.property.Gen;
import dev.hotspare.testkit.property.Property;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import static dev.hotspare.testkit.property.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store-side assignment with aging serves claims in exactly the pool planner's service order
 * ({@link PoolPlanner#serviceOrder}), for any mix of classes, creation times and aging limits.
 */
class PostgresServiceOrderProperties {

    private static final String SCHEMA = "hs_test_claims";
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    private final PostgresClaimStore store = new PostgresClaimStore(TestSchemas.migrated(SCHEMA), SCHEMA);

    @Property(tries = 60)
    void assignOldestWithAgingDrainsInTheServiceOrder() {
        forAll(Gen.integers(0, 30).list(1, 12), Gen.integers(0, 3).list(12, 12), Gen.integers(0, 40)).check((createdMinutes, priorities, agingMinutes) -> {
            String pool = "so" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffffL);
            List<Claim> submitted = new ArrayList<>();
            for (int i = 0; i < createdMinutes.size(); i++) {
                ClaimRequest request = ClaimRequest.of(String.format("c-%02d", i))
                        .withClass(new ClaimClass("p" + priorities.get(i), priorities.get(i)));
                submitted.add(store.submit(pool, request, T0.plus(Duration.ofMinutes(createdMinutes.get(i)))));
                store.offerMember(pool, String.format("m-%02d", i), T0);
            }
            Instant at = T0.plus(Duration.ofMinutes(30));
            Duration aging = Duration.ofMinutes(agingMinutes);
            List<String> drained = new ArrayList<>();
            for (Optional<Claim> next = store.assignOldest(pool, at, aging); next.isPresent(); next = store.assignOldest(pool, at, aging)) {
                drained.add(next.get().name());
            }
            List<String> expected = submitted.stream().sorted(PoolPlanner.serviceOrder(aging, at)).map(Claim::name).toList();
            assertThat(drained).isEqualTo(expected);
        });
    }

    /**
     * Issue 24 item 5: the store-side assignment is tied to the planner. Without aging (the two-argument form, and
     * batches of any size with an aging limit longer than any wait) and with aging in batches, claims drain in
     * {@link PoolPlanner#serviceOrder} and the k-th claim drained gets the k-th oldest free member.
     */
    @Property(tries = 60)
    void batchesAndTheFormWithoutAgingDrainInTheServiceOrder() {
        forAll(Gen.integers(0, 30).list(1, 12), Gen.integers(0, 3).list(12, 12),
                Gen.combine(Gen.integers(1, 5), Gen.integers(-1, 40), (batch, aging) -> new int[] {batch, aging}))
                .check((createdMinutes, priorities, batchAndAging) -> {
            int batch = batchAndAging[0];
            // -1: no aging at all (the two-argument form when the batch is 1).
            Duration aging = batchAndAging[1] < 0 ? Duration.ofDays(365) : Duration.ofMinutes(batchAndAging[1]);
            String pool = "sb" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffffL);
            List<Claim> submitted = new ArrayList<>();
            for (int i = 0; i < createdMinutes.size(); i++) {
                ClaimRequest request = ClaimRequest.of(String.format("c-%02d", i))
                        .withClass(new ClaimClass("p" + priorities.get(i), priorities.get(i)));
                submitted.add(store.submit(pool, request, T0.plus(Duration.ofMinutes(createdMinutes.get(i)))));
                store.offerMember(pool, String.format("m-%02d", i), T0);
            }
            Instant at = T0.plus(Duration.ofMinutes(30));
            List<Claim> drained = new ArrayList<>();
            while (true) {
                List<Claim> next = batchAndAging[1] < 0 && batch == 1
                        ? store.assignOldest(pool, at).stream().toList()
                        : store.assignOldest(pool, at, aging, batch);
                if (next.isEmpty()) {
                    break;
                }
                assertThat(next.size()).isLessThanOrEqualTo(batch);
                drained.addAll(next);
            }
            List<String> expected = submitted.stream().sorted(PoolPlanner.serviceOrder(aging, at)).map(Claim::name).toList();
            assertThat(drained).extracting(Claim::name).as("batch %d, aging %s", batch, aging).isEqualTo(expected);
            for (int k = 0; k < drained.size(); k++) {
                assertThat(drained.get(k).assignedMember()).as("member of the %d-th claim drained", k)
                        .contains(String.format("m-%02d", k));
            }
        });
    }
}
