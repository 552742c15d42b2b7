package dev.hotspare.testkit.rollout;

import dev.hotspare.rollout.Inventory;
import dev.hotspare.rollout.RolloutSpec;
import dev.hotspare.rollout.RolloutSpec.DeviceStrategy;
import dev.hotspare.rollout.RolloutSpec.MaintenanceWindow;
import dev.hotspare.rollout.RolloutSpec.MaxParallel;
import dev.hotspare.rollout.RolloutSpec.OpTimeouts;
import dev.hotspare.rollout.RolloutSpec.UnmatchedDevices;
import dev.hotspare.rollout.Target;
import dev.hotspare.testkit.property.Gen;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Generators ({@link Gen}) of rollout specs and inventories for users' own rollout properties: every shape of spec
 * (control plane or not, ordered device groups by equality and set selectors, LINEAR or EXPONENTIAL, fixed or
 * percentage parallelism, prechecks, failure budgets, retries, open and closing windows) over inventories of up to
 * 3 nodes and 10 labelled devices, some already current, some not admitted or not healthy. The same generators
 * drive hotspare's own rollout properties (in core's tests, which cannot depend on the testkit).
 */
public final class RolloutGenerators {

    /** The earliest instant generated windows start at. */
    public static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final List<String> LABELS = List.of("a", "b", "c", "none");

    private RolloutGenerators() {
    }

    /**
     * A spec and the inventory it runs over.
     */
    public record Scenario(RolloutSpec spec, Inventory inventory) {
    }

    /** Device group selectors, equality-based and set-based, over the labels of {@link #inventories()}. */
    private static final List<String> SELECTORS = List.of("tier=a", "tier in (b)", "tier=c", "tier in (b,c)",
            "tier notin (a,b)", "!tier", "tier");

    /**
     * Specs of every shape; {@code withWindowEnd} allows windows that close (and lets them be too short).
     *
     * @param withWindowEnd whether windows may close
     * @return the generator
     */
    public static Gen<RolloutSpec> specs(boolean withWindowEnd) {
        Gen<List<String>> order = Gen.of(SELECTORS).uniqueList(0, 3);
        Gen<MaxParallel> parallel = Gen.oneOf(Gen.integers(1, 4).map(MaxParallel::of),
                Gen.of(25, 50, 100).map(MaxParallel::percentOfGroup));
        Gen<RolloutSpec.Builder> base = Gen.combine(
                Gen.of(true, false), order, Gen.enums(UnmatchedDevices.class),
                Gen.enums(DeviceStrategy.class), parallel, Gen.of(true, false),
                Gen.integers(0, 3), Gen.integers(1, 3), (cp, ord, unmatched, strategy, maxParallel, prechecks, maxFailures, attempts) -> {
            RolloutSpec.Builder b = RolloutSpec.builder("r1", "2.0").upgradeControlPlane(cp).unmatchedDevices(unmatched)
                    .strategy(strategy).maxParallel(maxParallel).prechecks(prechecks).maxFailures(maxFailures)
                    .retry(attempts, Duration.ofMinutes(2)).allowPartialWindow(true)
                    .timeouts(new OpTimeouts(Duration.ofMinutes(20), Duration.ofMinutes(20), Duration.ofMinutes(15)));
            ord.forEach(b::deviceGroup);
            return b;
        });
        Gen<Optional<MaintenanceWindow>> windows = Gen.integers(0, 3).flatMap(kind -> switch (kind) {
            case 0, 1 -> Gen.just(Optional.<MaintenanceWindow>empty());
            case 2 -> Gen.integers(0, 120).map(m -> Optional.of(MaintenanceWindow.from(T0.plus(Duration.ofMinutes(m)))));
            default -> withWindowEnd
                    ? Gen.combine(Gen.integers(0, 60), Gen.integers(1, 400), (s, len) -> Optional.of(MaintenanceWindow.between(T0.plus(Duration.ofMinutes(s)), T0.plus(Duration.ofMinutes(s + len)))))
                    : Gen.just(Optional.<MaintenanceWindow>empty());
        });
        return Gen.combine(base, windows, (b, w) -> {
            w.ifPresent(b::window);
            return b.build();
        });
    }

    /**
     * Inventories of up to 3 nodes and 10 devices, labelled from a small set; a few targets already current, a
     * few devices not admitted or not healthy (nodes are healthy: an unhealthy one ends a rollout with prechecks
     * before anything runs).
     *
     * @return the generator
     */
    public static Gen<Inventory> inventories() {
        Gen<Integer> nodes = Gen.integers(0, 3);
        Gen<List<String>> devices = Gen.of(LABELS).list(0, 10);
        Gen<Integer> currentEvery = Gen.of(0, 0, 0, 4);
        Gen<Integer> unfitEvery = Gen.of(0, 0, 3, 5);
        return Gen.combine(nodes, devices, currentEvery, unfitEvery, (n, labels, every, unfit) -> {
            List<Target> targets = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                targets.add(Target.node("node-" + i, every > 0 && i == 1 ? "2.0" : "1.0"));
            }
            for (int i = 0; i < labels.size(); i++) {
                Target d = device(i, labels.get(i), every > 0 && i % every == 3 ? "2.0" : "1.0");
                targets.add(unfit > 0 && i % unfit == 1 ? d.withHealth(i % 2 == 0, i % 2 == 1) : d);
            }
            return new Inventory(targets);
        });
    }

    /**
     * Device {@code i}: its labels follow from its name, so re-adding it never moves it to another group.
     *
     * @param i the device's number
     * @param label its {@code tier} label, or "none"
     * @param version its version
     */
    public static Target device(int i, String label, String version) {
        return Target.device(String.format("dev-%02d-%s", i, label), version, label.equals("none") ? Map.of() : Map.of("tier", label));
    }

    /**
     * A spec and an inventory.
     *
     * @param withWindowEnd whether windows may close
     * @return the generator
     */
    public static Gen<Scenario> scenarios(boolean withWindowEnd) {
        return Gen.combine(specs(withWindowEnd), inventories(), Scenario::new);
    }
}
