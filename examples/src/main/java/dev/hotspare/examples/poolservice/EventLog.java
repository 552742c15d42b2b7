package dev.hotspare.examples.poolservice;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Claim.ClaimService;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.PoolListener;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.MemberDriver.MemberEvent;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Prints what the pool does, one line per event, each stamped with the time since the service started: members
 * created, installed, resumed, hibernated and deleted (from the driver's watch), and every decision of a
 * controller pass with its reason (from {@link PoolListener}): claims served hot / warm / cold with their
 * wait, the member resumed to refill the hot set and why, claimed members hibernated after
 * {@code hibernateAfter}.
 */
final class EventLog implements PoolListener {

    private final PrintWriter out;
    private final Instant start;
    private final Supplier<PoolSpec> spec;
    private final ClaimStore claims;
    private final Function<String, Optional<Member>> lookup;
    private final Map<String, Member> seen = new HashMap<>();
    private final int[] served = new int[ClaimService.values().length];

    EventLog(PrintWriter out, Instant start, Supplier<PoolSpec> spec, ClaimStore claims,
             Function<String, Optional<Member>> lookup) {
        this.lookup = lookup;
        this.out = out;
        this.start = start;
        this.spec = spec;
        this.claims = claims;
    }

    /** {@code t+12.0s}: an instant as time since the service started. */
    String at(Instant instant) {
        Duration d = Duration.between(start, instant);
        return "t+" + DurationText.format(d.isNegative() ? Duration.ZERO : d);
    }

    synchronized void line(Instant now, String kind, String text) {
        out.printf("%-9s %-9s %s%n", at(now), kind, text);
        out.flush();
    }

    /** How many claims were served hot, warm and cold, in {@link ClaimService} order. */
    synchronized int[] servedCounts() {
        return served.clone();
    }

    // --- member events (driver thread) ---------------------------------------------------------------------

    void onMemberEvent(MemberEvent event, Instant now) {
        if (event instanceof MemberEvent.Added added) {
            Member m = added.member();
            remember(m);
            line(now, "member", m.id() + " created: " + m.phase() + ", asks " + m.desiredPower());
        } else if (event instanceof MemberEvent.Updated updated) {
            Member m = updated.member();
            Member before = remember(m);
            describeChange(before, m, now);
        } else if (event instanceof MemberEvent.Removed removed) {
            synchronized (this) {
                seen.remove(removed.memberId());
            }
            line(now, "member", removed.memberId() + " gone");
        }
    }

    private synchronized Member remember(Member m) {
        return seen.put(m.id(), m);
    }

    private void describeChange(Member before, Member m, Instant now) {
        if (before == null) {
            line(now, "member", m.id() + " seen: " + m.phase() + ", " + m.observedPower());
            return;
        }
        if (before.phase() != m.phase()) {
            switch (m.phase()) {
                case READY -> line(now, "member", m.id() + " installed after "
                        + DurationText.format(Duration.between(m.createdAt(), m.installedAt().orElse(now)))
                        + ", observed " + m.observedPower());
                case DELETING -> line(now, "member", m.id() + " deleting");
                case FAILED -> line(now, "member", m.id() + " FAILED");
                case PROVISIONING -> line(now, "member", m.id() + " provisioning");
            }
            return;
        }
        if (before.observedPower() != m.observedPower() && m.phase() == MemberPhase.READY) {
            String took = switch (m.observedPower()) {
                case RUNNING, HIBERNATING -> " (after " + DurationText.format(
                        Duration.between(before.observedPowerSince(), m.observedPowerSince())) + ")";
                default -> "";
            };
            line(now, "member", m.id() + " " + before.observedPower() + " -> " + m.observedPower() + took
                    + m.claimName().map(c -> ", claimed by " + c).orElse(""));
        }
    }

    // --- controller passes (controller thread) ---------------------------------------------------------------

    @Override
    public void onPlanApplied(String pool, PoolPlan plan, Instant now) {
        PoolSpec current = spec.get();
        for (PoolPlan.Release r : plan.releases()) {
            line(now, "release", "claim " + r.claimName() + r.memberId().map(id -> " (member " + id + ")").orElse("")
                    + ": " + r.reason() + ", " + r.detail());
        }
        for (PoolPlan.PowerChange change : plan.powerChanges()) {
            Optional<Member> member = known(change.memberId());
            Optional<String> claim = member.flatMap(Member::claimName);
            String created = member.map(m -> ", created " + at(m.createdAt())).orElse("");
            if (claim.isPresent() && change.to() == DesiredPower.HIBERNATING && current.hibernateAfter().isPresent()) {
                Member m = member.get();
                Instant base = latest(m.claimedAt(), m.installedAt(), m.lastBecameRunningAt());
                line(now, "hibernate", change.memberId() + " (claimed by " + claim.get() + "): claimed and running since "
                        + at(base) + ", hibernateAfter " + DurationText.format(current.hibernateAfter().get()) + " elapsed");
            } else if (claim.isPresent()) {
                line(now, "power", change.memberId() + " (claimed by " + claim.get() + ") -> " + change.to() + ": "
                        + change.reason());
            } else if (change.to() == DesiredPower.RUNNING) {
                boolean installing = member.map(m -> m.phase() == MemberPhase.PROVISIONING).orElse(false);
                line(now, installing ? "run" : "resume", change.memberId() + (installing ? " (still installing)" : "")
                        + created + ": " + change.reason() + " (runningCount "
                        + current.runningCount() + " + " + plan.status().pendingClaims()
                        + " waiting claims; the oldest unclaimed members run: hot set refilled oldest-first)");
            } else {
                line(now, "hibernate", change.memberId() + created + ": " + change.reason()
                        + " (newer unclaimed members hibernate)");
            }
        }
        for (PoolPlan.OrphanMark mark : plan.orphanMarks()) {
            line(now, "orphan", mark.memberId() + " (claimed by " + mark.claimName() + "): " + mark.reason()
                    + (mark.since().isPresent() ? "; deleted if still missing after orphanGracePeriod "
                    + DurationText.format(current.orphanGracePeriod()) : ""));
        }
        for (PoolPlan.Delete d : plan.deletes()) {
            line(now, "delete", d.memberId() + ": " + d.reason() + ", " + d.detail());
        }
        if (!plan.creates().isEmpty()) {
            Map<DesiredPower, Integer> byPower = new java.util.EnumMap<>(DesiredPower.class);
            for (PoolPlan.Create c : plan.creates()) {
                byPower.merge(c.power(), 1, Integer::sum);
            }
            String reason = plan.creates().get(0).reason();
            int cut = reason.indexOf(';');
            line(now, "create", plan.creates().size() + " member(s) " + byPower + ": "
                    + (cut > 0 ? reason.substring(0, cut) : reason));
        }
    }

    @Override
    public void onClaimAssigned(String pool, PoolPlan.Assignment assignment, Member memberBefore) {
        Instant now = assignment.claimedAt();
        Optional<Claim> claim = claims.find(pool, assignment.claimName());
        Instant createdAt = claim.map(Claim::createdAt).orElse(now);
        ClaimService service = ClaimService.classify(memberBefore, createdAt);
        synchronized (this) {
            served[service.ordinal()]++;
        }
        Duration wait = Duration.between(createdAt, now);
        String how = switch (service) {
            case HOT -> "HOT, served " + (wait.compareTo(Duration.ofSeconds(1)) < 0 ? "immediately"
                    : "after " + DurationText.format(wait)) + ": it was already running";
            case WARM -> "WARM after " + DurationText.format(wait) + ": it was installed but had to resume";
            case COLD -> "COLD after " + DurationText.format(wait) + ": it was installed after the claim arrived";
        };
        line(now, "served", assignment.claimName() + " -> " + assignment.memberId() + " " + how
                + " (oldest pending claim gets the oldest running unclaimed member)");
    }

    @SafeVarargs
    private static Instant latest(Optional<Instant>... candidates) {
        Instant latest = Instant.MIN;
        for (Optional<Instant> c : candidates) {
            if (c.isPresent() && c.get().isAfter(latest)) {
                latest = c.get();
            }
        }
        return latest;
    }

    private Optional<Member> known(String id) {
        return lookup.apply(id);
    }
}
