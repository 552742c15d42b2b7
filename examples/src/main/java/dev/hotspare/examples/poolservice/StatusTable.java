package dev.hotspare.examples.poolservice;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Claim.ClaimReason;
import dev.hotspare.pool.Claim.ClaimStages;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolPlanner;
import dev.hotspare.pool.PoolPlanner.TypicalDurations;
import dev.hotspare.pool.PoolSpec;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The {@code status} answer: a summary line, the template versions, one row per member in the pool's total order
 * (the order the pool resumes, assigns and deletes by), then every claim still waiting with what it waits for,
 * orphaned members and, while the pool is being deleted, what deletion waits for. Pure: renders what it is given.
 */
final class StatusTable {

    private StatusTable() {
    }

    /**
     * @param typical the install and resume times the controller has seen, for the expected ready times
     * @param at      renders an instant (the service prints time since it started)
     */
    static List<String> render(PoolSpec spec, List<Member> members, List<Claim> claims, Instant now,
                               TypicalDurations typical, Function<Instant, String> at) {
        // The planner is pure, so asking it for the counts changes nothing; it classifies exactly as the controller does.
        PoolPlan plan = PoolPlanner.plan(spec, members, claims, now, typical);
        PoolPlan.Status s = plan.status();
        List<String> lines = new ArrayList<>();
        lines.add(String.format("pool %s: size %d, runningCount %d, hibernateAfter %s | unclaimed %d (running %d, "
                        + "standby %d, provisioning %d, broken %d), claimed %d, deleting %d, pending claims %d",
                spec.name(), spec.size(), spec.runningCount(),
                spec.hibernateAfter().map(DurationText::format).orElse("-"), s.unclaimed(), s.running(), s.standby(),
                s.provisioning(), s.broken(), s.claimed(), s.deleting(), s.pendingClaims()));
        lines.add(String.format("templates: %d current, %d stale, %d unknown (%s)", s.current(), s.stale(), s.unknown(),
                s.allCurrent().map(all -> all ? "all current" : "not all current: unknown ones are replaced first, then stale ones")
                        .orElse("currency unknown: the pool is being deleted")));
        lines.add(String.format("%-24s %-9s %-12s %-12s %-24s %-9s %s", "MEMBER", "CREATED", "PHASE", "DESIRED",
                "OBSERVED", "SINCE", "CLAIM"));
        List<Member> ordered = new ArrayList<>(members);
        ordered.sort(Member.TOTAL_ORDER);
        Map<String, Member> byId = new HashMap<>();
        for (Member m : ordered) {
            byId.put(m.id(), m);
            String claim = m.claimName().map(c -> c + " (since " + at.apply(m.claimedAt().orElse(now)) + ")"
                    + m.releasedAt().map(r -> ", released " + at.apply(r)).orElse("")).orElse("-");
            lines.add(String.format("%-24s %-9s %-12s %-12s %-24s %-9s %s", m.id(), at.apply(m.createdAt()), m.phase(),
                    m.desiredPower(), m.observedPower(), at.apply(m.observedPowerSince()), claim));
        }
        for (PoolPlan.PendingClaim pending : plan.reasons()) {
            lines.add("claim " + pending.claimName() + " waiting since " + at.apply(pending.createdAt()) + ": "
                    + describe(pending.reason(), at));
        }
        for (PoolPlan.Orphan orphan : plan.orphans()) {
            lines.add("orphaned " + orphan.memberId() + ": claim " + orphan.claimName() + " missing since "
                    + at.apply(orphan.since()) + "; deleted at " + at.apply(orphan.deletableAt()) + " unless it comes back");
        }
        if (s.poolDeleted()) {
            List<String> waits = new ArrayList<>();
            for (String id : s.deletionWaitsFor()) {
                Member m = byId.get(id);
                waits.add(id + (m != null && m.isClaimed() && !m.isReleased() ? " (claimed by " + m.claimName().get() + ")"
                        : m != null && m.phase() == dev.hotspare.pool.Member.MemberPhase.DELETING ? " (deleting)" : ""));
            }
            lines.add("pool being deleted; waiting for " + (waits.isEmpty() ? "nothing: it is gone" : String.join(", ", waits)));
        }
        return lines;
    }

    /** A claim's reason for people, with instants as time since the service started. */
    static String describe(ClaimReason reason, Function<Instant, String> at) {
        if (reason instanceof ClaimReason.WaitingForResume r) {
            return "WAITING_FOR_RESUME " + r.member() + " (resuming since " + at.apply(r.since())
                    + r.expectedReadyAt().map(e -> ", expected running " + at.apply(e)).orElse("") + ")";
        }
        if (reason instanceof ClaimReason.Provisioning r) {
            return "PROVISIONING " + r.member().orElse("a new member") + " (installing since " + at.apply(r.since())
                    + r.expectedReadyAt().map(e -> ", expected installed " + at.apply(e)).orElse("") + ")";
        }
        if (reason instanceof ClaimReason.AtMaxSize r) {
            return "AT_MAX_SIZE (" + r.members() + " members, maxSize " + r.maxSize() + "): a release makes room";
        }
        if (reason instanceof ClaimReason.MaxConcurrentExhausted r) {
            return "MAX_CONCURRENT_EXHAUSTED (" + r.inFlight() + " provisioning or deleting, maxConcurrent " + r.maxConcurrent() + ")";
        }
        if (reason instanceof ClaimReason.AllBroken r) {
            return "ALL_BROKEN (" + r.broken() + " broken member(s) being replaced)";
        }
        if (reason instanceof ClaimReason.Queued r) {
            return "QUEUED (" + r.ahead() + " older claim(s) first)";
        }
        if (reason instanceof ClaimReason.Assigning r) {
            return "ASSIGNING " + r.member() + " (running and free: the next pass assigns it)";
        }
        if (reason instanceof ClaimReason.Assigned r) {
            return "ASSIGNED " + r.member() + " (since " + at.apply(r.assignedAt())
                    + r.readyAt().map(e -> ", ready " + at.apply(e)).orElse("") + ")";
        }
        return reason.kind() + " (" + reason.text() + ")";
    }

    /** A claim's wait by stage, e.g. {@code queue 0s, resume 3.0s, install 0s}. */
    static String describe(ClaimStages stages) {
        return "queue " + DurationText.format(stages.queue()) + ", resume " + DurationText.format(stages.resume())
                + ", install " + DurationText.format(stages.install());
    }
}
