package dev.hotspare.pool;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;
import dev.hotspare.validation.ValidationException;
import java.util.regex.Pattern;
import java.util.Objects;
import java.util.Locale;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Optional;

/**
 * A request for one member of a pool. Claims of one class are served oldest first. A claim records the three moments of its
 * life: when it was made ({@code createdAt}), when a member was recorded for it ({@code assignedAt}) and when
 * that member was handed to the claimer ready to use ({@code readyAt}). A claim may carry a priority class and a
 * deadline; the order claims are served in is {@link PoolPlanner#serviceOrder}.
 *
 * @param name           unique within the pool
 * @param createdAt      when it was made; with {@code name} it defines the claims' total order
 * @param lifetime       how long it wants its member (capped by the pool's maximum)
 * @param assignedMember the member it was given
 * @param assignedAt     when it was given one
 * @param readyAt        when its member was confirmed on both records and handed over; never before
 *                       {@code assignedAt}
 * @param claimClass     its priority class ({@link ClaimClass#DEFAULT} when it names none)
 * @param deadline       when it must be served by; a claim still pending at that instant expires
 * @param outcome        how it was served, once assigned (one of the served kinds); empty while pending, and for
 *                       claims assigned without the controller judging how
 */
public record Claim(String name, Instant createdAt, Optional<Duration> lifetime, Optional<String> assignedMember,
                    Optional<Instant> assignedAt, Optional<Instant> readyAt, ClaimClass claimClass,
                    Optional<Instant> deadline, Optional<ClaimOutcome> outcome) {

    /** (createdAt, name): the order of a single-class pool, and the order within one class. */
    public static final Comparator<Claim> TOTAL_ORDER = Comparator.comparing(Claim::createdAt).thenComparing(Claim::name);

    /**
     * Validates the claim: name and creation time required, positive lifetime, member and assignment time
     * together, ready only once assigned and not before.
     *
     * @param name unique within the pool
     * @param createdAt when it was made; with {@code name} it defines the claims' total order
     * @param lifetime how long it wants its member (capped by the pool's maximum)
     * @param assignedMember the member it was given
     * @param assignedAt when it was given one
     * @param readyAt when its member was confirmed on both records and handed over; never before
     * @param claimClass its priority class
     * @param deadline when it must be served by
     * @param outcome how it was served, once assigned
     * @throws dev.hotspare.validation.ValidationException with one problem per bad field
     */
    public Claim {
        Problems problems = new Problems();
        problems.require(name != null && !name.isBlank(), "name", name == null ? Problem.MISSING : name, "required");
        problems.require(createdAt != null, "createdAt", Problem.MISSING, "required");
        lifetime = lifetime == null ? Optional.empty() : lifetime;
        assignedMember = assignedMember == null ? Optional.empty() : assignedMember;
        assignedAt = assignedAt == null ? Optional.empty() : assignedAt;
        readyAt = readyAt == null ? Optional.empty() : readyAt;
        claimClass = claimClass == null ? ClaimClass.DEFAULT : claimClass;
        deadline = deadline == null ? Optional.empty() : deadline;
        outcome = outcome == null ? Optional.empty() : outcome;
        boolean assigned = assignedMember.isPresent();
        outcome.ifPresent(o -> problems.require(o.isServed() && assigned, "outcome", o,
                "a live claim's outcome is a served kind, recorded with its assignment"));
        lifetime.ifPresent(l -> problems.require(l.compareTo(Duration.ZERO) > 0, "lifetime", l, "must be a positive duration"));
        if (assignedMember.isPresent() != assignedAt.isPresent()) {
            // Only on the failing path: a claim is built several times per hand-out, and the message costs a string.
            problems.add("assignedAt", assignedAt.map(Object::toString).orElse(Problem.MISSING),
                    "assignedMember and assignedAt go together");
        }
        if (readyAt.isPresent()) {
            Instant ready = readyAt.get();
            problems.require(assignedAt.isPresent() && !ready.isBefore(assignedAt.get()), "readyAt", ready,
                    "needs an assignment no later than it");
        }
        problems.throwIfAny();
    }

    /**
     * A default-class claim without deadline or outcome: the field list before claim classes existed.
     *
     * @param name           unique within the pool
     * @param createdAt      when it was made
     * @param lifetime       how long it wants its member
     * @param assignedMember the member it was given
     * @param assignedAt     when it was given one
     * @param readyAt        when its member was handed over
     */
    public Claim(String name, Instant createdAt, Optional<Duration> lifetime, Optional<String> assignedMember,
                 Optional<Instant> assignedAt, Optional<Instant> readyAt) {
        this(name, createdAt, lifetime, assignedMember, assignedAt, readyAt, ClaimClass.DEFAULT, Optional.empty(),
                Optional.empty());
    }

    /**
     * A claim without a ready time: the field list before {@code readyAt} existed.
     *
     * @param name           unique within the pool
     * @param createdAt      when it was made
     * @param lifetime       how long it wants its member
     * @param assignedMember the member it was given
     * @param assignedAt     when it was given one
     */
    public Claim(String name, Instant createdAt, Optional<Duration> lifetime, Optional<String> assignedMember,
                 Optional<Instant> assignedAt) {
        this(name, createdAt, lifetime, assignedMember, assignedAt, Optional.empty());
    }

    @JsonCreator
    static Claim fromJson(@JsonProperty("name") String name, @JsonProperty("createdAt") Instant createdAt,
                          @JsonProperty("lifetime") Duration lifetime, @JsonProperty("assignedMember") String assignedMember,
                          @JsonProperty("assignedAt") Instant assignedAt, @JsonProperty("readyAt") Instant readyAt,
                          @JsonProperty("claimClass") ClaimClass claimClass, @JsonProperty("deadline") Instant deadline,
                          @JsonProperty("outcome") ClaimOutcome outcome) {
        return new Claim(name, createdAt, Optional.ofNullable(lifetime), Optional.ofNullable(assignedMember),
                Optional.ofNullable(assignedAt), Optional.ofNullable(readyAt), claimClass, Optional.ofNullable(deadline),
                Optional.ofNullable(outcome));
    }

    /**
     * A new, unassigned claim.
     *
     * @param name      its name
     * @param createdAt when it was made
     * @param lifetime  the lifetime it asks for
     * @return the pending claim
     */
    public static Claim pending(String name, Instant createdAt, Optional<Duration> lifetime) {
        return new Claim(name, createdAt, lifetime, Optional.empty(), Optional.empty(), Optional.empty());
    }

    /**
     * A new, unassigned claim as {@code request} asks.
     *
     * @param request   what the claimer asked for
     * @param createdAt when it was made
     * @return the pending claim
     */
    public static Claim pending(ClaimRequest request, Instant createdAt) {
        return request.toClaim(createdAt);
    }

    /**
     * Whether it has been given a member.
     *
     * @return true once a member is recorded
     */
    @JsonIgnore
    public boolean isAssigned() {
        return assignedMember.isPresent();
    }

    /**
     * Whether its member was handed over.
     *
     * @return true once {@code readyAt} is set
     */
    @JsonIgnore
    public boolean isReady() {
        return readyAt.isPresent();
    }

    /**
     * This claim given {@code member} at {@code at}, not yet ready.
     *
     * @param member the member id
     * @param at     the assignment time
     * @return an assigned copy
     */
    public Claim assigned(String member, Instant at) {
        return new Claim(name, createdAt, lifetime, Optional.of(member), Optional.of(at), Optional.empty(), claimClass,
                deadline, Optional.empty());
    }

    /**
     * This claim given {@code member} at {@code at}, served as {@code outcome}, not yet ready.
     *
     * @param member  the member id
     * @param at      the assignment time
     * @param outcome how it was served; empty when not judged
     * @return an assigned copy
     */
    public Claim assigned(String member, Instant at, Optional<ClaimOutcome> outcome) {
        return new Claim(name, createdAt, lifetime, Optional.of(member), Optional.of(at), Optional.empty(), claimClass,
                deadline, outcome);
    }

    /**
     * This claim in class {@code claimClass}.
     *
     * @param claimClass the class
     * @return a copy
     */
    public Claim withClass(ClaimClass claimClass) {
        return new Claim(name, createdAt, lifetime, assignedMember, assignedAt, readyAt, claimClass, deadline, outcome);
    }

    /**
     * This claim with {@code deadline}.
     *
     * @param deadline when it must be served by; empty for none
     * @return a copy
     */
    public Claim withDeadline(Optional<Instant> deadline) {
        return new Claim(name, createdAt, lifetime, assignedMember, assignedAt, readyAt, claimClass, deadline, outcome);
    }

    /**
     * Whether it is still pending at {@code now} with its deadline reached: it can no longer be served.
     *
     * @param now the decision time
     * @return true when pending and {@code now >= deadline}
     */
    public boolean isExpiredAt(Instant now) {
        return !isAssigned() && deadline.isPresent() && !now.isBefore(deadline.get());
    }

    /**
     * This claim with its member handed over at {@code at}. The first ready time wins.
     *
     * @param at when the member was handed over
     * @return a ready copy, or this claim when it already was
     * @throws dev.hotspare.validation.ValidationException if it is not assigned, or {@code at} is before its assignment
     */
    public Claim ready(Instant at) {
        if (readyAt.isPresent()) {
            return this;
        }
        return new Claim(name, createdAt, lifetime, assignedMember, assignedAt, Optional.of(at), claimClass, deadline, outcome);
    }

    /**
     * A claim's priority class. Pending claims of a higher {@code priority} are served before those of a lower one;
     * within one priority claims are served oldest first; and a claim that has waited the pool's
     * {@link PoolSpec#agingLimit() agingLimit} is served before every younger claim whatever their classes, so no
     * class starves. Classes with the same priority are one queue: the name is a label for people and metrics, the
     * priority alone decides.
     *
     * @param name     a DNS-1123 label (it is stored, tagged and logged)
     * @param priority higher goes first; 0 is the default class
     */
    public record ClaimClass(String name, int priority) {

        /** The class of every claim that names none: {@code default}, priority 0. */
        public static final ClaimClass DEFAULT = new ClaimClass("default", 0);

        /**
         * Validates the name.
         *
         * @param name     a DNS-1123 label
         * @param priority higher goes first
         * @throws dev.hotspare.validation.ValidationException naming the bad name
         */
        public ClaimClass {
            Problems problems = new Problems();
            Names.dns1123LabelProblem(name).ifPresent(why -> problems.add("claimClass.name", name == null ? Problem.MISSING : name, why));
            problems.throwIfAny();
        }

        @JsonCreator
        static ClaimClass fromJson(@JsonProperty("name") String name, @JsonProperty("priority") Integer priority) {
            return new ClaimClass(name, priority == null ? 0 : priority);
        }
    }

    /**
     * How a claim ended its wait. Every claim made through a pool controller gets exactly one outcome: one of the
     * three served kinds when a member is assigned, or {@link #WITHDRAWN} / {@link #EXPIRED} when it leaves the queue
     * without one. Releasing a served claim later does not change its outcome.
     */
    public enum ClaimOutcome {
        /** Served by a member that was already running when the claim arrived. */
        SERVED_HOT,
        /** Served by a member that was installed (hibernated) when the claim arrived and had to resume. */
        SERVED_WARM,
        /** Served by a member installed after the claim arrived. */
        SERVED_COLD,
        /** Withdrawn by the claimer (released or cancelled) before it was served. */
        WITHDRAWN,
        /** Its deadline passed before it was served; it was removed from the queue. */
        EXPIRED;

        /**
         * The served outcome for a claim served as {@code service}.
         *
         * @param service how the claim was served (see {@link ClaimService#classify})
         * @return SERVED_HOT, SERVED_WARM or SERVED_COLD
         */
        public static ClaimOutcome served(ClaimService service) {
            return switch (service) {
                case HOT -> SERVED_HOT;
                case WARM -> SERVED_WARM;
                case COLD -> SERVED_COLD;
            };
        }

        /**
         * Whether the claim got a member.
         *
         * @return true for the three served kinds
         */
        public boolean isServed() {
            return this == SERVED_HOT || this == SERVED_WARM || this == SERVED_COLD;
        }

        /**
         * Lower-case name, as used in metric tags.
         *
         * @return e.g. {@code served_hot}
         */
        public String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

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

    /**
     * How a claim was served, judged from the state its member was in when the claim arrived. The one
     * classification used by the live {@link dev.hotspare.pool.runtime.PoolController} and by the simulator, so their
     * numbers compare.
     */
    public enum ClaimService {
        /** Its member was already running when the claim arrived: served at once. */
        HOT,
        /** Its member was installed (hibernated) when the claim arrived and had to resume. */
        WARM,
        /** Its member was installed after the claim arrived: the claim waited for an install. */
        COLD;

        /**
         * Classifies a claim created at {@code claimCreatedAt} by its member as observed just before assignment.
         */
        public static ClaimService classify(Member member, Instant claimCreatedAt) {
            if (member.lastBecameRunningAt().isPresent() && !member.lastBecameRunningAt().get().isAfter(claimCreatedAt)) {
                return HOT;
            }
            if (member.installedAt().isPresent() && !member.installedAt().get().isAfter(claimCreatedAt)) {
                return WARM;
            }
            return COLD;
        }

        /** Lower-case name, as used in metric tags. */
        public String tag() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * A claim's wait split by {@link WaitStage}: how long it queued, waited for a resume and waited for an install.
     * The parts add up to the whole wait, from the claim's creation to its member being handed over.
     *
     * @param queue   time with no member on its way for it
     * @param resume  time waiting for a member to resume
     * @param install time waiting for a member to be installed
     */
    public record ClaimStages(Duration queue, Duration resume, Duration install) {

        /** No wait at all: a claim served on the pass that saw it, from a running member. */
        public static final ClaimStages NONE = new ClaimStages(Duration.ZERO, Duration.ZERO, Duration.ZERO);

        /**
         * Checks that no part is negative.
         *
         * @param queue time with no member on its way for it
         * @param resume time waiting for a member to resume
         * @param install time waiting for a member to be installed
         * @throws dev.hotspare.validation.ValidationException naming the negative part
         */
        public ClaimStages {
            Objects.requireNonNull(queue, "queue");
            Objects.requireNonNull(resume, "resume");
            Objects.requireNonNull(install, "install");
            new Problems().require(!queue.isNegative(), "queue", queue, "must not be negative")
                    .require(!resume.isNegative(), "resume", resume, "must not be negative")
                    .require(!install.isNegative(), "install", install, "must not be negative")
                    .throwIfAny();
        }

        /**
         * The whole wait.
         *
         * @return queue + resume + install
         */
        public Duration total() {
            return queue.plus(resume).plus(install);
        }

        /**
         * The part spent in {@code stage}.
         *
         * @return its duration
         */
        public Duration of(WaitStage stage) {
            return switch (stage) {
                case QUEUE -> queue;
                case RESUME -> resume;
                case INSTALL -> install;
            };
        }

        /**
         * These stages with {@code duration} more spent in {@code stage}; a negative duration adds nothing.
         *
         * @param stage    where the time went
         * @param duration how much
         * @return the sum
         */
        public ClaimStages plus(WaitStage stage, Duration duration) {
            if (duration.isNegative() || duration.isZero()) {
                return this;
            }
            return switch (stage) {
                case QUEUE -> new ClaimStages(queue.plus(duration), resume, install);
                case RESUME -> new ClaimStages(queue, resume.plus(duration), install);
                case INSTALL -> new ClaimStages(queue, resume, install.plus(duration));
            };
        }
    }

    /**
     * What a waiting claim's time is spent on. Every stretch of a claim's wait is attributed to one stage by the
     * {@link ClaimReason} it had then, so a claim's wait splits into {@link ClaimStages}.
     */
    public enum WaitStage {
        /** Waiting with no member on its way: limits, broken members, older claims first, a deleting pool. */
        QUEUE,
        /** Waiting for a hibernated member to resume. */
        RESUME,
        /** Waiting for a member to be installed. */
        INSTALL;

        /**
         * Lower-case name, as used in metric tags.
         *
         * @return e.g. {@code queue}
         */
        public String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * The first phase of a two-phase claim: a claim made under an idempotency key that the claimer must confirm before
     * {@code expiresAt}, or it ends by itself. The same key always answers with the same reservation (the same claim,
     * and the same member once one is assigned) while the claim is live, so a retry, a duplicate request or a claimer
     * that lost the answer never takes a second member.
     *
     * @param key         the claimer's idempotency key ({@link #requireValidKey})
     * @param claim       the claim the reservation holds, as stored
     * @param expiresAt   when an unconfirmed reservation ends; ignored once confirmed
     * @param confirmedAt when it was confirmed; empty while it is only reserved
     */
    public record Reservation(String key, Claim claim, Instant expiresAt, Optional<Instant> confirmedAt) {

        /** Longest idempotency key accepted: room for a UUID, a request id and a prefix. */
        public static final int MAX_KEY_LENGTH = 128;
        private static final Pattern KEY = Pattern.compile("[A-Za-z0-9._~:-]+");

        /**
         * @throws ValidationException if the key is invalid or a part is missing
         */
        public Reservation {
            requireValidKey(key);
            Objects.requireNonNull(claim, "claim");
            Objects.requireNonNull(expiresAt, "expiresAt");
            confirmedAt = confirmedAt == null ? Optional.empty() : confirmedAt;
        }

        /** Whether the claimer confirmed it: it is then an ordinary claim and never expires as a reservation. */
        public boolean confirmed() {
            return confirmedAt.isPresent();
        }

        /** Whether it is still only reserved and its time ran out at {@code now}. */
        public boolean isExpiredAt(Instant now) {
            return !confirmed() && !now.isBefore(expiresAt);
        }

        /**
         * Checks an idempotency key: 1 to {@value #MAX_KEY_LENGTH} characters of ASCII letters, digits and
         * {@code . _ ~ : -} — what fits a URL, a header and a database column unescaped.
         *
         * @throws ValidationException naming field {@code key} and the value
         */
        public static String requireValidKey(String key) {
            if (key == null) {
                throw new ValidationException(Problem.of("key", Problem.MISSING, "required"));
            }
            if (key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
                throw new ValidationException(Problem.of("key", key, "must be 1 to " + MAX_KEY_LENGTH + " characters long"));
            }
            if (!KEY.matcher(key).matches()) {
                throw new ValidationException(Problem.of("key", key,
                        "may only contain ASCII letters, digits and . _ ~ : -"));
            }
            return key;
        }
    }
}
