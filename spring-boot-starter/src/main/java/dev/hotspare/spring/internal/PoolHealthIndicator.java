package dev.hotspare.spring.internal;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberState;
import dev.hotspare.pool.PoolSpec;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One pool's health: UP when its member driver and claim store answer, DOWN with the reason when either does not.
 * Details: {@code hot} (unclaimed running members), {@code warm} (unclaimed hibernated ones), {@code claimed},
 * {@code pending} (claims waiting for a member), the spec's {@code size} and {@code runningCount}, every member
 * state's count, and the oldest pending claims with how long each has waited (and why, once the controller can
 * say: {@link PendingClaimReasons}).
 */
public final class PoolHealthIndicator implements HealthIndicator {

    /** Pending claims listed one by one; the count covers the rest. */
    static final int LISTED_PENDING = 10;

    private final PoolRuntimes.Entry pool;
    private final Clock clock;
    private final PendingClaimReasons reasons;

    /**
     * An indicator for {@code pool}.
     *
     * @param clock   the runtime's clock, for how long claims have waited
     * @param reasons why pending claims wait
     */
    public PoolHealthIndicator(PoolRuntimes.Entry pool, Clock clock, PendingClaimReasons reasons) {
        this.pool = pool;
        this.clock = clock;
        this.reasons = reasons;
    }

    @Override
    public Health health() {
        PoolSpec spec = pool.controller().spec();
        String name = spec.name();
        List<Member> members;
        List<Claim> live;
        try {
            members = pool.driver().list(name);
            live = pool.claims().live(name);
        } catch (RuntimeException e) {
            return Health.down().withDetail("error", StoreCheck.reason(e)).build();
        }
        Map<MemberState, Integer> counts = MemberState.count(members);
        List<Claim> pending = live.stream().filter(c -> !c.isAssigned()).sorted(Claim.TOTAL_ORDER).toList();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("hot", counts.get(MemberState.RUNNING));
        details.put("warm", counts.get(MemberState.HIBERNATED));
        details.put("claimed", counts.get(MemberState.CLAIMED));
        details.put("pending", pending.size());
        details.put("size", spec.size());
        details.put("runningCount", spec.runningCount());
        Map<String, Integer> states = new LinkedHashMap<>();
        counts.forEach((state, count) -> states.put(state.tag(), count));
        details.put("members", states);
        if (!pending.isEmpty()) {
            Instant now = clock.instant();
            List<Map<String, Object>> listed = new ArrayList<>();
            for (Claim claim : pending.subList(0, Math.min(LISTED_PENDING, pending.size()))) {
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("name", claim.name());
                Duration waited = Duration.between(claim.createdAt(), now);
                entry.put("waiting", (waited.isNegative() ? Duration.ZERO : waited).toString());
                reasons.reason(pool.controller(), claim).ifPresent(reason -> entry.put("reason", reason));
                listed.add(entry);
            }
            details.put("pendingClaims", listed);
        }
        return Health.up().withDetails(details).build();
    }
}
