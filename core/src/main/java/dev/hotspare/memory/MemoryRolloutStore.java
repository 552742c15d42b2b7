package dev.hotspare.memory;

import dev.hotspare.rollout.RolloutState;
import dev.hotspare.rollout.RolloutState.RolloutStateJson;
import dev.hotspare.rollout.TargetRef;
import dev.hotspare.rollout.spi.RolloutStore;
import dev.hotspare.rollout.spi.RolloutStore.RolloutConflictException;
import dev.hotspare.rollout.spi.RolloutStore.RolloutInProgressException;
import dev.hotspare.rollout.spi.RolloutStore.StaleRolloutVersionException;
import dev.hotspare.rollout.spi.RolloutStore.VersionedRollout;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * In-memory {@link RolloutStore}. It keeps the JSON text, like a real backend, so a controller that "crashes"
 * and reloads gets a state that went through serialisation, and callers never share mutable objects with it.
 * The targets each rollout in progress holds are kept beside it; every method is synchronised, so the
 * one-rollout-per-target check and the write are one step.
 */
public final class MemoryRolloutStore implements RolloutStore {

    private record Row(String json, long version, RolloutState state) {
    }

    private final Map<String, Row> rows = new HashMap<>();
    /** Target to the rollout in progress that holds it. */
    private final Map<TargetRef, String> holders = new HashMap<>();
    private long saves;

    /** An empty store. */
    public MemoryRolloutStore() {
    }

    @Override
    public synchronized Optional<VersionedRollout> load(String name) {
        Row row = rows.get(name);
        return row == null ? Optional.empty() : Optional.of(new VersionedRollout(RolloutStateJson.read(row.json()), row.version()));
    }

    @Override
    public synchronized long save(RolloutState state, long expectedVersion) {
        String name = state.name();
        Row row = rows.get(name);
        long actual = row == null ? 0 : row.version();
        if (actual != expectedVersion) {
            throw new StaleRolloutVersionException(name, expectedVersion, actual);
        }
        List<TargetRef> covered = state.coveredTargets();
        Map<String, List<TargetRef>> conflicts = new TreeMap<>();
        for (TargetRef target : covered) {
            String holder = holders.get(target);
            if (holder != null && !holder.equals(name)) {
                conflicts.computeIfAbsent(holder, h -> new ArrayList<>()).add(target);
            }
        }
        if (!conflicts.isEmpty()) {
            throw new RolloutConflictException(name, conflicts);
        }
        holders.values().removeIf(name::equals);
        covered.forEach(target -> holders.put(target, name));
        rows.put(name, new Row(RolloutStateJson.write(state), actual + 1, state));
        saves++;
        return actual + 1;
    }

    @Override
    public synchronized List<String> names() {
        return rows.keySet().stream().sorted().toList();
    }

    @Override
    public synchronized boolean delete(String name) {
        Row row = rows.get(name);
        if (row == null) {
            return false;
        }
        if (!row.state().terminal()) {
            throw new RolloutInProgressException(name, row.state().phase());
        }
        rows.remove(name);
        holders.values().removeIf(name::equals);
        return true;
    }

    /**
     * Successful saves so far (for tests).
     *
     * @return the count
     */
    public synchronized long saveCount() {
        return saves;
    }
}
