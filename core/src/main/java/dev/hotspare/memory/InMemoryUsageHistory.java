package dev.hotspare.memory;

import dev.hotspare.fleet.spi.UsageHistory;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link UsageHistory} in memory: a ring buffer per (scheduler, metric), values exact. Thread-safe. Names are validated
 * when a scheduler or metric is first seen (a known one was valid), so the per-tick path does no regex work.
 */
public final class InMemoryUsageHistory implements UsageHistory {

    private final Map<String, Map<String, Ring>> points = new ConcurrentHashMap<>();

    /**
     * The newest points of one (scheduler, metric), oldest first from {@code start}. Points are kept as
     * unscaled longs and scales in flat arrays rather than as BigDecimal objects: a tick over thousands of
     * schedulers then reads contiguous memory instead of chasing a pointer per point. Values too large for
     * a long keep their BigDecimal in {@code wide}. Guarded by itself.
     */
    private static final class Ring {
        long[] unscaled = new long[0];
        int[] scales = new int[0];
        BigDecimal[] wide = new BigDecimal[0];
        int start;
        int size;

        void add(BigDecimal point, int keep) {
            if (unscaled.length != keep) {
                resize(keep);
            }
            int slot;
            if (size < keep) {
                slot = (start + size) % keep;
                size++;
            } else {
                slot = start;
                start = (start + 1) % keep;
            }
            store(slot, point);
        }

        private void store(int slot, BigDecimal point) {
            if (point.precision() <= 18) {
                unscaled[slot] = point.unscaledValue().longValue();
                scales[slot] = point.scale();
                wide[slot] = null;
            } else {
                wide[slot] = point;
            }
        }

        private BigDecimal load(int slot) {
            BigDecimal w = wide[slot];
            return w != null ? w : BigDecimal.valueOf(unscaled[slot], scales[slot]);
        }

        private void resize(int keep) {
            int n = Math.min(size, keep);
            BigDecimal[] kept = new BigDecimal[n];
            for (int i = 0; i < n; i++) {
                kept[i] = load((start + size - n + i) % unscaled.length);
            }
            unscaled = new long[keep];
            scales = new int[keep];
            wide = new BigDecimal[keep];
            start = 0;
            size = n;
            for (int i = 0; i < n; i++) {
                store(i, kept[i]);
            }
        }

        List<BigDecimal> latest(int count) {
            int n = Math.min(count, size);
            BigDecimal[] out = new BigDecimal[n];
            for (int i = 0; i < n; i++) {
                out[i] = load((start + size - n + i) % unscaled.length);
            }
            return Collections.unmodifiableList(Arrays.asList(out));
        }
    }

    @Override
    public void record(String scheduler, String metric, BigDecimal point, int keep) {
        if (keep < 1) {
            throw new ValidationException(Problem.of("keep", keep, "must keep at least one point"));
        }
        if (point == null) {
            throw new ValidationException(Problem.of("point", Problem.MISSING, "a point is required"));
        }
        Ring ring = ring(scheduler, metric, true);
        synchronized (ring) {
            ring.add(point, keep);
        }
    }

    @Override
    public List<BigDecimal> latest(String scheduler, String metric, int count) {
        Ring ring = ring(scheduler, metric, false);
        if (ring == null || count <= 0) {
            return List.of();
        }
        synchronized (ring) {
            return ring.latest(count);
        }
    }

    @Override
    public void clear(String scheduler) {
        Names.requireDns1123Label("scheduler", scheduler);
        points.remove(scheduler);
    }

    private Ring ring(String scheduler, String metric, boolean create) {
        Map<String, Ring> byMetric = points.get(scheduler);
        if (byMetric == null) {
            Names.requireDns1123Label("scheduler", scheduler);
            Names.requireDns1123Label("metric", metric);
            if (!create) {
                return null;
            }
            byMetric = points.computeIfAbsent(scheduler, s -> new ConcurrentHashMap<>());
        }
        Ring ring = byMetric.get(metric);
        if (ring == null) {
            Names.requireDns1123Label("metric", metric);
            if (!create) {
                return null;
            }
            ring = byMetric.computeIfAbsent(metric, m -> new Ring());
        }
        return ring;
    }
}
