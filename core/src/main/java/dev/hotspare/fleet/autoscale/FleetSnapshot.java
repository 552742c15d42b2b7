package dev.hotspare.fleet.autoscale;

import dev.hotspare.fleet.RoomStatusCounts;

import java.util.List;
import java.util.Map;

/**
 * What the autoscaler observes of one scheduler at one tick.
 *
 * @param counts        rooms per status
 * @param readyRooms    the READY rooms a scale-down may remove (may be empty when the caller only wants the
 *                      delta; removals are then not named)
 * @param resourceUsage current cpu / mem readings; absent or unavailable when the source could not answer
 */
public record FleetSnapshot(RoomStatusCounts counts, List<ReadyRoom> readyRooms,
                            Map<ResourceMetric, UsageReading> resourceUsage) {

    public FleetSnapshot {
        if (counts == null) {
            throw new IllegalArgumentException("counts are required");
        }
        readyRooms = readyRooms == null ? List.of() : List.copyOf(readyRooms);
        resourceUsage = resourceUsage == null ? Map.of() : Map.copyOf(resourceUsage);
    }

    /**
     * Counts only: no ready rooms named, no resource readings.
     *
     * @param counts rooms per status
     */
    public static FleetSnapshot of(RoomStatusCounts counts) {
        return new FleetSnapshot(counts, List.of(), Map.of());
    }

    /**
     * This snapshot with a {@code metric} reading.
     */
    public FleetSnapshot withUsage(ResourceMetric metric, UsageReading reading) {
        Map<ResourceMetric, UsageReading> usage = new java.util.EnumMap<>(ResourceMetric.class);
        usage.putAll(resourceUsage);
        usage.put(metric, reading);
        return new FleetSnapshot(counts, readyRooms, usage);
    }
}
