package dev.hotspare.memory;

import dev.hotspare.rollout.RolloutState;
import dev.hotspare.rollout.RolloutStateJson;
import dev.hotspare.rollout.spi.RolloutStore;
import dev.hotspare.rollout.spi.StaleRolloutVersionException;
import dev.hotspare.rollout.spi.VersionedRollout;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * In-memory {@link RolloutStore}. It keeps the JSON text, like a real backend, so a controller that "crashes"
 * and reloads gets a state that went through serialisation, and callers never share mutable objects with it.
 */
public final class MemoryRolloutStore implements RolloutStore {

    private record Row(String json, long version) {
    }

    private final Map<String, Row> rows = new HashMap<>();
    private long saves;

    @Override
    public synchronized Optional<VersionedRollout> load(String name) {
        Row row = rows.get(name);
        return row == null ? Optional.empty() : Optional.of(new VersionedRollout(RolloutStateJson.read(row.json()), row.version()));
    }

    @Override
    public synchronized long save(RolloutState state, long expectedVersion) {
        Row row = rows.get(state.name());
        long actual = row == null ? 0 : row.version();
        if (actual != expectedVersion) {
            throw new StaleRolloutVersionException(state.name(), expectedVersion, actual);
        }
        rows.put(state.name(), new Row(RolloutStateJson.write(state), actual + 1));
        saves++;
        return actual + 1;
    }

    @Override
    public synchronized List<String> names() {
        return rows.keySet().stream().sorted().toList();
    }

    @Override
    public synchronized boolean delete(String name) {
        return rows.remove(name) != null;
    }

    /** Successful saves so far (for tests). */
    public synchronized long saveCount() {
        return saves;
    }
}
