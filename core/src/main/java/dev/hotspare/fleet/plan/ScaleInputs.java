package dev.hotspare.fleet.plan;

import dev.hotspare.json.Documents;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A scheduler's scaling inputs that do not come from the autoscaler, persisted with the scheduler so that whichever
 * instance owns it next reads them: manual scale requests (Maestro's add-rooms / remove-rooms operations) waiting
 * for the watcher, the one being applied (with what the planner decided for it, so a crash between deciding and
 * applying resumes to the same room count), the outcomes of recent requests (for the callers waiting on them), and
 * the panic input a room report left. The watcher's {@link FleetPlanner#plan} reads them; the watcher applies the
 * plan through its room actions and saves the result with the store's expected version.
 *
 * @param pending   requests not applied yet, oldest first
 * @param applying  the request being applied and the planner's decision for it
 * @param outcomes  the latest outcomes, oldest first, at most {@link #KEPT_OUTCOMES}
 * @param panicAt   when a room that just became occupied asked for a panic scale decision, if one is pending
 */
public record ScaleInputs(List<Request> pending, Optional<Applying> applying, List<Outcome> outcomes,
                          Optional<Instant> panicAt) {

    /** No input. */
    public static final ScaleInputs EMPTY = new ScaleInputs(List.of(), Optional.empty(), List.of(), Optional.empty());

    /** Outcomes kept for waiting callers; older ones are dropped. */
    public static final int KEPT_OUTCOMES = 32;

    /** The format {@link #toJson} writes; {@link #fromJson} refuses any other. */
    public static final int FORMAT_VERSION = 1;

    /** Copies the lists, keeps the latest {@link #KEPT_OUTCOMES} outcomes and fills in absent parts. */
    public ScaleInputs {
        pending = List.copyOf(pending);
        applying = Objects.requireNonNullElse(applying, Optional.empty());
        outcomes = List.copyOf(outcomes.size() > KEPT_OUTCOMES ? outcomes.subList(outcomes.size() - KEPT_OUTCOMES, outcomes.size()) : outcomes);
        panicAt = Objects.requireNonNullElse(panicAt, Optional.empty());
    }

    /** What a manual request asks for. */
    public enum Kind {
        /** Add {@code amount} rooms (Maestro's {@code scaleup}, add-rooms). */
        UP,
        /** Remove {@code amount} rooms (Maestro's {@code scaledown}, remove-rooms). */
        DOWN,
        /** Scale to {@code amount} rooms (Maestro's {@code replicas}). */
        REPLICAS
    }

    /**
     * One manual scale request as recorded.
     *
     * @param id          unique; the caller waits for the outcome of this id
     * @param amount      rooms to add or remove (at least 1), or the replicas asked for (0 or more)
     * @param requestedAt when it was recorded
     */
    public record Request(String id, Kind kind, int amount, Instant requestedAt) {
        /** Checks the parts: an amount of at least 1 (0 allowed for replicas). */
        public Request {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(requestedAt, "requestedAt");
            if (amount < (kind == Kind.REPLICAS ? 0 : 1)) {
                throw new IllegalArgumentException("amount: bad value '" + amount + "': too small for a " + kind + " request");
            }
        }
    }

    /**
     * A request being applied: saved before any room changes, so an instance that resumes it after a crash applies
     * the same decision and no more.
     *
     * @param request the manual request this decision answers; it leaves the queue once its outcome is saved
     * @param target  the rooms the driver should list once a scale-up is applied (rooms listed when it was decided
     *                plus the rooms to create); a resumed scale-up creates only what is still missing
     * @param create  the rooms the decision creates (0 for a scale-down or a request that changes nothing)
     * @param victims the rooms the decision removes, in removal order (a resumed scale-down removes those still listed)
     */
    public record Applying(Request request, int target, int create, List<String> victims) {
        /** Checks the parts: counts not negative, and either rooms to create or victims, not both. */
        public Applying {
            Objects.requireNonNull(request, "request");
            victims = List.copyOf(victims);
            if (create < 0 || target < 0) {
                throw new IllegalArgumentException("create: bad value '" + create + "' (target " + target + "): must not be negative");
            }
            if (create > 0 && !victims.isEmpty()) {
                throw new IllegalArgumentException("victims: bad value '" + victims + "': a request either creates or removes rooms");
            }
        }

        /** The change in the number of rooms this decision makes: + created, − removed. */
        public int delta() {
            return create - victims.size();
        }
    }

    /**
     * A request's outcome.
     *
     * @param id      the request's id
     * @param delta   rooms added (positive) or removed (negative)
     * @param removed the rooms removed, for a caller that waits until they are gone
     */
    public record Outcome(String id, int delta, List<String> removed) {
        /** Copies the removed rooms. */
        public Outcome {
            Objects.requireNonNull(id, "id");
            removed = List.copyOf(removed);
        }
    }

    /** Whether there is nothing for the watcher to do. */
    public boolean idle() {
        return pending.isEmpty() && applying.isEmpty() && panicAt.isEmpty();
    }

    /** The next request to decide, when none is being applied. */
    public Optional<Request> next() {
        return applying.isEmpty() && !pending.isEmpty() ? Optional.of(pending.get(0)) : Optional.empty();
    }

    /** These inputs with {@code request} queued last. */
    public ScaleInputs withRequest(Request request) {
        List<Request> queued = new ArrayList<>(pending);
        queued.add(Objects.requireNonNull(request, "request"));
        return new ScaleInputs(queued, applying, outcomes, panicAt);
    }

    /** These inputs with a panic decision asked for at {@code at} (an earlier pending one is kept: one decision covers both). */
    public ScaleInputs withPanic(Instant at) {
        return new ScaleInputs(pending, applying, outcomes, panicAt.isPresent() ? panicAt : Optional.of(at));
    }

    /** These inputs without the panic input. */
    public ScaleInputs withoutPanic() {
        return new ScaleInputs(pending, applying, outcomes, Optional.empty());
    }

    /**
     * The decision for the next request, taken off the queue and saved as being applied.
     *
     * @throws IllegalStateException when {@code decision} is not for the next request
     */
    public ScaleInputs start(Applying decision) {
        if (next().filter(r -> r.equals(decision.request())).isEmpty()) {
            throw new IllegalStateException("request " + decision.request().id() + " is not the next one to apply");
        }
        return new ScaleInputs(pending.subList(1, pending.size()), Optional.of(decision), outcomes, panicAt);
    }

    /** The request being applied is done with {@code outcome}; unchanged when no request is being applied. */
    public ScaleInputs finish(Outcome outcome) {
        if (applying.isEmpty()) {
            return this;
        }
        List<Outcome> done = new ArrayList<>(outcomes);
        done.add(outcome);
        return new ScaleInputs(pending, Optional.empty(), done, panicAt);
    }

    /** The outcome of request {@code id}, once applied (and while it is among the kept outcomes). */
    public Optional<Outcome> outcome(String id) {
        return outcomes.stream().filter(o -> o.id().equals(id)).findFirst();
    }

    /** Whether request {@code id} is pending or being applied. */
    public boolean waiting(String id) {
        return pending.stream().anyMatch(r -> r.id().equals(id)) || applying.filter(a -> a.request().id().equals(id)).isPresent();
    }

    /** The stored form: one JSON object (PostgreSQL keeps it in a JSONB column); {@link #fromJson} of it is these inputs. */
    public String toJson() {
        ObjectNode o = Documents.nodes().objectNode();
        o.put("format", FORMAT_VERSION);
        ArrayNode queued = o.putArray("pending");
        pending.forEach(r -> write(queued.addObject(), r));
        applying.ifPresent(a -> {
            ObjectNode n = o.putObject("applying");
            write(n.putObject("request"), a.request());
            n.put("target", a.target());
            n.put("create", a.create());
            ArrayNode victims = n.putArray("victims");
            a.victims().forEach(victims::add);
        });
        ArrayNode done = o.putArray("outcomes");
        outcomes.forEach(d -> {
            ObjectNode n = done.addObject();
            n.put("id", d.id());
            n.put("delta", d.delta());
            ArrayNode removed = n.putArray("removed");
            d.removed().forEach(removed::add);
        });
        panicAt.ifPresent(at -> o.put("panicAt", at.toString()));
        return o.toString();
    }

    /**
     * The inputs {@code json} holds.
     *
     * @param json text written by {@link #toJson}
     * @throws IllegalArgumentException naming the field when the text is not scale inputs of this format
     */
    public static ScaleInputs fromJson(String json) {
        JsonNode o;
        try {
            o = Documents.jsonReader().readTree(json);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("scale inputs: bad value: not JSON (" + e.getOriginalMessage() + ")", e);
        }
        if (o == null || !o.isObject()) {
            throw new IllegalArgumentException("scale inputs: bad value '" + json + "': must be a JSON object");
        }
        if (o.path("format").asInt(-1) != FORMAT_VERSION) {
            throw new IllegalArgumentException("format: bad value '" + o.path("format") + "': must be " + FORMAT_VERSION);
        }
        List<Request> pending = new ArrayList<>();
        o.path("pending").forEach(n -> pending.add(request(n)));
        Optional<Applying> applying = Optional.empty();
        if (o.hasNonNull("applying")) {
            JsonNode a = o.get("applying");
            applying = Optional.of(new Applying(request(a.path("request")), a.path("target").asInt(), a.path("create").asInt(),
                    strings(a.path("victims"))));
        }
        List<Outcome> outcomes = new ArrayList<>();
        o.path("outcomes").forEach(n -> outcomes.add(new Outcome(text(n, "id"), n.path("delta").asInt(), strings(n.path("removed")))));
        Optional<Instant> panicAt = o.hasNonNull("panicAt") ? Optional.of(Instant.parse(text(o, "panicAt"))) : Optional.empty();
        return new ScaleInputs(pending, applying, outcomes, panicAt);
    }

    private static void write(ObjectNode n, Request r) {
        n.put("id", r.id());
        n.put("kind", r.kind().name());
        n.put("amount", r.amount());
        n.put("requestedAt", r.requestedAt().toString());
    }

    private static Request request(JsonNode n) {
        return new Request(text(n, "id"), Kind.valueOf(text(n, "kind")), n.path("amount").asInt(), Instant.parse(text(n, "requestedAt")));
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asString()));
        return out;
    }

    private static String text(JsonNode o, String field) {
        JsonNode n = o.path(field);
        if (!n.isString()) {
            throw new IllegalArgumentException(field + ": bad value '" + n + "': required text");
        }
        return n.asString();
    }
}
