package dev.hotspare.pool.internal;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.ObservedPower;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/** Member and claim records for the repair tests: exact ones, and random ones that disagree in every way repair meets. */
final class Records {

    static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

    private Records() {
    }

    static Member member(String id, Optional<String> claim, Optional<Instant> claimedAt) {
        Instant t = NOW.minus(Duration.ofHours(1));
        return new Member(id, t, "v1", MemberPhase.READY, DesiredPower.RUNNING, ObservedPower.RUNNING, t, Optional.of(t),
                Optional.of(t), claim, claimedAt);
    }

    static Claim pending(String name, Instant createdAt) {
        return Claim.pending(name, createdAt, Optional.empty());
    }

    /**
     * A few members and claims over a few names, so members name claims that name others, claims name members that
     * name none, pending claims are named by several members, and some records are released, deleting or ready.
     */
    static PoolState random(Random random) {
        int claimCount = random.nextInt(6);
        int memberCount = random.nextInt(7);
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < memberCount; i++) {
            Optional<String> claim = random.nextInt(3) == 0 || claimCount == 0 ? Optional.empty()
                    : Optional.of("c" + random.nextInt(claimCount + 1));
            Optional<Instant> claimedAt = claim.isEmpty() || random.nextInt(4) == 0 ? Optional.empty()
                    : Optional.of(NOW.minus(Duration.ofMinutes(random.nextInt(20))));
            Member m = member("m" + i, claim, claimedAt);
            if (random.nextInt(6) == 0) {
                m = m.withPhase(MemberPhase.DELETING);
            }
            if (random.nextInt(6) == 0) {
                m = m.released(NOW.minus(Duration.ofMinutes(1)));
            }
            members.add(m);
        }
        List<Claim> claims = new ArrayList<>();
        for (int i = 0; i < claimCount; i++) {
            Claim c = pending("c" + i, NOW.minus(Duration.ofMinutes(random.nextInt(30))));
            if (memberCount > 0 && random.nextBoolean()) {
                Instant at = c.createdAt().plus(Duration.ofMinutes(random.nextInt(5)));
                c = c.assigned("m" + random.nextInt(memberCount + 1), at);
                if (random.nextBoolean()) {
                    c = c.ready(at.plus(Duration.ofMinutes(random.nextInt(3))));
                }
            }
            claims.add(c);
        }
        return new PoolState(members, claims);
    }
}
