package dev.hotspare.fleet.spi;

import dev.hotspare.fleet.RoomStatus;
import dev.hotspare.fleet.RoomStatusCounts;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a watcher's tick reads of a scheduler's rooms, in one {@link RoomStatusStore#observe} call: every room's
 * status, the counts, and the dead rooms.
 *
 * @param statuses each room in one of the {@linkplain #OBSERVED observed statuses}, with that status
 * @param counts   the scheduler's room counts
 * @param dead     the rooms dead by the rules the call was given, silent ones first
 */
public record RoomObservation(Map<String, RoomStatus> statuses, RoomStatusCounts counts, List<String> dead) {

    /** The statuses whose rooms a tick lists (terminated rooms are gone; allocated rooms are listed as ready). */
    public static final List<RoomStatus> OBSERVED = List.of(RoomStatus.CREATING, RoomStatus.READY, RoomStatus.OCCUPIED,
            RoomStatus.TERMINATING, RoomStatus.ERROR);

    public RoomObservation {
        statuses = Collections.unmodifiableMap(new LinkedHashMap<>(statuses));
        dead = List.copyOf(new ArrayList<>(dead));
        java.util.Objects.requireNonNull(counts, "counts");
    }
}
