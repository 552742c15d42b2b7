package dev.hotspare.fleet.plan;

import dev.hotspare.fleet.SchedulerConfig.MaxSurge;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.json.Documents;
import java.util.ArrayList;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.JsonNode;
import tools.jackson.core.JacksonException;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A fleet release as the {@link ReleaseMachine} keeps it, persisted with the scheduler
 * ({@code SchedulerStore.saveRelease}) so that another owner can resume it.
 *
 * @param target          the version being rolled out
 * @param previous        the version whose config comes back if the release fails; empty for the watcher's repair
 *                        of rooms left on an older major (nothing to roll back to: a failure just ends it)
 * @param phase           where the release stands
 * @param maxSurge        rooms replaced at once
 * @param timeout         how long the replace (and then the rollback) may take
 * @param deadline        when the phase running now times out
 * @param chunkSize       rooms per chunk, fixed on the first tick from the rooms then ({@code 0} before it)
 * @param chunk           the old rooms the chunk in flight replaces (removed when it started)
 * @param expectedNew     rooms on the goal's major that exist once the chunk in flight's rooms are created
 * @param failure         why the release failed (ERROR, CANCELED or TIMED_OUT), once it has
 * @param rollbackOutcome how the rollback ended (DEPLOYED, ERROR or TIMED_OUT), once it has
 */
public record ReleaseState(SchedulerVersion target, Optional<SchedulerVersion> previous, ReleasePhase phase,
                           MaxSurge maxSurge, Duration timeout, Instant deadline, int chunkSize, List<String> chunk,
                           int expectedNew, Optional<ReleasePhase> failure, Optional<ReleasePhase> rollbackOutcome) {

    /**
     * Checks the parts.
     *
     * @param target          the version being rolled out
     * @param previous        the version restored on failure, if any
     * @param maxSurge        rooms replaced at once
     * @param timeout         the replace timeout
     * @param deadline        when the running phase times out
     * @param chunkSize       rooms per chunk, 0 before the first tick
     * @param chunk           the old rooms the chunk in flight replaces
     * @param expectedNew     goal-major rooms once the chunk's rooms exist
     * @param failure         why the release failed
     * @param rollbackOutcome how the rollback ended
     */
    public ReleaseState {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(previous, "previous");
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(maxSurge, "maxSurge");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(deadline, "deadline");
        chunk = List.copyOf(Objects.requireNonNull(chunk, "chunk"));
        Objects.requireNonNull(failure, "failure");
        Objects.requireNonNull(rollbackOutcome, "rollbackOutcome");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout: bad value '" + timeout + "': must be positive");
        }
        if (chunkSize < 0) {
            throw new IllegalArgumentException("chunkSize: bad value '" + chunkSize + "': must not be negative");
        }
        if (expectedNew < 0) {
            throw new IllegalArgumentException("expectedNew: bad value '" + expectedNew + "': must not be negative");
        }
        if (failure.isPresent() && !failure.get().failure()) {
            throw new IllegalArgumentException("failure: bad value '" + failure.get() + "': must be ERROR, CANCELED or TIMED_OUT");
        }
    }

    /**
     * A release that starts now.
     *
     * @param target   the version being rolled out
     * @param previous the version restored on failure; empty for a repair that has nothing to roll back to
     * @param maxSurge rooms replaced at once
     * @param timeout  how long the replace may take
     * @param now      the start
     * @return a release REPLACING, before its first tick
     */
    public static ReleaseState start(SchedulerVersion target, Optional<SchedulerVersion> previous, MaxSurge maxSurge,
                                     Duration timeout, Instant now) {
        return new ReleaseState(target, previous, ReleasePhase.REPLACING, maxSurge, timeout, now.plus(timeout), 0,
                List.of(), 0, Optional.empty(), Optional.empty());
    }

    /**
     * The version a rollback saves: the next major after the target (the target is current while it is rolled
     * out, since the release holds CONFIG).
     */
    public SchedulerVersion restored() {
        return target.nextMajor();
    }

    /**
     * The version the rooms are moving to now: the target, or while rolling back (and after) the restored one.
     *
     * @return the goal version
     */
    public SchedulerVersion goal() {
        return failure.isPresent() && previous.isPresent() ? restored() : target;
    }

    /**
     * Whether the release is over.
     *
     * @return whether the phase is terminal
     */
    public boolean terminal() {
        return phase.terminal();
    }

    /**
     * Where a fleet release stands. {@link #REPLACING} and {@link #ROLLING_BACK} are in progress; the other four are
     * terminal and never change. A release that failed ends in the phase of its failure ({@link #ERROR},
     * {@link #CANCELED}, {@link #TIMED_OUT}) once its rollback has run.
     */
    public enum ReleasePhase {
        /** Rooms of an older major are replaced by rooms of the release's version, chunk by chunk. */
        REPLACING,
        /** The release failed; the previous config, saved again as a new major, replaces the rooms. */
        ROLLING_BACK,
        /** Every room runs the release's version. */
        DEPLOYED,
        /** A new room failed, the lease guarding the release was lost, or the store refused a write. */
        ERROR,
        /** Cancelled on request (a client, or a shutdown's first step). */
        CANCELED,
        /** The replace did not finish before its deadline. */
        TIMED_OUT;

        /**
         * Whether the phase is final.
         *
         * @return true for DEPLOYED, ERROR, CANCELED and TIMED_OUT
         */
        public boolean terminal() {
            return this != REPLACING && this != ROLLING_BACK;
        }

        /**
         * Whether the phase is a failure.
         *
         * @return true for ERROR, CANCELED and TIMED_OUT
         */
        public boolean failure() {
            return this == ERROR || this == CANCELED || this == TIMED_OUT;
        }
    }

    /**
     * The stored form of a {@link ReleaseState}: one JSON object (PostgreSQL keeps it in a JSONB column). Stores keep
     * the text and give it back; {@link #read} of {@link #write} is the state again.
     */
    public static final class ReleaseStateJson {

        /** The format written by {@link #write}; {@link #read} refuses any other. */
        public static final int FORMAT_VERSION = 1;

        private ReleaseStateJson() {
        }

        /**
         * The JSON text of {@code state}.
         *
         * @return one JSON object
         */
        public static String write(ReleaseState state) {
            ObjectNode o = Documents.nodes().objectNode();
            o.put("format", FORMAT_VERSION);
            o.put("target", state.target().toString());
            state.previous().ifPresent(v -> o.put("previous", v.toString()));
            o.put("phase", state.phase().name());
            o.put("maxSurge", state.maxSurge().toString());
            o.put("timeout", state.timeout().toString());
            o.put("deadline", state.deadline().toString());
            o.put("chunkSize", state.chunkSize());
            ArrayNode chunk = o.putArray("chunk");
            state.chunk().forEach(chunk::add);
            o.put("expectedNew", state.expectedNew());
            state.failure().ifPresent(p -> o.put("failure", p.name()));
            state.rollbackOutcome().ifPresent(p -> o.put("rollbackOutcome", p.name()));
            return o.toString();
        }

        /**
         * The state {@code json} holds.
         *
         * @param json text written by {@link #write}
         * @throws IllegalArgumentException naming the field when the text is not a release state of this format
         */
        public static ReleaseState read(String json) {
            JsonNode o;
            try {
                o = Documents.jsonReader().readTree(json);
            } catch (JacksonException e) {
                throw new IllegalArgumentException("release state: bad value: not JSON (" + e.getOriginalMessage() + ")", e);
            }
            if (o == null || !o.isObject()) {
                throw new IllegalArgumentException("release state: bad value '" + json + "': must be a JSON object");
            }
            if (o.path("format").asInt(-1) != FORMAT_VERSION) {
                throw new IllegalArgumentException("format: bad value '" + o.path("format") + "': must be " + FORMAT_VERSION);
            }
            List<String> chunk = new ArrayList<>();
            o.path("chunk").forEach(n -> chunk.add(n.asString()));
            return new ReleaseState(SchedulerVersion.parse(text(o, "target")), optional(o, "previous").map(SchedulerVersion::parse),
                    ReleasePhase.valueOf(text(o, "phase")), MaxSurge.parse("maxSurge", text(o, "maxSurge")),
                    Duration.parse(text(o, "timeout")), Instant.parse(text(o, "deadline")), o.path("chunkSize").asInt(),
                    chunk, o.path("expectedNew").asInt(), optional(o, "failure").map(ReleasePhase::valueOf),
                    optional(o, "rollbackOutcome").map(ReleasePhase::valueOf));
        }

        private static String text(JsonNode o, String field) {
            JsonNode n = o.path(field);
            if (!n.isString()) {
                throw new IllegalArgumentException(field + ": bad value '" + n + "': required text");
            }
            return n.asString();
        }

        private static Optional<String> optional(JsonNode o, String field) {
            return o.hasNonNull(field) ? Optional.of(text(o, field)) : Optional.empty();
        }
    }
}
