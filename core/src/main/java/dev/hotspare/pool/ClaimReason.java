package dev.hotspare.pool;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Why a claim is where it is: for a waiting claim, the one thing it waits for now; for an assigned one, its
 * member. Every pending claim in a {@link PoolPlan} has exactly one current reason, and
 * {@code PoolController.explain} answers with one. In JSON the {@code kind} field names the type.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "kind")
@JsonSubTypes({
        @JsonSubTypes.Type(value = ClaimReason.WaitingForResume.class, name = "WAITING_FOR_RESUME"),
        @JsonSubTypes.Type(value = ClaimReason.Provisioning.class, name = "PROVISIONING"),
        @JsonSubTypes.Type(value = ClaimReason.AtMaxSize.class, name = "AT_MAX_SIZE"),
        @JsonSubTypes.Type(value = ClaimReason.MaxConcurrentExhausted.class, name = "MAX_CONCURRENT_EXHAUSTED"),
        @JsonSubTypes.Type(value = ClaimReason.AllBroken.class, name = "ALL_BROKEN"),
        @JsonSubTypes.Type(value = ClaimReason.PoolDeleting.class, name = "POOL_DELETING"),
        @JsonSubTypes.Type(value = ClaimReason.Queued.class, name = "QUEUED"),
        @JsonSubTypes.Type(value = ClaimReason.Assigning.class, name = "ASSIGNING"),
        @JsonSubTypes.Type(value = ClaimReason.Assigned.class, name = "ASSIGNED"),
        @JsonSubTypes.Type(value = ClaimReason.MemberDeleting.class, name = "MEMBER_DELETING")})
public sealed interface ClaimReason permits ClaimReason.WaitingForResume, ClaimReason.Provisioning,
        ClaimReason.AtMaxSize, ClaimReason.MaxConcurrentExhausted, ClaimReason.AllBroken, ClaimReason.PoolDeleting,
        ClaimReason.Queued, ClaimReason.Assigning, ClaimReason.Assigned, ClaimReason.MemberDeleting {

    /** The reason's type, one constant per record. */
    enum Kind {
        /** A member is resuming for it. */
        WAITING_FOR_RESUME,
        /** A member is being installed for it. */
        PROVISIONING,
        /** No member can be added: the pool is at {@code maxSize}. */
        AT_MAX_SIZE,
        /** No member can be added now: {@code maxConcurrent} members are provisioning or deleting. */
        MAX_CONCURRENT_EXHAUSTED,
        /** The members that would serve it are broken and being replaced. */
        ALL_BROKEN,
        /** The pool is being deleted and serves no claim. */
        POOL_DELETING,
        /** Older claims are served first; its member follows on a later pass. */
        QUEUED,
        /** A running member is free for it: the next pass assigns it. */
        ASSIGNING,
        /** It holds a member. */
        ASSIGNED,
        /**
         * Its member is being deleted (Hive's {@code ClusterDeleting}): the claim is never served again and is
         * released once the member is gone.
         */
        MEMBER_DELETING
    }

    /**
     * This reason's type.
     *
     * @return the kind, also the {@code kind} field in JSON
     */
    Kind kind();

    /**
     * The stage a claim's wait is attributed to while it has this reason.
     *
     * @return RESUME while waiting for a resume, INSTALL while waiting for an install, QUEUE otherwise
     */
    default WaitStage stage() {
        return WaitStage.QUEUE;
    }

    /**
     * One line for people: what it waits for and until when.
     *
     * @return the text, also the {@code text} field in JSON
     */
    @JsonProperty("text")
    String text();

    /**
     * A member is resuming (or is asked to resume) for the claim.
     *
     * @param member          the member it waits for
     * @param since           when the resume started (or was asked for)
     * @param expectedReadyAt when it is expected to run, from the resumes the pool has seen; empty when none yet
     */
    @JsonPropertyOrder({"kind", "member", "since", "expectedReadyAt", "text"})
    record WaitingForResume(String member, Instant since, Optional<Instant> expectedReadyAt) implements ClaimReason {
        /**
         * Checks the fields.
         *
         * @param member the member it waits for
         * @param since when the resume started (or was asked for)
         * @param expectedReadyAt when it is expected to run, from the resumes the pool has seen; empty when none yet
         * @throws NullPointerException if a field is null
         */
        public WaitingForResume {
            Objects.requireNonNull(member, "member");
            Objects.requireNonNull(since, "since");
            Objects.requireNonNull(expectedReadyAt, "expectedReadyAt");
        }

        @Override
        public Kind kind() {
            return Kind.WAITING_FOR_RESUME;
        }

        @Override
        public WaitStage stage() {
            return WaitStage.RESUME;
        }

        @Override
        public String text() {
            return "waiting for member " + member + " to resume (since " + since + ")"
                    + expectedReadyAt.map(at -> ", expected running at " + at).orElse("");
        }
    }

    /**
     * A member is being installed for the claim.
     *
     * @param member          the member it waits for; empty when this very pass creates it
     * @param since           when the member was created
     * @param expectedReadyAt when it is expected to be installed, from the installs the pool has seen; empty when none yet
     */
    @JsonPropertyOrder({"kind", "member", "since", "expectedReadyAt", "text"})
    record Provisioning(Optional<String> member, Instant since, Optional<Instant> expectedReadyAt) implements ClaimReason {
        /**
         * Checks the fields.
         *
         * @param member the member it waits for; empty when this very pass creates it
         * @param since when the member was created
         * @param expectedReadyAt when it is expected to be installed, from the installs the pool has seen; empty when none yet
         * @throws NullPointerException if a field is null
         */
        public Provisioning {
            Objects.requireNonNull(member, "member");
            Objects.requireNonNull(since, "since");
            Objects.requireNonNull(expectedReadyAt, "expectedReadyAt");
        }

        @Override
        public Kind kind() {
            return Kind.PROVISIONING;
        }

        @Override
        public WaitStage stage() {
            return WaitStage.INSTALL;
        }

        @Override
        public String text() {
            return "waiting for " + member.map(m -> "member " + m).orElse("a new member") + " to be installed (since "
                    + since + ")" + expectedReadyAt.map(at -> ", expected installed at " + at).orElse("");
        }
    }

    /**
     * No member can be added for the claim: the pool has {@code maxSize} members.
     *
     * @param maxSize the cap
     * @param members members now, claimed and deleting included
     */
    record AtMaxSize(int maxSize, int members) implements ClaimReason {
        @Override
        public Kind kind() {
            return Kind.AT_MAX_SIZE;
        }

        @Override
        public String text() {
            return "the pool is at maxSize " + maxSize + " (" + members + " members); a release or delete makes room";
        }
    }

    /**
     * No member can be added for the claim now: {@code maxConcurrent} members are provisioning or deleting.
     *
     * @param maxConcurrent the cap
     * @param inFlight      unclaimed members provisioning plus members deleting, this pass's included
     */
    record MaxConcurrentExhausted(int maxConcurrent, int inFlight) implements ClaimReason {
        @Override
        public Kind kind() {
            return Kind.MAX_CONCURRENT_EXHAUSTED;
        }

        @Override
        public String text() {
            return "maxConcurrent " + maxConcurrent + " reached (" + inFlight + " provisioning or deleting)";
        }
    }

    /**
     * The members that would serve the claim are broken and are being replaced first.
     *
     * @param broken unclaimed broken members
     */
    record AllBroken(int broken) implements ClaimReason {
        @Override
        public Kind kind() {
            return Kind.ALL_BROKEN;
        }

        @Override
        public String text() {
            return broken + " unclaimed member(s) broken; they are replaced before the pool grows";
        }
    }

    /**
     * The member recorded on the claim is being deleted, as Hive's {@code ClusterDeleting}: the claim is never
     * served again (no other member is handed to it) and is released ({@code MEMBER_GONE}) once the member is gone.
     *
     * @param member the member being deleted
     */
    record MemberDeleting(String member) implements ClaimReason {
        /**
         * Checks the field.
         *
         * @param member the member being deleted
         * @throws NullPointerException if it is null
         */
        public MemberDeleting {
            Objects.requireNonNull(member, "member");
        }

        @Override
        public Kind kind() {
            return Kind.MEMBER_DELETING;
        }

        @Override
        public String text() {
            return "member " + member + " is being deleted; the claim is not served again and ends when the member is gone";
        }
    }

    /** The pool is being deleted: no claim is served. */
    record PoolDeleting() implements ClaimReason {
        @Override
        public Kind kind() {
            return Kind.POOL_DELETING;
        }

        @Override
        public String text() {
            return "the pool is being deleted and serves no claim";
        }
    }

    /**
     * Older claims take the members on their way first; this claim's member follows on a later pass.
     *
     * @param ahead pending claims ahead of it
     */
    record Queued(int ahead) implements ClaimReason {
        @Override
        public Kind kind() {
            return Kind.QUEUED;
        }

        @Override
        public String text() {
            return ahead + " older claim(s) first; a member for it follows on the next pass";
        }
    }

    /**
     * A running member is free for the claim; the next pass assigns it (only seen between passes).
     *
     * @param member the member it is about to get
     */
    record Assigning(String member) implements ClaimReason {
        /**
         * Checks the field.
         *
         * @param member the member it is about to get
         * @throws NullPointerException if it is null
         */
        public Assigning {
            Objects.requireNonNull(member, "member");
        }

        @Override
        public Kind kind() {
            return Kind.ASSIGNING;
        }

        @Override
        public String text() {
            return "member " + member + " is running and free: the next pass assigns it";
        }
    }

    /**
     * The claim holds a member.
     *
     * @param member     its member
     * @param assignedAt when it was assigned
     * @param readyAt    when it was handed over; empty until the controller confirmed it
     */
    @JsonPropertyOrder({"kind", "member", "assignedAt", "readyAt", "text"})
    record Assigned(String member, Instant assignedAt, Optional<Instant> readyAt) implements ClaimReason {
        /**
         * Checks the fields.
         *
         * @param member its member
         * @param assignedAt when it was assigned
         * @param readyAt when it was handed over; empty until the controller confirmed it
         * @throws NullPointerException if a field is null
         */
        public Assigned {
            Objects.requireNonNull(member, "member");
            Objects.requireNonNull(assignedAt, "assignedAt");
            Objects.requireNonNull(readyAt, "readyAt");
        }

        @Override
        public Kind kind() {
            return Kind.ASSIGNED;
        }

        @Override
        public String text() {
            return "holds member " + member + " since " + assignedAt;
        }
    }
}
