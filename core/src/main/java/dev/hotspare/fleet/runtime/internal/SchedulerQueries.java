package dev.hotspare.fleet.runtime.internal;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import dev.hotspare.fleet.runtime.Fleet;
import dev.hotspare.fleet.runtime.SchedulerOperations;
import dev.hotspare.fleet.runtime.SchedulerOperations.ErrorCode;
import dev.hotspare.fleet.runtime.SchedulerOperations.SchedulerOperationException;
import dev.hotspare.fleet.runtime.SchedulerOperations.SchedulerStatus;
import dev.hotspare.fleet.runtime.SchedulerOperations.VersionDiff;
import dev.hotspare.fleet.spi.Release;
import dev.hotspare.fleet.spi.SchedulerRecord;
import dev.hotspare.fleet.versions.ConfigDiff;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.validation.Problem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * What users read about schedulers: status with room counts, releases, config by version, and the diff between
 * versions. Reads take no lock. Get one from {@link Fleet#queries()} or {@link SchedulerOperations#queries()}.
 */
public final class SchedulerQueries {

    private final OperationContext c;

    public SchedulerQueries(OperationContext context) {
        this.c = context;
    }

    /**
     * Releases, oldest first.
     *
     * @param name the scheduler
     */
    public List<Release> releases(String name) {
        c.existing(name);
        return c.store.releases(name);
    }

    /**
     * The differences between two versions of a scheduler. Which versions are compared: no version → current vs the one before it; only {@code v1} → {@code v1} vs the one
     * before it; both → {@code v1} vs {@code v2}.
     *
     * @param name the scheduler
     * @param v1 the first version, if given
     * @param v2 the second version, if given
     * @return the field-level differences between the two versions chosen as above
     */
    public VersionDiff diff(String name, Optional<SchedulerVersion> v1, Optional<SchedulerVersion> v2) {
        SchedulerRecord current = c.existing(name);
        List<Release> releases = c.store.releases(name);
        SchedulerVersion first = v1.orElse(current.version());
        Release newer = releases.stream().filter(r -> r.version().equals(first)).findFirst().orElseThrow(() -> OperationContext.notFound(name, first));
        Release older;
        if (v2.isPresent()) {
            older = releases.stream().filter(r -> r.version().equals(v2.get())).findFirst().orElseThrow(() -> OperationContext.notFound(name, v2.get()));
        } else {
            older = releases.stream().filter(r -> r.version().compareTo(first) < 0).reduce((a, b) -> b)
                    .orElseThrow(() -> new SchedulerOperationException(ErrorCode.VERSION_NOT_FOUND,
                            Problem.of("version", first, "has no previous version to compare with")));
        }
        return new VersionDiff(newer.version(), older.version(), ConfigDiff.between(older.config().tree(), newer.config().tree()));
    }

    /**
     * Status with room counts per room status and the match totals (with a room status store), per member phase,
     * and the version a rollback restored when the current version is one.
     *
     * @param name the scheduler
     */
    public SchedulerStatus status(String name) {
        SchedulerRecord current = c.existing(name);
        Map<MemberPhase, Integer> counts = new EnumMap<>(MemberPhase.class);
        for (MemberPhase phase : MemberPhase.values()) {
            counts.put(phase, 0);
        }
        c.driver().list(name).forEach(m -> counts.merge(m.phase(), 1, Integer::sum));
        JsonNode game = current.config().tree().path("game");
        return new SchedulerStatus(name, game.isString() ? Optional.of(game.asString()) : Optional.empty(), current.version(),
                current.state(), current.stateLastChangedAt(), current.lastScaleAt(),
                c.actions.statuses().map(rooms -> rooms.counts(name)).orElse(dev.hotspare.fleet.RoomStatusCounts.ZERO), counts,
                c.store.release(name, current.version()).flatMap(Release::rolledBackTo));
    }

    /**
     * The config as submitted, of the current version or of {@code version}.
     *
     * @param name the scheduler
     */
    public String config(String name, Optional<SchedulerVersion> version) {
        SchedulerRecord current = c.existing(name);
        if (version.isEmpty()) {
            return current.config().submitted();
        }
        return c.store.release(name, version.get()).orElseThrow(() -> OperationContext.notFound(name, version.get())).config().submitted();
    }

}
