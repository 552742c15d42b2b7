package dev.hotspare.fleet.autoscale;

import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfig.Autoscaling;
import dev.hotspare.fleet.SchedulerConfig.PolicySpec;
import dev.hotspare.fleet.SchedulerState;
import dev.hotspare.fleet.autoscale.Autoscaler.FleetSnapshot;
import dev.hotspare.fleet.autoscale.Autoscaler.ScaleDecision;
import dev.hotspare.fleet.autoscale.Autoscaler.UsageWindows;
import dev.hotspare.fleet.autoscale.ScalingPolicy.Direction;
import dev.hotspare.fleet.autoscale.ScalingPolicy.PolicyContext;
import dev.hotspare.fleet.autoscale.ScalingPolicy.TargetPolicy;
import dev.hotspare.testkit.property.Gen;
import dev.hotspare.testkit.property.Property;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.hotspare.testkit.property.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The invariants of Maestro 10's policies (roomOccupancy, fixedBuffer) over generated parameters and fleets: the
 * rooms they lead to stay within [min, max], the rooms they want grow with the running matches, and under a
 * constant signal the fleet moves one way and settles — it never flaps.
 */
class TargetPoliciesProperties {

    static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    final Autoscaler autoscaler = Autoscaler.standard();

    /** A generated policy with its bounds. */
    record Policy(int min, int max, SchedulerConfig config) {
    }

    /** A generated fleet: rooms per status and the match slots in use. */
    record Fleet(int creating, int ready, int allocated, int occupied, int matches, int slots) {
        RoomStatusCounts counts() {
            return new RoomStatusCounts(creating, ready, occupied, 0, allocated, matches, slots);
        }

        int active() {
            return creating + ready + allocated + occupied;
        }

        Fleet withMatches(int newMatches) {
            return new Fleet(creating, ready, allocated, occupied, newMatches, slots);
        }

        Fleet withOccupied(int newOccupied) {
            return new Fleet(creating, ready, allocated, newOccupied, matches, slots);
        }

        /** New rooms come up ready; a scale-down removes ready rooms. */
        Fleet scaled(int delta) {
            return new Fleet(creating, ready + delta, allocated, occupied, matches, slots);
        }
    }

    ScaleDecision decide(Policy p, Fleet f, Optional<Instant> lastScaleAt, Instant now) {
        return autoscaler.decide(p.config(), FleetSnapshot.of(f.counts()), UsageWindows.EMPTY, SchedulerState.IN_SYNC,
                lastScaleAt, now);
    }

    @Property(tries = 400)
    void theFleetStaysWithinMinAndMax() {
        forAll(policies(), fleets()).check((p, f) -> {
            ScaleDecision d = decide(p, f, Optional.empty(), NOW);
            int after = f.active() + d.delta();
            if (f.active() >= p.min()) {
                assertThat(after).as("never below min %d: %s", p.min(), d.explanation()).isGreaterThanOrEqualTo(p.min());
            } else {
                assertThat(after).as("up to min").isEqualTo(p.min());
            }
            if (p.max() > 0 && f.active() <= p.max()) {
                assertThat(after).as("never above max %d: %s", p.max(), d.explanation()).isLessThanOrEqualTo(p.max());
            } else if (p.max() > 0) {
                assertThat(after).as("above max, only down toward it").isBetween(p.max(), f.active());
            }
            assertThat(after).as("only ready rooms are removed").isGreaterThanOrEqualTo(f.active() - f.ready());
        });
    }

    @Property(tries = 400)
    void theRoomsWantedGrowWithTheRunningMatches() {
        forAll(policies(), fleets(), Gen.integers(1, 200)).check((p, f, more) -> {
            PolicySpec spec = p.config().autoscaling().policy().orElseThrow();
            TargetPolicy policy = (TargetPolicy) ScalingPolicies.builtIn().get(spec.type()).orElseThrow();
            var parameters = dev.hotspare.fleet.PolicyTypes.PolicyParameters.of(policy.parameters(), spec.parameters());
            PolicyContext context = new PolicyContext(p.config(), Direction.UP, Map.of(), NOW);
            // roomOccupancy reads matches; fixedBuffer reads the rooms they occupy.
            Fleet busier = spec.type().equals("roomOccupancy") ? f.withMatches(f.matches() + more) : f.withOccupied(f.occupied() + more);
            int wanted = policy.target(f.counts(), parameters, context).rooms();
            int wantedBusier = policy.target(busier.counts(), parameters, context).rooms();
            assertThat(wantedBusier).isGreaterThanOrEqualTo(wanted);

            // So does a scale-up: more matches never add fewer rooms.
            ScaleDecision d = decide(p, f, Optional.empty(), NOW);
            ScaleDecision dBusier = decide(p, busier, Optional.empty(), NOW);
            if (d.delta() > 0 && spec.type().equals("roomOccupancy")) {
                assertThat(dBusier.delta()).isGreaterThanOrEqualTo(d.delta());
            }
        });
    }

    @Property(tries = 300)
    void underAConstantSignalTheFleetMovesOneWayAndSettles() {
        forAll(policies(), fleets(), Gen.integers(0, 120)).check((p, start, cooldown) -> {
            SchedulerConfig config = p.config().withAutoscaling(p.config().autoscaling().withCooldowns(cooldown, cooldown));
            Policy cooled = new Policy(p.min(), p.max(), config);
            Fleet fleet = start;
            Optional<Instant> lastScale = Optional.empty();
            List<Integer> deltas = new ArrayList<>();
            Instant now = NOW;
            for (int tick = 0; tick < 60; tick++) {
                // Ticks further apart than the cooldown half of the time, closer the other half.
                now = now.plusSeconds(tick % 2 == 0 ? cooldown + 1L : 5L);
                ScaleDecision d = decide(cooled, fleet, lastScale, now);
                if (d.delta() != 0) {
                    deltas.add(d.delta());
                    fleet = fleet.scaled(d.delta());
                    lastScale = Optional.of(now);
                }
            }
            assertThat(deltas).as("one direction only: %s", deltas).satisfiesAnyOf(
                    list -> assertThat(list).allMatch(x -> x > 0),
                    list -> assertThat(list).allMatch(x -> x < 0));
            assertThat(decide(cooled, fleet, lastScale, now.plusSeconds(cooldown + 1L)).delta())
                    .as("settled after %s", deltas).isZero();
        });
    }

    // --- generators ---------------------------------------------------------------------------------

    Gen<Policy> policies() {
        Gen<Integer> min = Gen.integers(0, 30);
        Gen<Integer> maxOffset = Gen.integers(-1, 80);
        Gen<Map<String, Object>> occupancy = Gen.combine(
                        Gen.integers(1, 950), Gen.integers(0, 100),
                        Gen.integers(1, 8), (readyTarget, downThreshold, maxMatches) -> Map.<String, Object>of(
                        "readyTarget", BigDecimal.valueOf(readyTarget, 3), "downThreshold", BigDecimal.valueOf(downThreshold, 2),
                        "maxMatchesPerRoom", maxMatches));
        Gen<PolicySpec> spec = Gen.oneOf(
                occupancy.map(parameters -> PolicySpec.of("roomOccupancy", parameters)),
                Gen.integers(0, 20).map(amount -> PolicySpec.of("fixedBuffer", Map.of("amount", amount))));
        return Gen.combine(min, maxOffset, spec, (mn, off, s) -> {
            int max = off < 0 ? 0 : mn + off;
            return new Policy(mn, max, SchedulerConfig.of("pong", "pong", "img", Autoscaling.byPolicy(mn, max, s)));
        });
    }

    Gen<Fleet> fleets() {
        return Gen.combine(Gen.integers(0, 5), Gen.integers(0, 80),
                        Gen.integers(0, 10), Gen.integers(0, 80),
                        Gen.integers(0, 400), Gen.integers(0, 20), Fleet::new);
    }
}
