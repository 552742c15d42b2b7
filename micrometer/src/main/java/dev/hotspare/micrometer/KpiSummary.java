package dev.hotspare.micrometer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * A plain-text summary of the KPIs that {@link MicrometerKpis} recorded in a {@link MeterRegistry}: per pool
 * the claims served hot / warm / cold, the claim-wait percentiles, the wait by stage (queue, resume, install),
 * the members per state and the scale
 * operations; then per fleet scheduler the rooms per status and its scale operations (from the fleet meters, not
 * their deprecated copies under the pool meters); then lock waits and lease losses per scheduler lock, and rollout progress. Sections with no
 * meters are left out. {@code hotspare simulate}, the fleet server and the pool-service example print it, so a
 * simulated and a live pool print the same way.
 *
 * <pre>{@code
 * SimpleMeterRegistry registry = new SimpleMeterRegistry();
 * PoolController.builder(spec).memberDriver(driver).claimStore(claims).scheduler(tasks).listener(new MicrometerKpis(registry)).build();
 * ...
 * System.out.println(KpiSummary.render(registry));
 * }</pre>
 */
public final class KpiSummary {

    private KpiSummary() {
    }

    /**
     * The summary as lines (no trailing newline); empty when the registry has no hotspare meters.
     *
     * @param registry the registry MicrometerKpis records into
     */
    public static List<String> lines(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        List<String> out = new ArrayList<>();
        TreeSet<String> schedulers = fleetSchedulers(registry);
        for (String pool : tagValues(registry, "pool")) {
            // A fleet scheduler's rooms are also recorded under the deprecated pool meters; they are summarised once,
            // below, from the fleet meters — unless a pool of the same name has claims of its own.
            if (schedulers.contains(pool) && !hasClaims(registry, pool)) {
                continue;
            }
            out.add("pool " + pool);
            served(registry, pool, out);
            waits(registry, pool, out);
            stages(registry, pool, out);
            members(registry, pool, out);
            scale(registry, pool, out);
        }
        for (String scheduler : schedulers) {
            out.add("scheduler " + scheduler);
            rooms(registry, scheduler, out);
            roomScale(registry, scheduler, out);
        }
        locks(registry, out);
        rollouts(registry, out);
        return out;
    }

    /**
     * The summary as one text block, lines ending in {@code \n}.
     *
     * @param registry the registry MicrometerKpis records into
     */
    public static String render(MeterRegistry registry) {
        StringBuilder text = new StringBuilder();
        lines(registry).forEach(line -> text.append(line).append('\n'));
        return text.toString();
    }

    private static void served(MeterRegistry registry, String pool, List<String> out) {
        Map<String, Double> byService = new TreeMap<>(KpiSummary::serviceOrder);
        for (Counter c : registry.find(MicrometerKpis.CLAIMS_SERVED).tag("pool", pool).counters()) {
            byService.merge(c.getId().getTag("service"), c.count(), Double::sum);
        }
        double total = byService.values().stream().mapToDouble(Double::doubleValue).sum();
        if (total == 0) {
            return;
        }
        List<String> parts = new ArrayList<>();
        byService.forEach((service, count) -> parts.add(String.format(Locale.ROOT, "%s %.0f (%.1f%%)", service, count, 100 * count / total)));
        out.add(String.format(Locale.ROOT, "  %-18s %.0f: %s", "claims served", total, String.join(", ", parts)));
    }

    private static void waits(MeterRegistry registry, String pool, List<String> out) {
        List<Timer> timers = new ArrayList<>(registry.find(MicrometerKpis.CLAIM_WAIT).tag("pool", pool).timers());
        timers.sort((a, b) -> serviceOrder(a.getId().getTag("service"), b.getId().getTag("service")));
        for (Timer timer : timers) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %-18s %-5s n=%d", "claim wait",
                    timer.getId().getTag("service"), timer.count()));
            double max = timer.max(TimeUnit.SECONDS);
            for (ValueAtPercentile p : timer.takeSnapshot().percentileValues()) {
                // Percentiles are estimates that can overshoot the exact max by a bucket; never print p99 > max.
                line.append(String.format(Locale.ROOT, " p%.0f %s", p.percentile() * 100, human(Math.min(p.value(TimeUnit.SECONDS), max))));
            }
            line.append(" max ").append(human(max));
            out.add(line.toString());
        }
    }

    /** The mean time a served claim spent in each stage of its wait, when the stage split was reported. */
    private static void stages(MeterRegistry registry, String pool, List<String> out) {
        List<String> parts = new ArrayList<>();
        long claims = 0;
        for (String stage : List.of("queue", "resume", "install")) {
            Timer timer = registry.find(MicrometerKpis.CLAIM_WAIT_STAGE).tags("pool", pool, "stage", stage).timer();
            if (timer != null && timer.count() > 0) {
                claims = Math.max(claims, timer.count());
                parts.add(stage + " " + human(timer.mean(TimeUnit.SECONDS)));
            }
        }
        if (!parts.isEmpty()) {
            out.add(String.format(Locale.ROOT, "  %-18s %s (mean per claim, %d claims)", "wait by stage", String.join(", ", parts), claims));
        }
    }

    private static void members(MeterRegistry registry, String pool, List<String> out) {
        List<String> parts = new ArrayList<>();
        for (Gauge gauge : registry.find(MicrometerKpis.MEMBERS).tag("pool", pool).gauges()) {
            if (gauge.value() > 0) {
                parts.add(String.format(Locale.ROOT, "%s %.0f", gauge.getId().getTag("state"), gauge.value()));
            }
        }
        if (!registry.find(MicrometerKpis.MEMBERS).tag("pool", pool).gauges().isEmpty()) {
            parts.sort(null);
            out.add(String.format(Locale.ROOT, "  %-18s %s", "members now", parts.isEmpty() ? "none" : String.join(", ", parts)));
        }
    }

    private static void scale(MeterRegistry registry, String pool, List<String> out) {
        Map<String, double[]> byOperation = new TreeMap<>();
        for (Counter c : registry.find(MicrometerKpis.SCALE_OPERATIONS).tag("pool", pool).counters()) {
            byOperation.computeIfAbsent(c.getId().getTag("operation"), k -> new double[2])[0] += c.count();
        }
        for (Counter c : registry.find(MicrometerKpis.SCALE_MEMBERS).tag("pool", pool).counters()) {
            byOperation.computeIfAbsent(c.getId().getTag("operation"), k -> new double[2])[1] += c.count();
        }
        if (byOperation.isEmpty()) {
            return;
        }
        List<String> parts = new ArrayList<>();
        byOperation.forEach((operation, n) -> parts.add(String.format(Locale.ROOT, "%s %.0f ops / %.0f members", operation, n[0], n[1])));
        out.add(String.format(Locale.ROOT, "  %-18s %s", "scale operations", String.join(", ", parts)));
    }

    private static TreeSet<String> fleetSchedulers(MeterRegistry registry) {
        TreeSet<String> schedulers = new TreeSet<>();
        for (String name : List.of(MicrometerKpis.FLEET_ROOMS, MicrometerKpis.FLEET_SCALE_OPERATIONS, MicrometerKpis.FLEET_SCALE_ROOMS)) {
            for (Meter meter : registry.find(name).meters()) {
                String scheduler = meter.getId().getTag("scheduler");
                if (scheduler != null) {
                    schedulers.add(scheduler);
                }
            }
        }
        return schedulers;
    }

    private static boolean hasClaims(MeterRegistry registry, String pool) {
        return !registry.find(MicrometerKpis.CLAIMS_SERVED).tag("pool", pool).counters().isEmpty()
                || !registry.find(MicrometerKpis.CLAIM_WAIT).tag("pool", pool).timers().isEmpty();
    }

    private static void rooms(MeterRegistry registry, String scheduler, List<String> out) {
        List<String> parts = new ArrayList<>();
        for (Gauge gauge : registry.find(MicrometerKpis.FLEET_ROOMS).tag("scheduler", scheduler).gauges()) {
            if (gauge.value() > 0) {
                parts.add(String.format(Locale.ROOT, "%s %.0f", gauge.getId().getTag("status"), gauge.value()));
            }
        }
        if (!registry.find(MicrometerKpis.FLEET_ROOMS).tag("scheduler", scheduler).gauges().isEmpty()) {
            parts.sort(null);
            out.add(String.format(Locale.ROOT, "  %-18s %s", "rooms now", parts.isEmpty() ? "none" : String.join(", ", parts)));
        }
    }

    private static void roomScale(MeterRegistry registry, String scheduler, List<String> out) {
        Map<String, double[]> byOperation = new TreeMap<>();
        for (Counter c : registry.find(MicrometerKpis.FLEET_SCALE_OPERATIONS).tag("scheduler", scheduler).counters()) {
            byOperation.computeIfAbsent(c.getId().getTag("operation"), k -> new double[2])[0] += c.count();
        }
        for (Counter c : registry.find(MicrometerKpis.FLEET_SCALE_ROOMS).tag("scheduler", scheduler).counters()) {
            byOperation.computeIfAbsent(c.getId().getTag("operation"), k -> new double[2])[1] += c.count();
        }
        if (byOperation.isEmpty()) {
            return;
        }
        List<String> parts = new ArrayList<>();
        byOperation.forEach((operation, n) -> parts.add(String.format(Locale.ROOT, "%s %.0f ops / %.0f rooms", operation, n[0], n[1])));
        out.add(String.format(Locale.ROOT, "  %-18s %s", "scale operations", String.join(", ", parts)));
    }

    private static void locks(MeterRegistry registry, List<String> out) {
        Map<String, List<String>> byLock = new TreeMap<>();
        for (Timer timer : registry.find(MicrometerKpis.LOCK_WAIT).timers()) {
            String lock = timer.getId().getTag("scheduler") + " " + timer.getId().getTag("kind");
            byLock.computeIfAbsent(lock, k -> new ArrayList<>()).add(String.format(Locale.ROOT, "%s %d (mean %s, max %s)",
                    timer.getId().getTag("outcome"), timer.count(), human(timer.mean(TimeUnit.SECONDS)),
                    human(timer.max(TimeUnit.SECONDS))));
        }
        for (Counter lost : registry.find(MicrometerKpis.LEASE_LOSSES).counters()) {
            String lock = lost.getId().getTag("scheduler") + " " + lost.getId().getTag("kind");
            byLock.computeIfAbsent(lock, k -> new ArrayList<>()).add(String.format(Locale.ROOT, "leases lost %.0f", lost.count()));
        }
        if (byLock.isEmpty()) {
            return;
        }
        out.add("locks");
        byLock.forEach((lock, parts) -> {
            parts.sort(null);
            out.add(String.format(Locale.ROOT, "  %-18s %s", lock, String.join(", ", parts)));
        });
    }

    private static void rollouts(MeterRegistry registry, List<String> out) {
        for (String rollout : tagValues(registry, "rollout")) {
            Gauge done = registry.find(MicrometerKpis.ROLLOUT_TARGETS).tags("rollout", rollout, "state", "done").gauge();
            Gauge total = registry.find(MicrometerKpis.ROLLOUT_TARGETS).tags("rollout", rollout, "state", "total").gauge();
            String phase = registry.find(MicrometerKpis.ROLLOUT_PHASE).tag("rollout", rollout).gauges().stream()
                    .filter(g -> g.value() == 1).map(g -> g.getId().getTag("phase")).findFirst().orElse("?");
            out.add(String.format(Locale.ROOT, "rollout %s: %s, %.0f/%.0f targets done", rollout, phase,
                    done == null ? 0 : done.value(), total == null ? 0 : total.value()));
        }
    }

    private static TreeSet<String> tagValues(MeterRegistry registry, String tag) {
        TreeSet<String> values = new TreeSet<>();
        for (Meter meter : registry.getMeters()) {
            String value = meter.getId().getTag(tag);
            if (value != null && meter.getId().getName().startsWith("hotspare.")) {
                values.add(value);
            }
        }
        return values;
    }

    /** hot, warm, cold first, in that order; anything else after, alphabetically. */
    private static int serviceOrder(String a, String b) {
        List<String> order = List.of("hot", "warm", "cold");
        int ia = order.indexOf(a);
        int ib = order.indexOf(b);
        if (ia >= 0 && ib >= 0) {
            return Integer.compare(ia, ib);
        }
        if (ia >= 0 || ib >= 0) {
            return ia >= 0 ? -1 : 1;
        }
        return a.compareTo(b);
    }

    /** Seconds as {@code 0s}, {@code 4.2s}, {@code 5m00s}, {@code 1h05m}. */
    static String human(double seconds) {
        if (seconds < 10) {
            return seconds == Math.rint(seconds) ? String.format(Locale.ROOT, "%.0fs", seconds)
                    : String.format(Locale.ROOT, "%.1fs", seconds);
        }
        long s = Math.round(seconds);
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%dh%02dm", s / 3600, (s % 3600) / 60);
    }
}
