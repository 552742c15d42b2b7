package dev.hotspare.rollout;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.hotspare.validation.Names;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/** Everything that can happen to a rollout; input of {@link RolloutMachine#decide}. JSON: {@code {"type": "Start", …}}. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = RolloutEvent.Start.class, name = "Start"),
        @JsonSubTypes.Type(value = RolloutEvent.AgentReported.class, name = "AgentReported"),
        @JsonSubTypes.Type(value = RolloutEvent.Tick.class, name = "Tick"),
        @JsonSubTypes.Type(value = RolloutEvent.Suspend.class, name = "Suspend"),
        @JsonSubTypes.Type(value = RolloutEvent.Resume.class, name = "Resume"),
        @JsonSubTypes.Type(value = RolloutEvent.Abort.class, name = "Abort"),
        @JsonSubTypes.Type(value = RolloutEvent.InventoryChanged.class, name = "InventoryChanged"),
        @JsonSubTypes.Type(value = RolloutEvent.LeaderChanged.class, name = "LeaderChanged"),
        @JsonSubTypes.Type(value = RolloutEvent.SpecChanged.class, name = "SpecChanged")})
public sealed interface RolloutEvent {

    /** Begin the rollout (ignored once started). */
    record Start() implements RolloutEvent {
    }

    /**
     * An agent's report for an op.
     *
     * @param target  where the op was addressed
     * @param opId    the op's id
     * @param attempt the op's attempt number
     * @param status  how it ended
     * @param message the agent's explanation (may be empty)
     */
    record AgentReported(TargetRef target, String opId, int attempt, OpStatus status, String message) implements RolloutEvent {
        /**
         * Validates and normalises the components.
         *
         * @param target  where the op was addressed
         * @param opId    the op's id
         * @param attempt the op's attempt number
         * @param status  how it ended
         * @param message the agent's explanation (may be empty)
         */
        public AgentReported {
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(opId, "opId");
            Objects.requireNonNull(status, "status");
            message = message == null ? "" : message;
        }
    }

    /**
     * A timer fired (the answer to a {@link RolloutCommand.ScheduleWake}); the machine checks timeouts,
     * retries and the window. Every event does the same checks, so an extra or late tick is harmless.
     *
     * @param at when the timer was due
     */
    record Tick(Instant at) implements RolloutEvent {
    }

    /** Stop starting new work at the next batch boundary. */
    record Suspend() implements RolloutEvent {
    }

    /** Continue a suspended (or suspending) rollout. */
    record Resume() implements RolloutEvent {
    }

    /** Stop: cancel in-flight ops and end ABORTED. */
    record Abort() implements RolloutEvent {
    }

    /**
     * The inventory changed: removed targets stop (in-flight ops cancelled), new ones join if their stage
     * has not passed.
     *
     * @param inventory the new inventory
     */
    record InventoryChanged(Inventory inventory) implements RolloutEvent {
        /**
         * Validates and normalises the components.
         *
         * @param inventory the new inventory
         */
        public InventoryChanged {
            Objects.requireNonNull(inventory, "inventory");
        }
    }

    /**
     * The leader changed; a services op in flight is re-issued to the new leader's agent.
     *
     * @param leader the new leader's node name (a DNS-1123 label: it becomes the services op's address), empty while there is none
     */
    record LeaderChanged(Optional<String> leader) implements RolloutEvent {
        /**
         * Validates and normalises the components.
         *
         * @param leader the new leader's node name (a DNS-1123 label: it becomes the services op's address), empty while there is none
         */
        public LeaderChanged {
            leader = leader == null ? Optional.empty() : leader;
            leader.ifPresent(name -> Names.requireDns1123Label("leader", name));
        }
    }

    /**
     * The spec changed. Only {@link RolloutSpec#SAFE_FIELDS} may differ from the running spec: {@code suspend}
     * takes effect as Suspend / Resume do; maxParallel, window.end and maxFailures at the next batch boundary.
     * A change of any other field is refused as a whole (a {@link Notice.Kind#SPEC_CHANGE_REFUSED} notice
     * names the fields) and nothing changes.
     *
     * @param spec the new spec
     */
    record SpecChanged(RolloutSpec spec) implements RolloutEvent {
        /**
         * Requires a spec.
         *
         * @param spec the new spec
         */
        public SpecChanged {
            Objects.requireNonNull(spec, "spec");
        }
    }
}
