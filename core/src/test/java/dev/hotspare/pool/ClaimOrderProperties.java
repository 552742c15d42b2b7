package dev.hotspare.pool;


import dev.hotspare.pool.Claim.ClaimClass;
import dev.hotspare.testkit.property.Gen;
import dev.hotspare.testkit.property.Property;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static dev.hotspare.testkit.property.PropertyCheck.forAll;
import static dev.hotspare.pool.PoolPlannerTest.at;
import static dev.hotspare.pool.PoolPlannerTest.running;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The invariants of claim classes, aging and deadlines, checked on the pure planner: FIFO within a class, higher
 * classes first among claims not yet aged, single-class pools unchanged, and the aging bound — once a claim has
 * waited {@code agingLimit}, only claims older than it are served before it.
 */
class ClaimOrderProperties {

    /** One claim to make: when (minute), its priority (0..2) and an optional deadline (minutes after creation). */
    record Arrival(int minute, int priority, Optional<Integer> deadlineAfter) {
    }

    Gen<List<Arrival>> arrivals() {
        Gen<Arrival> one = Gen.combine(Gen.integers(0, 60), Gen.integers(0, 2),
                Gen.integers(0, 40).optional(0.3), Arrival::new);
        return one.list(1, 25);
    }

    static List<Claim> claims(List<Arrival> arrivals) {
        List<Claim> out = new ArrayList<>();
        for (int i = 0; i < arrivals.size(); i++) {
            Arrival a = arrivals.get(i);
            out.add(Claim.pending("c-" + i, at(a.minute()), Optional.empty())
                    .withClass(new ClaimClass("p" + a.priority(), a.priority()))
                    .withDeadline(a.deadlineAfter().map(d -> at(a.minute() + d))));
        }
        return out;
    }

    static List<Member> members(int count) {
        List<Member> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(running(String.format("m-%02d", i), 0));
        }
        return out;
    }

    static Set<String> assignedNames(PoolPlan plan) {
        Set<String> out = new HashSet<>();
        plan.assignments().forEach(a -> out.add(a.claimName()));
        return out;
    }

    @Property(tries = 400)
    void oneDecisionKeepsFifoWithinAClassHigherClassesFirstAndAgedClaimsFirst() {
        record Args(List<Arrival> arrivals, int free, int nowMinute, int agingMinutes) {
        }
        forAll(s -> new Args(
                arrivals().generate(s),
                Gen.integers(0, 12).generate(s),
                Gen.integers(0, 90).generate(s),
                Gen.integers(0, 60).generate(s))).check(args -> {
            List<Arrival> arrivals = args.arrivals();
            int free = args.free();
            int nowMinute = args.nowMinute();
            int agingMinutes = args.agingMinutes();
            Duration aging = Duration.ofMinutes(agingMinutes);
            Instant now = at(nowMinute);
            List<Claim> claims = claims(arrivals);
            PoolPlan plan = PoolPlanner.plan(PoolSpec.builder("ci").size(0).agingLimit(aging).build(), members(free), claims, now);
            Set<String> assigned = assignedNames(plan);
            Set<String> expired = new HashSet<>();
            plan.releases().forEach(r -> expired.add(r.claimName()));
            for (Claim c : claims) {
                assertThat(expired.contains(c.name())).as("expired exactly when its deadline has come: %s", c)
                        .isEqualTo(c.isExpiredAt(now));
                assertThat(expired.contains(c.name()) && assigned.contains(c.name())).isFalse();
            }
            List<Claim> waiting = claims.stream().filter(c -> !expired.contains(c.name())).toList();
            assertThat(assigned).hasSize(Math.min(free, waiting.size()));
            for (Claim served : waiting) {
                if (!assigned.contains(served.name())) {
                    continue;
                }
                for (Claim left : waiting) {
                    if (assigned.contains(left.name())) {
                        continue;
                    }
                    if (left.claimClass().priority() == served.claimClass().priority()) {
                        assertThat(Claim.TOTAL_ORDER.compare(served, left)).as("FIFO within a class: %s served before %s",
                                served.name(), left.name()).isNegative();
                    }
                    if (PoolPlanner.isAged(left, aging, now)) {
                        assertThat(Claim.TOTAL_ORDER.compare(served, left)).as("aged %s waits only for older claims, not %s",
                                left.name(), served.name()).isNegative();
                    } else if (!PoolPlanner.isAged(served, aging, now)) {
                        assertThat(served.claimClass().priority()).as("among claims not aged, higher classes first")
                                .isGreaterThanOrEqualTo(left.claimClass().priority());
                    }
                }
            }
        });
    }

    @Property(tries = 300)
    void aSingleClassPoolIsServedExactlyAsBefore() {
        record Args(List<Arrival> arrivals, int free, int nowMinute, int agingMinutes) {
        }
        forAll(s -> new Args(
                arrivals().generate(s),
                Gen.integers(0, 12).generate(s),
                Gen.integers(0, 90).generate(s),
                Gen.integers(0, 60).generate(s))).check(args -> {
            List<Arrival> arrivals = args.arrivals();
            int free = args.free();
            int nowMinute = args.nowMinute();
            int agingMinutes = args.agingMinutes();
            List<Claim> single = new ArrayList<>();
            for (int i = 0; i < arrivals.size(); i++) {
                single.add(Claim.pending("c-" + i, at(arrivals.get(i).minute()), Optional.empty()));
            }
            PoolPlan plan = PoolPlanner.plan(PoolSpec.builder("ci").size(2).runningCount(1)
                    .agingLimit(Duration.ofMinutes(agingMinutes)).build(), members(free), single, at(nowMinute));
            List<Claim> fifo = single.stream().sorted(Claim.TOTAL_ORDER).toList();
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < Math.min(free, fifo.size()); i++) {
                expected.add(fifo.get(i).name() + String.format("=m-%02d", i));
            }
            assertThat(plan.assignments().stream().map(a -> a.claimName() + "=" + a.memberId()).toList()).isEqualTo(expected);
            assertThat(plan.reasons()).extracting(PoolPlan.PendingClaim::claimName)
                    .containsExactlyElementsOf(fifo.subList(expected.size(), fifo.size()).stream().map(Claim::name).toList());
        });
    }

    /**
     * The aging bound over time. Minute by minute, claims arrive and {@code free[m]} members become running; each
     * minute the planner assigns. For every claim c, every claim served from the first minute c is aged until c
     * is served is older than c. So once aged, c waits only for claims older than it that were still pending —
     * its wait is at most agingLimit plus the time the pool takes to serve those, the FIFO wait it would have had
     * in a single-class pool from that moment.
     */
    @Property(tries = 300)
    void onceAgedAClaimWaitsOnlyForOlderClaims() {
        forAll(arrivals(), Gen.integers(0, 2).list(120, 120), Gen.integers(0, 30)).check((arrivals, free, agingMinutes) -> {
            Duration aging = Duration.ofMinutes(agingMinutes);
            PoolSpec spec = PoolSpec.builder("ci").size(0).agingLimit(aging).build();
            List<Claim> all = claims(arrivals.stream().map(a -> new Arrival(a.minute(), a.priority(), Optional.empty())).toList());
            Map<String, Claim> pending = new LinkedHashMap<>();
            Map<String, Integer> servedAt = new HashMap<>();
            List<List<String>> servedPerMinute = new ArrayList<>();
            int memberSeq = 0;
            for (int minute = 0; minute < free.size(); minute++) {
                for (Claim c : all) {
                    if (c.createdAt().equals(at(minute))) {
                        pending.put(c.name(), c);
                    }
                }
                List<Member> members = new ArrayList<>();
                for (int i = 0; i < free.get(minute); i++) {
                    members.add(running("m-" + (memberSeq++), minute));
                }
                PoolPlan plan = PoolPlanner.plan(spec, members, pending.values(), at(minute));
                List<String> order = new ArrayList<>();
                for (PoolPlan.Assignment a : plan.assignments()) {
                    pending.remove(a.claimName());
                    servedAt.put(a.claimName(), minute);
                    order.add(a.claimName());
                }
                servedPerMinute.add(order);
            }
            Map<String, Claim> byName = new HashMap<>();
            all.forEach(c -> byName.put(c.name(), c));
            for (Claim c : all) {
                int agedMinute = (int) Duration.between(at(0), c.createdAt().plus(aging)).toMinutes();
                int end = servedAt.getOrDefault(c.name(), free.size());
                for (int minute = Math.max(agedMinute, 0); minute <= Math.min(end, free.size() - 1); minute++) {
                    for (String other : servedPerMinute.get(minute)) {
                        if (other.equals(c.name())) {
                            break;
                        }
                        assertThat(Claim.TOTAL_ORDER.compare(byName.get(other), c))
                                .as("%s, aged at minute %d, saw younger %s served at minute %d", c.name(), agedMinute, other, minute)
                                .isNegative();
                    }
                }
            }
        });
    }
}
