package dev.hotspare.fleet.plan;

import dev.hotspare.fleet.plan.ReleaseMachine.ReleaseCommand;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.ObservedPower;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * A scheduler's rooms and versions for the {@link ReleaseMachine} tests, without any runtime: the n-th room ever
 * created takes a seeded time to start and fails with a seeded chance, so two runs that create rooms in the same
 * order see the same rooms whatever happens in between.
 */
final class ReleaseWorld {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private record Room(String id, Instant createdAt, String version, Instant readyAt, boolean fails) {
    }

    private final long seed;
    private final int failPercent;
    private final List<Room> rooms = new ArrayList<>();
    private int created;
    Instant now = T0;
    SchedulerVersion current;
    final List<String> statuses = new ArrayList<>();

    ReleaseWorld(long seed, int failPercent, int initialRooms, SchedulerVersion initialVersion) {
        this.seed = seed;
        this.failPercent = failPercent;
        this.current = initialVersion;
        for (int i = 0; i < initialRooms; i++) {
            rooms.add(new Room("old-" + i, T0.minusSeconds(1000 - i), initialVersion.toString(), T0.minusSeconds(500), false));
        }
    }

    List<Member> observe() {
        List<Member> out = new ArrayList<>();
        for (Room r : rooms) {
            boolean started = !now.isBefore(r.readyAt);
            MemberPhase phase = !started ? MemberPhase.PROVISIONING : r.fails ? MemberPhase.FAILED : MemberPhase.READY;
            ObservedPower power = phase == MemberPhase.READY ? ObservedPower.RUNNING : ObservedPower.HIBERNATING;
            out.add(new Member(r.id, r.createdAt, r.version, phase, DesiredPower.RUNNING, power, r.createdAt,
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
        }
        return out;
    }

    int live() {
        return rooms.size();
    }

    List<String> versions() {
        return rooms.stream().map(Room::version).sorted().toList();
    }

    /** Runs {@code command}; for a create, only the first {@code limit} rooms (a crash in the middle). */
    void run(ReleaseCommand command, int limit) {
        if (command instanceof ReleaseCommand.CreateRooms create) {
            for (int i = 0; i < Math.min(limit, create.count()); i++) {
                int n = created++;
                SplittableRandom r = new SplittableRandom(seed * 31 + n);
                rooms.add(new Room("new-" + n, now.plusNanos(n), create.version().toString(),
                        now.plusSeconds(1 + r.nextInt(30)), r.nextInt(100) < failPercent));
            }
        } else if (command instanceof ReleaseCommand.RemoveRooms remove) {
            rooms.removeIf(room -> remove.rooms().subList(0, Math.min(limit, remove.rooms().size())).contains(room.id));
        } else if (command instanceof ReleaseCommand.SaveRollback rollback) {
            if (current.compareTo(rollback.version()) < 0) {
                current = rollback.version();
            }
        } else if (command instanceof ReleaseCommand.SetReleaseStatus set) {
            statuses.add(set.version() + "=" + set.outcome());
        }
    }

    void advance(Duration by) {
        now = now.plus(by);
    }
}
