package dev.hotspare.fleet.autoscale;

import dev.hotspare.fleet.autoscale.Autoscaler.ReadyRoom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Orders READY rooms for removal: a scale-down of n rooms removes the first n. Pluggable through
 * {@link Autoscaler.Builder#ranking(RoomRemovalRanking)}. Must be deterministic (▲ Maestro picks at random).
 */
@FunctionalInterface
public interface RoomRemovalRanking {

    /** Rooms on an outdated version first, then the most recently created, then by name. */
    RoomRemovalRanking DEFAULT = ready -> {
        List<ReadyRoom> sorted = new ArrayList<>(ready);
        sorted.sort(Comparator.comparing((ReadyRoom r) -> !r.outdated())
                .thenComparing(ReadyRoom::createdAt, Comparator.reverseOrder())
                .thenComparing(ReadyRoom::name));
        return sorted;
    };

    /**
     * {@code ready} in removal order; must return a permutation of its input and not modify it.
     */
    List<ReadyRoom> rank(List<ReadyRoom> ready);
}
