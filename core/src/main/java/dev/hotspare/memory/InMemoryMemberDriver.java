package dev.hotspare.memory;

import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.pool.spi.MemberDriver.MemberAlreadyClaimedException;
import dev.hotspare.pool.spi.MemberDriver.MemberNotFoundException;
import dev.hotspare.pool.spi.OrderedDelivery;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.validation.Names;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The embedded default {@link MemberDriver}: members live in memory, and provisioning, resuming,
 * hibernating and deleting take the configured durations on the injected {@link TaskScheduler}'s clock.
 * On virtual time it lets a month of pool activity run in seconds; on real time it is a stand-in for a
 * real backend in tests and demos.
 *
 * <p>Observed power follows desired power: a member installs running, then hibernates if asked; a
 * hibernated member asked to run resumes for {@code resumeTime}. Thread-safe.
 */
public final class InMemoryMemberDriver implements MemberDriver {

    private final TaskScheduler scheduler;
    private final Duration installTime;
    private final Duration resumeTime;
    private final Duration hibernateTime;
    private final Duration deleteTime;

    /**
     * Written under this driver's monitor, read without it: a claim's {@code assign} never waits for a pass's
     * {@code list} of the whole pool (issue 22), and a list sees every member as one of its written records.
     */
    private final Map<String, Map<String, Slot>> pools = new ConcurrentHashMap<>();
    private final Map<String, List<MemberListener>> listeners = new ConcurrentHashMap<>();
    /** Events queued under this driver's lock in the order of the changes, handed to the listeners outside it. */
    private final OrderedDelivery<MemberEvent> events = new OrderedDelivery<>(this::publish);
    private long nextId;
    private long writes;

    private InMemoryMemberDriver(Builder b) {
        this.scheduler = b.scheduler;
        this.installTime = b.installTime;
        this.resumeTime = b.resumeTime;
        this.hibernateTime = b.hibernateTime;
        this.deleteTime = b.deleteTime;
    }

    /**
     * A driver whose transitions run on {@code scheduler}; all durations default to zero.
     */
    public static Builder builder(TaskScheduler scheduler) {
        return new Builder(scheduler);
    }

    /** One member plus a generation number that invalidates timers of superseded transitions. */
    private static final class Slot {
        private volatile Member member;
        private long generation;

        private Slot(Member member) {
            this.member = member;
        }
    }

    @Override
    public Member create(String pool, String templateVersion, DesiredPower power) {
        Names.requireDns1123Label("pool", pool);
        Objects.requireNonNull(templateVersion, "templateVersion");
        Objects.requireNonNull(power, "power");
        Member created;
        synchronized (this) {
            writes++;
            String id = pool + "-" + Long.toString(++nextId, 36);
            created = Member.provisioning(id, now(), templateVersion, power);
            Slot slot = new Slot(created);
            members(pool).put(id, slot);
            long generation = slot.generation;
            scheduler.schedule(installTime, () -> finishInstall(pool, id, generation));
            events.add(new MemberEvent.Added(pool, created));
        }
        events.deliver();
        return created;
    }

    @Override
    public void delete(String pool, String memberId) {
        synchronized (this) {
            Slot slot = members(pool).get(memberId);
            if (slot == null || slot.member.phase() == MemberPhase.DELETING) {
                return;
            }
            writes++;
            slot.generation++;
            slot.member = slot.member.withPhase(MemberPhase.DELETING);
            events.add(new MemberEvent.Updated(pool, slot.member));
            long generation = slot.generation;
            scheduler.schedule(deleteTime, () -> finishDelete(pool, memberId, generation));
        }
        events.deliver();
    }

    @Override
    public void setDesiredPower(String pool, String memberId, DesiredPower power) {
        synchronized (this) {
            Slot slot = require(pool, memberId);
            writes++;
            slot.member = slot.member.withDesiredPower(power);
            converge(pool, slot);
            events.add(new MemberEvent.Updated(pool, slot.member));
        }
        events.deliver();
    }

    @Override
    public void assign(String pool, String memberId, String claimName, Instant claimedAt) {
        synchronized (this) {
            Slot slot = require(pool, memberId);
            Optional<String> holder = slot.member.claimName();
            if (holder.isPresent()) {
                if (holder.get().equals(claimName)) {
                    return;
                }
                throw new MemberAlreadyClaimedException(pool, memberId, holder.get(), claimName);
            }
            writes++;
            slot.member = slot.member.assignedTo(claimName, claimedAt);
            converge(pool, slot);
            events.add(new MemberEvent.Updated(pool, slot.member));
        }
        events.deliver();
    }

    @Override
    public void markReleased(String pool, String memberId, Instant releasedAt) {
        Objects.requireNonNull(releasedAt, "releasedAt");
        update(pool, memberId, m -> m.released(releasedAt));
    }

    @Override
    public void markOrphaned(String pool, String memberId, Optional<Instant> since) {
        Objects.requireNonNull(since, "since");
        update(pool, memberId, m -> m.orphanedSince().equals(since) ? m : m.withOrphanedSince(since));
    }

    /** One write that changes a member's record but not its lifecycle; no write when nothing changes. */
    private void update(String pool, String memberId, java.util.function.UnaryOperator<Member> change) {
        synchronized (this) {
            Slot slot = require(pool, memberId);
            Member next = change.apply(slot.member);
            if (next.equals(slot.member)) {
                return;
            }
            writes++;
            slot.member = next;
            events.add(new MemberEvent.Updated(pool, next));
        }
        events.deliver();
    }

    @Override
    public List<Member> list(String pool) {
        Map<String, Slot> slots = pools.get(pool);
        if (slots == null) {
            return List.of();
        }
        List<Member> out = new ArrayList<>(slots.size());
        for (Slot slot : slots.values()) {
            out.add(slot.member);
        }
        return out;
    }

    @Override
    public Optional<Member> find(String pool, String memberId) {
        Map<String, Slot> slots = pools.get(pool);
        Slot slot = slots == null ? null : slots.get(memberId);
        return slot == null ? Optional.empty() : Optional.of(slot.member);
    }

    @Override
    public AutoCloseable watch(String pool, MemberListener listener) {
        List<MemberListener> forPool = listeners.computeIfAbsent(pool, p -> new CopyOnWriteArrayList<>());
        forPool.add(listener);
        return () -> forPool.remove(listener);
    }

    /**
     * Puts an existing member into the driver as if it had been observed there, resuming whatever transition
     * its state implies (a provisioning member finishes installing, a resuming one resumes, and so on). For
     * seeding tests and simulations with a given pool state; replaces a member with the same id.
     */
    public void restore(String pool, Member member) {
        Names.requireDns1123Label("pool", pool);
        synchronized (this) {
            Slot slot = new Slot(member);
            members(pool).put(member.id(), slot);
            long generation = slot.generation;
            String id = member.id();
            switch (member.phase()) {
                case PROVISIONING -> scheduler.schedule(installTime, () -> finishInstall(pool, id, generation));
                case DELETING -> scheduler.schedule(deleteTime, () -> finishDelete(pool, id, generation));
                case READY -> {
                    if (member.observedPower() == ObservedPower.RESUMING) {
                        scheduler.schedule(resumeTime, () -> finishTransition(pool, id, generation, ObservedPower.RUNNING));
                    } else if (member.observedPower() == ObservedPower.HIBERNATING_IN_PROGRESS) {
                        scheduler.schedule(hibernateTime, () -> finishTransition(pool, id, generation, ObservedPower.HIBERNATING));
                    } else if (member.observedPower() == ObservedPower.UNKNOWN) {
                        slot.member = member.withObservedPower(ObservedPower.RUNNING, now());
                        converge(pool, slot);
                    } else {
                        converge(pool, slot);
                    }
                }
                case FAILED -> {
                    // stays failed until the pool deletes it
                }
            }
            events.add(new MemberEvent.Added(pool, member));
        }
        events.deliver();
    }

    /**
     * Marks a member FAILED, as a broken install or a crashed room would be. For tests and simulations.
     *
     * @param memberId the member
     */
    public void fail(String pool, String memberId) {
        synchronized (this) {
            Slot slot = require(pool, memberId);
            slot.generation++;
            slot.member = slot.member.withPhase(MemberPhase.FAILED);
            events.add(new MemberEvent.Updated(pool, slot.member));
        }
        events.deliver();
    }

    /**
     * Number of mutating calls that wrote something (creates, deletes, power changes, assignments).
     */
    public synchronized long writeCount() {
        return writes;
    }

    private void finishInstall(String pool, String id, long generation) {
        synchronized (this) {
            Slot slot = current(pool, id, generation);
            if (slot == null || slot.member.phase() != MemberPhase.PROVISIONING) {
                return;
            }
            Instant now = now();
            slot.member = slot.member.installed(now).withObservedPower(ObservedPower.RUNNING, now);
            converge(pool, slot);
            events.add(new MemberEvent.Updated(pool, slot.member));
        }
        events.deliver();
    }

    private void finishTransition(String pool, String id, long generation, ObservedPower reached) {
        synchronized (this) {
            Slot slot = current(pool, id, generation);
            if (slot == null) {
                return;
            }
            slot.member = slot.member.withObservedPower(reached, now());
            converge(pool, slot);
            events.add(new MemberEvent.Updated(pool, slot.member));
        }
        events.deliver();
    }

    private void finishDelete(String pool, String id, long generation) {
        synchronized (this) {
            if (current(pool, id, generation) == null) {
                return;
            }
            members(pool).remove(id);
            events.add(new MemberEvent.Removed(pool, id));
        }
        events.deliver();
    }

    /** Starts the transition that moves observed power toward desired power, if one is needed. Caller holds the lock. */
    private void converge(String pool, Slot slot) {
        Member m = slot.member;
        if (m.phase() != MemberPhase.READY) {
            return;
        }
        ObservedPower observed = m.observedPower();
        if (m.desiredPower() == DesiredPower.RUNNING
                && (observed == ObservedPower.HIBERNATING || observed == ObservedPower.HIBERNATING_IN_PROGRESS)) {
            startTransition(pool, slot, ObservedPower.RESUMING, resumeTime, ObservedPower.RUNNING);
        } else if (m.desiredPower() == DesiredPower.HIBERNATING
                && (observed == ObservedPower.RUNNING || observed == ObservedPower.RESUMING)) {
            startTransition(pool, slot, ObservedPower.HIBERNATING_IN_PROGRESS, hibernateTime, ObservedPower.HIBERNATING);
        }
    }

    private void startTransition(String pool, Slot slot, ObservedPower during, Duration takes, ObservedPower reached) {
        slot.generation++;
        slot.member = slot.member.withObservedPower(during, now());
        long generation = slot.generation;
        String id = slot.member.id();
        scheduler.schedule(takes, () -> finishTransition(pool, id, generation, reached));
    }

    private Slot current(String pool, String id, long generation) {
        Slot slot = members(pool).get(id);
        return slot != null && slot.generation == generation ? slot : null;
    }

    private Slot require(String pool, String memberId) {
        Slot slot = members(pool).get(memberId);
        if (slot == null) {
            throw new MemberNotFoundException(pool, memberId);
        }
        return slot;
    }

    private Map<String, Slot> members(String pool) {
        return pools.computeIfAbsent(pool, p -> new ConcurrentHashMap<>());
    }

    private void publish(MemberEvent event) {
        List<MemberListener> forPool = listeners.get(event.pool());
        if (forPool != null) {
            for (MemberListener listener : forPool) {
                listener.onChange(event);
            }
        }
    }

    private Instant now() {
        return scheduler.clock().instant();
    }

    /** Builder for {@link InMemoryMemberDriver}. */
    public static final class Builder {
        private final TaskScheduler scheduler;
        private Duration installTime = Duration.ZERO;
        private Duration resumeTime = Duration.ZERO;
        private Duration hibernateTime = Duration.ZERO;
        private Duration deleteTime = Duration.ZERO;

        private Builder(TaskScheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        }

        /**
         * How long provisioning takes (Hive: cluster install).
         */
        public Builder installTime(Duration installTime) {
            this.installTime = nonNegative("installTime", installTime);
            return this;
        }

        /**
         * How long resuming from hibernation takes.
         */
        public Builder resumeTime(Duration resumeTime) {
            this.resumeTime = nonNegative("resumeTime", resumeTime);
            return this;
        }

        /**
         * How long hibernating takes.
         */
        public Builder hibernateTime(Duration hibernateTime) {
            this.hibernateTime = nonNegative("hibernateTime", hibernateTime);
            return this;
        }

        /**
         * How long a member stays DELETING before it is gone.
         */
        public Builder deleteTime(Duration deleteTime) {
            this.deleteTime = nonNegative("deleteTime", deleteTime);
            return this;
        }

        public InMemoryMemberDriver build() {
            return new InMemoryMemberDriver(this);
        }

        private static Duration nonNegative(String field, Duration value) {
            Objects.requireNonNull(value, field);
            if (value.isNegative()) {
                throw new IllegalArgumentException(field + ": bad value '" + value + "': must not be negative");
            }
            return value;
        }
    }
}
