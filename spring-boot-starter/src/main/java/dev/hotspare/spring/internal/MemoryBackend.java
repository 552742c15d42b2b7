package dev.hotspare.spring.internal;

import dev.hotspare.fleet.runtime.Fleet;
import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.spring.HotspareConfigurationException;
import dev.hotspare.spring.HotspareProperties;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.validation.Problem;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@code hotspare.store=memory}, the default: every port in memory; nothing survives a restart. */
public final class MemoryBackend implements Backend {

    private final InMemoryClaimStore claims = new InMemoryClaimStore();
    private final InMemoryMemberDriver members;

    /**
     * A memory backend whose members take the configured durations on {@code tasks}' clock.
     *
     * @param tasks  the runtime's scheduler
     * @param memory {@code hotspare.memory.*}
     */
    public MemoryBackend(TaskScheduler tasks, HotspareProperties.Memory memory) {
        this.members = memberDriver(tasks, memory);
    }

    /**
     * The in-memory member driver with {@code hotspare.memory.*}'s durations: the members of every store that keeps
     * none of its own.
     *
     * @param tasks  the runtime's scheduler
     * @param memory {@code hotspare.memory.*}
     * @throws HotspareConfigurationException naming every negative duration
     */
    public static InMemoryMemberDriver memberDriver(TaskScheduler tasks, HotspareProperties.Memory memory) {
        List<Problem> problems = new ArrayList<>();
        Map<String, Duration> durations = Map.of(
                "install-time", memory.getInstallTime(), "resume-time", memory.getResumeTime(),
                "hibernate-time", memory.getHibernateTime(), "delete-time", memory.getDeleteTime());
        for (String name : List.of("install-time", "resume-time", "hibernate-time", "delete-time")) {
            Duration value = durations.get(name);
            if (value.isNegative()) {
                problems.add(Problem.of(HotspareProperties.PREFIX + ".memory." + name, value, "must not be negative"));
            }
        }
        if (!problems.isEmpty()) {
            throw new HotspareConfigurationException(problems);
        }
        return InMemoryMemberDriver.builder(tasks).installTime(memory.getInstallTime()).resumeTime(memory.getResumeTime())
                .hibernateTime(memory.getHibernateTime()).deleteTime(memory.getDeleteTime()).build();
    }

    @Override
    public HotspareProperties.Store store() {
        return HotspareProperties.Store.MEMORY;
    }

    @Override
    public ClaimStore claimStore() {
        return claims;
    }

    @Override
    public MemberDriver memberDriver() {
        return members;
    }

    @Override
    public boolean durableClaims() {
        return false;
    }

    @Override
    public boolean durableMembers() {
        return false;
    }

    @Override
    public void configureFleet(Fleet.Builder builder) {
        // The fleet's builder defaults every port to memory.
    }

    @Override
    public StoreCheck check() {
        return StoreCheck.up(Map.of("store", "memory"));
    }

    @Override
    public void close() {
        // nothing opened
    }
}
