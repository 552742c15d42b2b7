package dev.hotspare.memory;

import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.lock.Fence;
import dev.hotspare.fleet.lock.Fence.StaleFenceException;
import dev.hotspare.fleet.plan.ReleaseState;
import dev.hotspare.fleet.plan.ReleaseState.ReleaseStateJson;
import dev.hotspare.fleet.plan.ScaleInputs;
import dev.hotspare.fleet.spi.Release;
import dev.hotspare.fleet.spi.Release.OperationStatus;
import dev.hotspare.fleet.spi.SchedulerRecord;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.fleet.spi.SchedulerStore.SchedulerNotFoundException;
import dev.hotspare.fleet.spi.SchedulerStore.StaleReleaseException;
import dev.hotspare.fleet.spi.SchedulerStore.VersionedRelease;
import dev.hotspare.fleet.spi.VersionedScaleInputs;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.validation.Names;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@link SchedulerStore} in process memory. Thread-safe (one monitor). Fencing state is per lock key and
 * lives as long as this object.
 */
public final class InMemorySchedulerStore implements SchedulerStore {

    private final Map<String, SchedulerRecord> schedulers = new TreeMap<>();
    private final Map<String, TreeMap<SchedulerVersion, Release>> releases = new HashMap<>();
    private final Map<String, Long> newestAcceptedToken = new HashMap<>();
    /** The release in flight per scheduler, as its JSON text (like PostgreSQL) and version. */
    private final Map<String, Map.Entry<String, Long>> releaseStates = new HashMap<>();
    /** The scale inputs per scheduler, as their JSON text (like PostgreSQL) and version. */
    private final Map<String, Map.Entry<String, Long>> scaleInputs = new HashMap<>();

    @Override
    public synchronized boolean create(String name, ConfigDocument config, String initialState, Instant now) {
        Names.requireDns1123Label("name", name);
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(initialState, "initialState");
        Objects.requireNonNull(now, "now");
        if (schedulers.containsKey(name)) {
            return false;
        }
        schedulers.put(name, new SchedulerRecord(name, SchedulerVersion.FIRST, config, initialState, now, Optional.empty(), now));
        TreeMap<SchedulerVersion, Release> history = new TreeMap<>();
        history.put(SchedulerVersion.FIRST, new Release(SchedulerVersion.FIRST, now, config, OperationStatus.DEPLOYED));
        releases.put(name, history);
        return true;
    }

    @Override
    public synchronized Optional<SchedulerRecord> get(String name) {
        Names.requireDns1123Label("name", name);
        return Optional.ofNullable(schedulers.get(name));
    }

    @Override
    public synchronized List<SchedulerRecord> list() {
        return List.copyOf(schedulers.values());
    }

    @Override
    public synchronized SchedulerRecord saveVersion(String name, SchedulerVersion version, ConfigDocument config,
                                                    Instant createdAt, Fence fence) {
        return save(name, version, Optional.empty(), config, createdAt, fence);
    }

    @Override
    public synchronized SchedulerRecord saveRollback(String name, SchedulerVersion version, SchedulerVersion rolledBackTo,
                                                     ConfigDocument config, Instant createdAt, Fence fence) {
        return save(name, version, Optional.of(Objects.requireNonNull(rolledBackTo, "rolledBackTo")), config, createdAt, fence);
    }

    private SchedulerRecord save(String name, SchedulerVersion version, Optional<SchedulerVersion> rolledBackTo,
                                 ConfigDocument config, Instant createdAt, Fence fence) {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(createdAt, "createdAt");
        SchedulerRecord current = existing(name);
        if (version.compareTo(current.version()) <= 0) {
            throw new IllegalArgumentException("version: bad value '" + version + "': must be newer than the current " + current.version());
        }
        accept(fence);
        SchedulerRecord updated = new SchedulerRecord(name, version, config, current.state(), current.stateLastChangedAt(),
                current.lastScaleAt(), current.createdAt());
        schedulers.put(name, updated);
        releases.get(name).put(version, new Release(version, createdAt, config, OperationStatus.IN_PROGRESS, rolledBackTo));
        return updated;
    }

    @Override
    public synchronized List<Release> releases(String name) {
        Names.requireDns1123Label("name", name);
        TreeMap<SchedulerVersion, Release> history = releases.get(name);
        return history == null ? List.of() : List.copyOf(history.values());
    }

    @Override
    public synchronized Optional<Release> release(String name, SchedulerVersion version) {
        Names.requireDns1123Label("name", name);
        TreeMap<SchedulerVersion, Release> history = releases.get(name);
        return history == null ? Optional.empty() : Optional.ofNullable(history.get(version));
    }

    @Override
    public synchronized void setStatus(String name, SchedulerVersion version, OperationStatus status, Fence fence) {
        Objects.requireNonNull(status, "status");
        existing(name);
        Release release = releases.get(name).get(version);
        if (release == null) {
            throw new IllegalArgumentException("version: bad value '" + version + "': scheduler " + name + " has no such release");
        }
        accept(fence);
        releases.get(name).put(version, release.withStatus(status));
    }

    @Override
    public synchronized void setState(String name, String state, Instant now, Fence fence) {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(now, "now");
        SchedulerRecord current = existing(name);
        accept(fence);
        if (!current.state().equals(state)) {
            schedulers.put(name, new SchedulerRecord(name, current.version(), current.config(), state, now,
                    current.lastScaleAt(), current.createdAt()));
        }
    }

    @Override
    public synchronized void setLastScaleAt(String name, Instant at, Fence fence) {
        Objects.requireNonNull(at, "at");
        SchedulerRecord current = existing(name);
        accept(fence);
        schedulers.put(name, new SchedulerRecord(name, current.version(), current.config(), current.state(),
                current.stateLastChangedAt(), Optional.of(at), current.createdAt()));
    }

    @Override
    public synchronized boolean delete(String name, Fence fence) {
        Names.requireDns1123Label("name", name);
        if (!schedulers.containsKey(name)) {
            return false;
        }
        accept(fence);
        schedulers.remove(name);
        releases.remove(name);
        releaseStates.remove(name);
        scaleInputs.remove(name);
        return true;
    }

    @Override
    public synchronized Optional<VersionedRelease> loadRelease(String name) {
        Names.requireDns1123Label("name", name);
        Map.Entry<String, Long> stored = releaseStates.get(name);
        return stored == null ? Optional.empty()
                : Optional.of(new VersionedRelease(ReleaseStateJson.read(stored.getKey()), stored.getValue()));
    }

    @Override
    public synchronized long saveRelease(String name, ReleaseState state, long expectedVersion, Fence fence) {
        Objects.requireNonNull(state, "state");
        existing(name);
        Map.Entry<String, Long> stored = releaseStates.get(name);
        long current = stored == null ? 0 : stored.getValue();
        if (current != expectedVersion) {
            throw new StaleReleaseException(name, expectedVersion, current);
        }
        accept(fence);
        releaseStates.put(name, Map.entry(ReleaseStateJson.write(state), current + 1));
        return current + 1;
    }

    @Override
    public synchronized VersionedScaleInputs loadScaleInputs(String name) {
        Names.requireDns1123Label("name", name);
        Map.Entry<String, Long> stored = scaleInputs.get(name);
        return stored == null ? VersionedScaleInputs.NONE
                : new VersionedScaleInputs(ScaleInputs.fromJson(stored.getKey()), stored.getValue());
    }

    @Override
    public synchronized boolean saveScaleInputs(String name, ScaleInputs inputs, long expectedVersion) {
        Objects.requireNonNull(inputs, "inputs");
        existing(name);
        Map.Entry<String, Long> stored = scaleInputs.get(name);
        long current = stored == null ? 0 : stored.getValue();
        if (current != expectedVersion) {
            return false;
        }
        scaleInputs.put(name, Map.entry(inputs.toJson(), current + 1));
        return true;
    }

    private SchedulerRecord existing(String name) {
        Names.requireDns1123Label("name", name);
        SchedulerRecord record = schedulers.get(name);
        if (record == null) {
            throw new SchedulerNotFoundException(name);
        }
        return record;
    }

    /** Checks, then records, the fence; callers have validated everything else so nothing is half-applied. */
    private void accept(Fence fence) {
        Objects.requireNonNull(fence, "fence");
        Long newest = newestAcceptedToken.get(fence.lockKey());
        if (newest != null && fence.token() < newest) {
            throw new StaleFenceException(fence, newest);
        }
        newestAcceptedToken.put(fence.lockKey(), fence.token());
    }
}
