package dev.hotspare.memory;

import dev.hotspare.spi.UsageHistory;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** {@link UsageHistory} in memory: a bounded deque per (scheduler, metric). Thread-safe. */
public final class InMemoryUsageHistory implements UsageHistory {

    private final Map<String, Map<String, ArrayDeque<BigDecimal>>> points = new ConcurrentHashMap<>();

    @Override
    public void record(String scheduler, String metric, BigDecimal point, int keep) {
        check(scheduler, metric);
        if (keep < 1) {
            throw new ValidationException(Problem.of("keep", keep, "must keep at least one point"));
        }
        if (point == null) {
            throw new ValidationException(Problem.of("point", Problem.MISSING, "a point is required"));
        }
        ArrayDeque<BigDecimal> deque = points.computeIfAbsent(scheduler, s -> new ConcurrentHashMap<>())
                .computeIfAbsent(metric, m -> new ArrayDeque<>());
        synchronized (deque) {
            deque.addLast(point);
            while (deque.size() > keep) {
                deque.removeFirst();
            }
        }
    }

    @Override
    public List<BigDecimal> latest(String scheduler, String metric, int count) {
        check(scheduler, metric);
        ArrayDeque<BigDecimal> deque = points.getOrDefault(scheduler, Map.of()).get(metric);
        if (deque == null || count <= 0) {
            return List.of();
        }
        synchronized (deque) {
            int n = Math.min(count, deque.size());
            List<BigDecimal> out = new ArrayList<>(n);
            Iterator<BigDecimal> newestFirst = deque.descendingIterator();
            for (int i = 0; i < n; i++) {
                out.add(newestFirst.next());
            }
            java.util.Collections.reverse(out);
            return out;
        }
    }

    @Override
    public void clear(String scheduler) {
        Names.requireDns1123Label("scheduler", scheduler);
        points.remove(scheduler);
    }

    private static void check(String scheduler, String metric) {
        Names.requireDns1123Label("scheduler", scheduler);
        Names.requireDns1123Label("metric", metric);
    }
}
