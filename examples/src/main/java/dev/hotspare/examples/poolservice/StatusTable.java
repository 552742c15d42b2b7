package dev.hotspare.examples.poolservice;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolPlanner;
import dev.hotspare.pool.PoolSpec;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The {@code status} answer: a summary line and one row per member in the pool's total order (the order the
 * pool resumes, assigns and deletes by), then the claims still waiting. Pure: renders what it is given.
 */
final class StatusTable {

    private StatusTable() {
    }

    /**
     * @param at renders an instant (the service prints time since it started)
     */
    static List<String> render(PoolSpec spec, List<Member> members, List<Claim> claims, Instant now,
                               Function<Instant, String> at) {
        // The planner is pure, so asking it for the counts changes nothing; it classifies exactly as the controller does.
        PoolPlan.Status s = PoolPlanner.plan(spec, members, claims, now).status();
        List<String> lines = new ArrayList<>();
        lines.add(String.format("pool %s: size %d, runningCount %d, hibernateAfter %s | unclaimed %d (running %d, "
                        + "standby %d, provisioning %d, broken %d), claimed %d, deleting %d, pending claims %d",
                spec.name(), spec.size(), spec.runningCount(),
                spec.hibernateAfter().map(DurationText::format).orElse("-"), s.unclaimed(), s.running(), s.standby(),
                s.provisioning(), s.broken(), s.claimed(), s.deleting(), s.pendingClaims()));
        lines.add(String.format("%-24s %-9s %-12s %-12s %-24s %-9s %s", "MEMBER", "CREATED", "PHASE", "DESIRED",
                "OBSERVED", "SINCE", "CLAIM"));
        List<Member> ordered = new ArrayList<>(members);
        ordered.sort(Member.TOTAL_ORDER);
        for (Member m : ordered) {
            String claim = m.claimName().map(c -> c + " (since " + at.apply(m.claimedAt().orElse(now)) + ")").orElse("-");
            lines.add(String.format("%-24s %-9s %-12s %-12s %-24s %-9s %s", m.id(), at.apply(m.createdAt()), m.phase(),
                    m.desiredPower(), m.observedPower(), at.apply(m.observedPowerSince()), claim));
        }
        for (Claim c : claims) {
            if (!c.isAssigned()) {
                lines.add("claim " + c.name() + " waiting since " + at.apply(c.createdAt()));
            }
        }
        return lines;
    }
}
