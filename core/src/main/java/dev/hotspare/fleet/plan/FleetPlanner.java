package dev.hotspare.fleet.plan;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.hotspare.fleet.PolicyTypes;
import dev.hotspare.fleet.PolicyTypes.PolicyParameters;
import dev.hotspare.fleet.PolicyTypes.TriggerTypes;
import dev.hotspare.fleet.RoomProtocol.DeadRoomRules;
import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfig.Autoscaling;
import dev.hotspare.fleet.SchedulerState;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.autoscale.Autoscaler.FleetSnapshot;
import dev.hotspare.fleet.autoscale.Autoscaler.ReadyRoom;
import dev.hotspare.fleet.autoscale.Autoscaler.ScaleDecision;
import dev.hotspare.fleet.autoscale.Autoscaler.UsageWindows;
import dev.hotspare.fleet.autoscale.ResourceMetric;
import dev.hotspare.fleet.autoscale.UsageReading;
import dev.hotspare.fleet.plan.FleetPlanner.FleetPlan.Registration;
import dev.hotspare.fleet.plan.FleetPlanner.FleetPlan.ScaleDown;
import dev.hotspare.fleet.plan.FleetPlanner.FleetPlan.ScaleReason;
import dev.hotspare.fleet.plan.FleetPlanner.FleetPlan.ScaleUp;
import dev.hotspare.fleet.plan.FleetPlanner.FleetPlan.Scaling;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberPhase;
import java.math.BigDecimal;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The fleet's decisions, as pure functions: what one watcher tick does to a scheduler ({@link #plan}), which rooms
 * a scale-down removes ({@link #removalOrder}), whether a room that just became occupied triggers a panic scale
 * ({@link #panic}), what a manual request changes ({@link #manual}). No I/O, no clock, inputs untouched; the fleet runtime observes, calls these and applies what
 * they return, exactly as a pool's controller applies a {@code PoolPlan}.
 *
 * <p>The rules of one tick ({@link #plan}):
 * <ol>
 *   <li>Rooms the driver lists without a status are registered {@code creating}; statuses of rooms the driver does
 *       not list are forgotten once they are dead or terminating (a room another worker just created may not be
 *       listed yet by this worker's view of the driver). No lock.</li>
 *   <li>Rooms on another major than the scheduler's are outdated; with DOWNSCALE held and no replace running, a
 *       rolling replace starts.</li>
 *   <li>Otherwise, with DOWNSCALE held and no removal running, dead rooms the driver lists are removed.</li>
 *   <li>With TERMINATION held, no removal running and no dead room removed this tick (the counts would still
 *       include them), the scheduler's persisted scale inputs come first, one per tick: a request being applied is
 *       left to the runtime to resume (nothing else scales); a pending panic input is decided on this tick's counts
 *       ({@link #panic}); else the oldest manual request ({@link #manual}).</li>
 *   <li>Otherwise, under the same conditions: a scheduler still {@code creating} gets its min rooms and becomes {@code in-sync}; any
 *       other is autoscaled ({@link Autoscaler#evaluate}), its usage points recorded, its state updated, and a
 *       scale-down removes READY rooms in the configured removal ranking's order.</li>
 * </ol>
 * Thread-safe and immutable.
 */
public final class FleetPlanner {

    private final Autoscaler autoscaler;
    private final boolean surgeWhileOutdated;

    /**
     * A planner deciding with {@code autoscaler} (its policies, settings and removal ranking).
     */
    public FleetPlanner(Autoscaler autoscaler) {
        this(autoscaler, false);
    }

    private FleetPlanner(Autoscaler autoscaler, boolean surgeWhileOutdated) {
        this.autoscaler = Objects.requireNonNull(autoscaler, "autoscaler");
        this.surgeWhileOutdated = surgeWhileOutdated;
    }

    /**
     * This planner with Maestro 10's rolling-update target: while rooms of an older major exist, the autoscaler's
     * desired count is raised to {@link #rollingUpdateTarget}, so that the fleet keeps its capacity while a release
     * replaces rooms. Off by default: a release replaces rooms one for one, as Maestro 9 does.
     *
     * @return a planner with the option on
     */
    public FleetPlanner withSurgeWhileOutdated() {
        return new FleetPlanner(autoscaler, true);
    }

    /**
     * Maestro 10's desired rooms while a rolling update runs: {@code desired + surge}, capped at {@code max} when
     * the scheduler is bounded; a surge of 0 or less counts as 1.
     *
     * @param desired     the rooms the autoscaler wants
     * @param autoscaling the scheduler's autoscaling section (its max)
     * @param surge       rooms of surge
     * @return the rolling update's desired rooms, never below {@code desired}
     */
    public static int rollingUpdateTarget(int desired, Autoscaling autoscaling, int surge) {
        long target = (long) desired + Math.max(1, surge);
        if (autoscaling.isBounded()) {
            target = Math.min(target, Math.max(desired, autoscaling.max()));
        }
        return (int) Math.min(Integer.MAX_VALUE, target);
    }

    /** Rooms to add to reach the rolling-update target, when it is above what the autoscaler adds; 0 otherwise. */
    private int rollingUpdateScaleUp(FleetObservation o, ScaleDecision decision) {
        int active = o.counts().active();
        int desired = active + decision.delta();
        int up = Math.min(rollingUpdateTarget(desired, o.config().autoscaling(), surgeOf(o.config(), desired)) - active,
                autoscaler.settings().maxScaleUpAmount());
        return up > Math.max(0, decision.delta()) ? up : 0;
    }

    /**
     * The surge of {@code config} for {@code desired} rooms: its {@code maxSurge} (a percentage of the desired rooms,
     * rounded up, or a number of rooms); as in Maestro 10, a value that does not parse counts as 1.
     *
     * @param config  the scheduler's config
     * @param desired the rooms the autoscaler wants
     * @return at least 1
     */
    public static int surgeOf(SchedulerConfig config, int desired) {
        try {
            return config.maxSurgeValue().chunkSize(desired);
        } catch (RuntimeException invalid) {
            return 1;
        }
    }

    /**
     * The autoscaler this planner decides with.
     */
    public Autoscaler autoscaler() {
        return autoscaler;
    }

    /**
     * When a room of a scheduler with {@code config} is dead: silent for {@code pingTimeout}, or occupied too long.
     *
     * @param config the scheduler's config
     * @return when a room of a scheduler with {@code config} is dead: silent for {@code pingTimeout}, or occupied too
     *         long
     */
    public static DeadRoomRules deadRoomRules(SchedulerConfig config, Duration pingTimeout) {
        return new DeadRoomRules(pingTimeout, DeadRoomRules.of(config).occupiedTimeout());
    }

    /**
     * Whether {@code room} runs a major version other than {@code target}'s (an unreadable version is outdated).
     *
     * @return whether {@code room} runs a major version other than {@code target}'s (an unreadable version is
     *         outdated)
     */
    public static boolean isOutdated(Member room, SchedulerVersion target) {
        try {
            return SchedulerVersion.parse(room.templateVersion()).major() != target.major();
        } catch (RuntimeException e) {
            return true;
        }
    }

    /**
     * The rooms that count: every room not being deleted, oldest first.
     *
     * @param rooms the room status store
     */
    public static List<Member> liveRooms(Collection<Member> rooms) {
        return rooms.stream().filter(m -> m.phase() != MemberPhase.DELETING).sorted(Member.TOTAL_ORDER).toList();
    }

    /**
     * One tick's plan for the scheduler observed in {@code o}.
     */
    public FleetPlan plan(FleetObservation o) {
        Set<String> listed = new HashSet<>();
        List<Registration> register = new ArrayList<>();
        for (Member member : o.members()) {
            listed.add(member.id());
        }
        List<Member> live = liveRooms(o.members());
        for (Member member : live) {
            if (!o.statuses().containsKey(member.id())) {
                register.add(new Registration(member.id(), member.createdAt()));
            }
        }
        // A status without a listed room is forgotten once it is dead (or terminating): a room another worker has
        // just created may not be in this worker's view of the driver yet, and its fresh status must stay.
        Set<String> dead = new HashSet<>(o.deadRooms());
        List<String> forget = new ArrayList<>(new TreeSet<>(o.statuses().keySet()));
        forget.removeIf(room -> listed.contains(room)
                || !(dead.contains(room) || o.statuses().get(room) == RoomStatus.TERMINATING));
        List<String> deadListed = o.deadRooms().stream().filter(listed::contains).toList();

        List<String> outdated = live.stream().filter(m -> isOutdated(m, o.version())).map(Member::id).toList();
        boolean startReplace = !outdated.isEmpty() && !o.replaceRunning() && o.downscaleLockHeld();
        List<String> removeDead = !startReplace && o.downscaleLockHeld() && !o.removalRunning() ? deadListed : List.of();

        if (!o.autoscaleLockHeld() || o.removalRunning() || !removeDead.isEmpty()
                || o.inputs().applying().isPresent()) {
            // A request saved as being applied is resumed by the runtime first; the autoscaler decides again after it.
            return new FleetPlan(register, forget, outdated, startReplace, removeDead, Map.of(), Map.of(),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
        }
        if (o.inputs().panicAt().isPresent()) {
            // Decided here on this tick's counts, not on the report's: however many reports asked, one scale-up.
            Optional<Scaling> up = panic(o.config(), o.counts(), o.now()).map(Scaling.class::cast);
            return new FleetPlan(register, forget, outdated, startReplace, removeDead, Map.of(), Map.of(), up,
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), true);
        }
        Optional<ScaleInputs.Request> request = o.inputs().next();
        if (request.isPresent()) {
            List<Member> ready = live.stream().filter(m -> o.statuses().get(m.id()) == RoomStatus.READY).toList();
            Optional<Scaling> scaling = manual(request.get(), o.config().autoscaling(), o.counts().active(), ready, o.version());
            return new FleetPlan(register, forget, outdated, startReplace, removeDead, Map.of(), Map.of(), scaling,
                    Optional.empty(), Optional.empty(), Optional.empty(), request, false);
        }
        if (o.state() == SchedulerState.CREATING) {
            // A new scheduler: its min rooms first (the autoscaler skips creating schedulers), then the autoscaler's.
            int missing = o.config().autoscaling().min() - o.counts().active();
            Optional<Scaling> scaling = missing > 0 ? Optional.of(new ScaleUp(missing, ScaleReason.MIN_ROOMS)) : Optional.empty();
            return new FleetPlan(register, forget, outdated, startReplace, removeDead, Map.of(), Map.of(), scaling,
                    Optional.of(SchedulerState.IN_SYNC), Optional.empty(), Optional.empty());
        }
        FleetSnapshot snapshot = new FleetSnapshot(o.counts(), readyRooms(live, o.statuses(), o.version()), o.resourceUsage());
        Autoscaler.Evaluation evaluation = autoscaler.evaluate(o.config(), snapshot, o.recordedUsage(), o.state(),
                o.lastScaleAt(), o.now());
        ScaleDecision decision = evaluation.decision();
        Optional<Scaling> scaling = Optional.empty();
        int surge = surgeWhileOutdated && !outdated.isEmpty() ? rollingUpdateScaleUp(o, decision) : 0;
        if (surge > 0) {
            // Maestro 10's rolling-update target outranks the autoscaler's smaller wish while an older major exists.
            scaling = Optional.of(new ScaleUp(surge, ScaleReason.AUTOSCALE));
        } else if (decision.delta() > 0) {
            scaling = Optional.of(new ScaleUp(decision.delta(), ScaleReason.AUTOSCALE));
        } else if (decision.delta() < 0 && !decision.roomsToRemove().isEmpty()) {
            scaling = Optional.of(new ScaleDown(decision.roomsToRemove().stream().limit(-decision.delta()).toList(),
                    ScaleReason.AUTOSCALE));
        }
        Optional<SchedulerState> newState = decision.newState() != o.state() ? Optional.of(decision.newState()) : Optional.empty();
        // A scale that cannot be applied is held back: the state says which way the fleet still wants to go.
        SchedulerState held = decision.delta() > 0 || surge > 0 ? SchedulerState.SUBDIMENSIONED
                : decision.delta() < 0 ? SchedulerState.OVERDIMENSIONED : decision.newState();
        if (decision.delta() < 0 && scaling.isEmpty()) {
            newState = held != o.state() ? Optional.of(held) : Optional.empty();
        }
        Optional<SchedulerState> heldState = scaling.isPresent() && held != o.state() ? Optional.of(held) : Optional.empty();
        return new FleetPlan(register, forget, outdated, startReplace, removeDead, evaluation.points(), evaluation.keep(),
                scaling, newState, heldState, Optional.of(decision));
    }

    /**
     * The first {@code count} of {@code candidates} in the configured removal ranking's order (by default outdated
     * rooms first, then the newest): the one rule every scale-down follows, whoever asked for it.
     *
     * @param candidates rooms that may be removed (a scale-down removes READY rooms when room statuses are known)
     * @param version    the scheduler's current version, to tell outdated rooms
     * @param count how many
     * @return the first {@code count} of {@code candidates} in the configured removal ranking's order (by default
     *         outdated rooms first, then the newest): the one rule every scale-down follows, whoever asked for it
     */
    public List<String> removalOrder(Collection<Member> candidates, SchedulerVersion version, int count) {
        List<ReadyRoom> rooms = candidates.stream()
                .map(m -> new ReadyRoom(m.id(), isOutdated(m, version), m.createdAt())).toList();
        return autoscaler.ranking().rank(rooms).stream().limit(count).map(ReadyRoom::name).toList();
    }

    /**
     * Panic scale (opt-in with {@code autoscaling.enablePanicScale}) after a room just reported {@code occupied}:
     * the scale-up the autoscaler's panic rule asks for with these counts, if any. The room report asks it on the
     * counts the report returned, to record a panic input only when one may be needed; the watcher's {@link #plan}
     * asks again on its tick's counts and is the one that scales, so concurrent reports scale once.
     *
     * @param config the scheduler's config
     * @param now the tick's time
     */
    public Optional<ScaleUp> panic(SchedulerConfig config, RoomStatusCounts counts, Instant now) {
        ScaleDecision decision = autoscaler.panicDecision(config, counts, RoomStatus.OCCUPIED, now);
        return decision.delta() > 0 ? Optional.of(new ScaleUp(decision.delta(), ScaleReason.PANIC)) : Optional.empty();
    }

    /**
     * What a manual request changes, as Maestro's add-rooms / remove-rooms / replicas with {@code SetScalingAmount}:
     * a scale-up of {@link #manualScaleUp} rooms, or a scale-down of {@link #manualScaleDown} of {@code removable}
     * in the removal ranking's order; empty when the request changes nothing (at max, at min, no removable room).
     *
     * @param active    the scheduler's rooms now (creating + ready + allocated + occupied)
     * @param removable the rooms a scale-down may take (READY ones)
     * @param version   the scheduler's current version, to tell outdated rooms
     */
    public Optional<Scaling> manual(ScaleInputs.Request request, Autoscaling autoscaling, int active,
                                    Collection<Member> removable, SchedulerVersion version) {
        int up = 0;
        int down = 0;
        switch (request.kind()) {
            case UP -> up = manualScaleUp(autoscaling, active, request.amount());
            case DOWN -> down = manualScaleDown(autoscaling, active, request.amount());
            case REPLICAS -> {
                int target = manualReplicas(autoscaling, request.amount());
                if (target > active) {
                    up = manualScaleUp(autoscaling, active, target - active);
                } else if (target < active) {
                    down = manualScaleDown(autoscaling, active, active - target);
                }
            }
        }
        if (up > 0) {
            return Optional.of(new ScaleUp(up, ScaleReason.MANUAL));
        }
        List<String> victims = down > 0 ? removalOrder(removable, version, down) : List.of();
        return victims.isEmpty() ? Optional.empty() : Optional.of(new ScaleDown(victims, ScaleReason.MANUAL));
    }

    /**
     * Rooms a manual scale-up of {@code amount} adds, as Maestro's {@code SetScalingAmount}: clamped as the
     * autoscaler's scale-ups (never above {@code max} when max &gt; 0, never more than {@code maxScaleUpAmount} at
     * once) — and <em>raised</em> to {@code min − active} when it would end below min (as a BELOW_MIN scale-up,
     * regardless of {@code maxScaleUpAmount}).
     *
     * @param autoscaling the scheduler's autoscaling section
     * @param active      its rooms now (creating + ready + allocated + occupied)
     * @param amount      rooms asked for, at least 1
     * @return the rooms to add, 0 when at max
     */
    public int manualScaleUp(Autoscaling autoscaling, int active, int amount) {
        int clamped = Math.min(amount, autoscaler.settings().maxScaleUpAmount());
        if (autoscaling.isBounded()) {
            clamped = Math.min(clamped, autoscaling.max() - active);
        }
        if (active + clamped < autoscaling.min()) {
            clamped = autoscaling.min() - active;
        }
        return Math.max(0, clamped);
    }

    /**
     * Rooms a manual scale-down of {@code amount} removes at most, as Maestro's {@code SetScalingAmount}: never
     * below {@code min}, and <em>raised</em> to {@code active − max} when it would end above max (max &gt; 0). The
     * READY rooms bound it further when they are known.
     *
     * @param autoscaling the scheduler's autoscaling section
     * @param active      its rooms now
     * @param amount      rooms asked for, at least 1
     * @return the most rooms to remove, 0 when at min
     */
    public static int manualScaleDown(Autoscaling autoscaling, int active, int amount) {
        int count = amount;
        if (autoscaling.isBounded() && active - count > autoscaling.max()) {
            count = active - autoscaling.max();
        }
        return Math.max(0, Math.min(count, active - autoscaling.min()));
    }

    /**
     * The rooms a scale to {@code replicas} aims for: {@code replicas} clamped to [min, max] (max only when &gt; 0).
     *
     * @param autoscaling the scheduler's autoscaling section
     * @param replicas    rooms asked for, at least 0
     * @return the target
     */
    public static int manualReplicas(Autoscaling autoscaling, int replicas) {
        int target = Math.max(autoscaling.min(), replicas);
        return autoscaling.isBounded() ? Math.min(autoscaling.max(), target) : target;
    }

    /**
     * The match slots of one room of a scheduler: {@code maxMatchesPerRoom} of its {@code roomOccupancy} policy, else
     * one (Maestro 9 rooms host one match).
     *
     * @param config the scheduler's config
     * @return the slots per room, at least 1
     */
    public static int maxMatchesPerRoom(SchedulerConfig config) {
        return config.autoscaling().policy().filter(p -> p.type().equals(TriggerTypes.ROOM_OCCUPANCY))
                .map(p -> PolicyParameters.of(PolicyTypes.ROOM_OCCUPANCY_PARAMETERS, p.parameters()).whole("maxMatchesPerRoom"))
                .orElse(1);
    }

    /**
     * Rooms allocated at or before this instant have timed out: their slots go back and an allocated room is ready
     * again.
     *
     * @param allocationTimeout how long an allocated slot waits for its match
     * @param now               the tick's time
     * @return the cutoff
     */
    public static Instant allocationCutoff(Duration allocationTimeout, Instant now) {
        return now.minus(allocationTimeout);
    }

    /**
     * The scheduler's last successful scale after a tick that decided at {@code decidedAt}: the tick's time when it
     * decided a change in the number of rooms and that change was applied ({@code scaled}), else unchanged.
     * Cooldowns count from this, so a scale that was held back, refused or failed never starts one.
     *
     * @return the scheduler's last successful scale after a tick that decided at {@code decidedAt}: the tick's time
     *         when it decided a change in the number of rooms and that change was applied ({@code scaled}), else
     *         unchanged
     */
    public static Optional<Instant> lastScaleAfter(Optional<Instant> lastScaleAt, boolean scaled, Instant decidedAt) {
        return scaled ? Optional.of(decidedAt) : lastScaleAt;
    }

    private static List<ReadyRoom> readyRooms(List<Member> live, Map<String, RoomStatus> statuses, SchedulerVersion version) {
        List<ReadyRoom> ready = new ArrayList<>();
        for (Member member : live) {
            if (statuses.get(member.id()) == RoomStatus.READY) {
                ready.add(new ReadyRoom(member.id(), isOutdated(member, version), member.createdAt()));
            }
        }
        return ready;
    }

    /**
     * Everything a watcher observed of one scheduler at one tick: the input of {@link FleetPlanner#plan}.
     *
     * @param scheduler        the scheduler's name
     * @param config           its current config, parsed
     * @param version          its current version
     * @param state            its state
     * @param lastScaleAt      its last successful scale
     * @param members          its rooms as the member driver lists them (including rooms being deleted)
     * @param statuses         the room status store's status per room
     * @param counts           the room status store's counts per status
     * @param deadRooms        rooms the store reports dead under {@link FleetPlanner#deadRoomRules}, in its order
     * @param recordedUsage    usage points recorded before this tick, per trigger type (read only when
     *                         {@code autoscaleLockHeld}; empty otherwise)
     * @param resourceUsage    cpu / mem readings, for the metrics the config's triggers use
     * @param autoscaleLockHeld whether this tick holds TERMINATION, the autoscaler's lock
     * @param downscaleLockHeld whether this tick holds DOWNSCALE, needed to replace or remove rooms
     * @param replaceRunning   whether this watcher's rolling replace of outdated rooms is still running
     * @param removalRunning   whether rooms this watcher removed (dead rooms, a scale-down) are still going away
     * @param now              the tick's time
     * @param inputs           the scheduler's persisted scale inputs: manual requests and the panic input
     */
    public record FleetObservation(String scheduler, SchedulerConfig config, SchedulerVersion version, SchedulerState state,
                                   Optional<Instant> lastScaleAt, List<Member> members, Map<String, RoomStatus> statuses,
                                   RoomStatusCounts counts, List<String> deadRooms, UsageWindows recordedUsage,
                                   Map<ResourceMetric, UsageReading> resourceUsage, boolean autoscaleLockHeld,
                                   boolean downscaleLockHeld, boolean replaceRunning, boolean removalRunning, Instant now,
                                   ScaleInputs inputs) {

        public FleetObservation {
            Objects.requireNonNull(scheduler, "scheduler");
            Objects.requireNonNull(config, "config");
            Objects.requireNonNull(version, "version");
            Objects.requireNonNull(state, "state");
            Objects.requireNonNull(now, "now");
            lastScaleAt = Objects.requireNonNullElse(lastScaleAt, Optional.empty());
            members = List.copyOf(members);
            statuses = Map.copyOf(statuses);
            counts = Objects.requireNonNullElse(counts, RoomStatusCounts.ZERO);
            deadRooms = List.copyOf(deadRooms);
            recordedUsage = Objects.requireNonNullElse(recordedUsage, UsageWindows.EMPTY);
            resourceUsage = Map.copyOf(resourceUsage);
            inputs = Objects.requireNonNullElse(inputs, ScaleInputs.EMPTY);
        }

        /** An observation with no scale inputs (no manual request, no panic). */
        public FleetObservation(String scheduler, SchedulerConfig config, SchedulerVersion version, SchedulerState state,
                                Optional<Instant> lastScaleAt, List<Member> members, Map<String, RoomStatus> statuses,
                                RoomStatusCounts counts, List<String> deadRooms, UsageWindows recordedUsage,
                                Map<ResourceMetric, UsageReading> resourceUsage, boolean autoscaleLockHeld,
                                boolean downscaleLockHeld, boolean replaceRunning, boolean removalRunning, Instant now) {
            this(scheduler, config, version, state, lastScaleAt, members, statuses, counts, deadRooms, recordedUsage,
                    resourceUsage, autoscaleLockHeld, downscaleLockHeld, replaceRunning, removalRunning, now, ScaleInputs.EMPTY);
        }
    }

    /**
     * What one watcher tick does to one scheduler, decided by {@link FleetPlanner#plan} and applied by the fleet
     * runtime in this order: register and forget room statuses (no lock), start the rolling replace, remove dead
     * rooms (both under DOWNSCALE), record usage points, scale (under TERMINATION, plus DOWNSCALE for a scale-down),
     * record the state and the scale.
     *
     * @param register       rooms the driver lists with no status yet: registered {@code creating}
     * @param forget         statuses of rooms the driver does not list, once dead or terminating: removed (the runtime
     *                       checks the room once more, so a room created after the observation keeps its status)
     * @param outdated       rooms on another major than the scheduler's, oldest first
     * @param startReplace   whether to start a rolling replace of {@code outdated} now
     * @param removeDead     dead rooms to remove now
     * @param usagePoints    this tick's usage point per trigger type, to record
     * @param usageKeep      how many points to keep per trigger type
     * @param scaling        the change in the number of rooms, if any
     * @param newState       the scheduler state to record when it changes, once {@code scaling} (if any) is applied
     * @param heldState      the state to record instead when {@code scaling} could not be applied (the scale is held
     *                       back: {@code subdimensioned} for a scale-up, {@code overdimensioned} for a scale-down), when
     *                       it differs from the observed one
     * @param decision       the autoscaler's decision, when it was consulted (explains {@code scaling})
     * @param request        the manual request this plan's {@code scaling} answers (a scaling left empty: it changes no
     *                       room), which the runtime saves as being applied before it changes any room
     * @param panicDecided   whether this plan answers the pending panic input ({@code scaling} is the panic scale-up, or
     *                       empty when fresh counts no longer ask for one), which the runtime then clears
     */
    @JsonInclude(JsonInclude.Include.NON_ABSENT)
    public record FleetPlan(List<Registration> register, List<String> forget, List<String> outdated, boolean startReplace,
                            List<String> removeDead, Map<String, BigDecimal> usagePoints, Map<String, Integer> usageKeep,
                            Optional<Scaling> scaling, Optional<SchedulerState> newState, Optional<SchedulerState> heldState,
                            Optional<ScaleDecision> decision, Optional<ScaleInputs.Request> request, boolean panicDecided) {

        /**
         * Copies the lists and maps and fills in absent parts.
         *
         * @param register rooms the driver lists with no status yet: registered {@code creating}
         * @param forget statuses of rooms the driver does not list, once dead or terminating: removed (the runtime checks
         *         the room once more, so a room created after the observation keeps its status)
         * @param outdated rooms on another major than the scheduler's, oldest first
         * @param startReplace whether to start a rolling replace of {@code outdated} now
         * @param removeDead dead rooms to remove now
         * @param usagePoints this tick's usage point per trigger type, to record
         * @param usageKeep how many points to keep per trigger type
         * @param scaling the change in the number of rooms, if any
         * @param newState the scheduler state to record when it changes, once {@code scaling} (if any) is applied
         * @param heldState the state to record instead when {@code scaling} could not be applied (the scale is held back:
         *         {@code subdimensioned} for a scale-up, {@code overdimensioned} for a scale-down), when it differs from
         *         the observed one
         * @param decision the autoscaler's decision, when it was consulted (explains {@code scaling})
         * @param request the manual request {@code scaling} answers
         * @param panicDecided whether this plan answers the pending panic input
         */
        public FleetPlan {
            register = List.copyOf(register);
            forget = List.copyOf(forget);
            outdated = List.copyOf(outdated);
            removeDead = List.copyOf(removeDead);
            usagePoints = Map.copyOf(usagePoints);
            usageKeep = Map.copyOf(usageKeep);
            scaling = Objects.requireNonNullElse(scaling, Optional.empty());
            newState = Objects.requireNonNullElse(newState, Optional.empty());
            heldState = Objects.requireNonNullElse(heldState, Optional.empty());
            decision = Objects.requireNonNullElse(decision, Optional.empty());
            request = Objects.requireNonNullElse(request, Optional.empty());
        }

        /** A plan that answers no scale input. */
        public FleetPlan(List<Registration> register, List<String> forget, List<String> outdated, boolean startReplace,
                         List<String> removeDead, Map<String, BigDecimal> usagePoints, Map<String, Integer> usageKeep,
                         Optional<Scaling> scaling, Optional<SchedulerState> newState, Optional<SchedulerState> heldState,
                         Optional<ScaleDecision> decision) {
            this(register, forget, outdated, startReplace, removeDead, usagePoints, usageKeep, scaling, newState, heldState,
                    decision, Optional.empty(), false);
        }

        /** A room to register as {@code creating}, stamped with its creation time. */
        public record Registration(String room, Instant createdAt) {
        }

        /** Why the number of rooms changes. */
        public enum ScaleReason {
            /** A new scheduler's first rooms, up to min. */
            MIN_ROOMS,
            /** The autoscaler's decision (below min, above max, a trigger or a limit). */
            AUTOSCALE,
            /** Panic scale: a room just became occupied and occupancy passed an up trigger's limit. */
            PANIC,
            /** A user asked (scale up / down / to a number of replicas). */
            MANUAL
        }

        /** A change in the number of rooms. */
        public sealed interface Scaling {
            /**
             * Why.
             */
            ScaleReason reason();
        }

        /** Create {@code count} rooms on the scheduler's current version. */
        public record ScaleUp(int count, ScaleReason reason) implements Scaling {
            public ScaleUp {
                if (count < 1) {
                    throw new IllegalArgumentException("count: bad value '" + count + "': a scale-up adds at least one room");
                }
            }
        }

        /** Remove {@code rooms}, in this order (the configured removal ranking's). */
        public record ScaleDown(List<String> rooms, ScaleReason reason) implements Scaling {
            public ScaleDown {
                rooms = List.copyOf(rooms);
                if (rooms.isEmpty()) {
                    throw new IllegalArgumentException("rooms: bad value '[]': a scale-down removes at least one room");
                }
            }
        }

        /**
         * The state to record after the tick: {@link #newState()} when the scaling was applied (or there was none),
         * {@link #heldState()} when it could not be (another worker held DOWNSCALE, the driver failed).
         *
         * @param scalingApplied whether {@link #scaling()} was applied
         * @return the state to record, when it changes
         */
        public Optional<SchedulerState> stateAfter(boolean scalingApplied) {
            return scaling.isEmpty() || scalingApplied ? newState : heldState;
        }

        /**
         * Whether applying this plan changes nothing.
         */
        public boolean isEmpty() {
            return register.isEmpty() && forget.isEmpty() && !startReplace && removeDead.isEmpty() && usagePoints.isEmpty()
                    && scaling.isEmpty() && newState.isEmpty() && request.isEmpty() && !panicDecided;
        }
    }
}
