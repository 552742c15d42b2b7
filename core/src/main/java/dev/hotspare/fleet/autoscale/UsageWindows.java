package dev.hotspare.fleet.autoscale;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * The recorded points per trigger type, oldest first, including the current tick's point. Each trigger
 * reads the newest {@code size} points of its type.
 *
 * @param points type name → points
 */
public record UsageWindows(Map<String, List<BigDecimal>> points) {

    /** No points at all. */
    public static final UsageWindows EMPTY = new UsageWindows(Map.of());

    public UsageWindows {
        points = points == null ? Map.of() : Map.copyOf(points);
    }

    /**
     * The newest {@code size} points of {@code type} (fewer when fewer exist), oldest first.
     */
    public List<BigDecimal> latest(String type, int size) {
        List<BigDecimal> all = points.getOrDefault(type, List.of());
        return all.size() <= size ? all : all.subList(all.size() - size, all.size());
    }
}
