package dev.hotspare.testkit.pool;

import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.VirtualTimeScheduler;

import java.util.concurrent.atomic.AtomicInteger;

/** The in-memory driver against the shared {@link MemberDriverContract}. */
class InMemoryMemberDriverContractTest extends MemberDriverContract {

    private static final AtomicInteger POOLS = new AtomicInteger();

    @Override
    protected MemberDriver driver() {
        return InMemoryMemberDriver.builder(VirtualTimeScheduler.startingAt2026()).build();
    }

    @Override
    protected String freshPool() {
        return "pool-" + POOLS.incrementAndGet();
    }
}
