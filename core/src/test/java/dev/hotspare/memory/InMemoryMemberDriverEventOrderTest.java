package dev.hotspare.memory;

import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.pool.spi.MemberDriver.MemberEvent;
import dev.hotspare.time.TaskScheduler;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The in-memory driver hands a member's events to its listeners in the order of the changes, whichever threads make
 * them: the last event a listener saw of a member is the member as the driver holds it. Before, a member installed by
 * a timer thread while its creator was still publishing "added" was last seen provisioning, and the pool controller's
 * hand-out index left it out until the next full read (issue 22: claims on a hot pool waited for a pass).
 */
class InMemoryMemberDriverEventOrderTest {

    private static final String POOL = "order";

    @Test
    void theLastEventOfEveryMemberIsItsCurrentRecordWhenCreatorsAndTimersRace() throws Exception {
        ScheduledExecutorService timers = Executors.newScheduledThreadPool(2);
        ExecutorService creators = Executors.newFixedThreadPool(2);
        TaskScheduler time = TaskScheduler.system(timers, Clock.systemUTC());
        InMemoryMemberDriver driver = InMemoryMemberDriver.builder(time).build();
        Map<String, Member> lastSeen = new ConcurrentHashMap<>();
        Map<String, Boolean> removed = new ConcurrentHashMap<>();
        driver.watch(POOL, event -> {
            if (event instanceof MemberEvent.Added added) {
                lastSeen.put(added.member().id(), added.member());
            } else if (event instanceof MemberEvent.Updated updated) {
                lastSeen.put(updated.member().id(), updated.member());
            } else if (event instanceof MemberEvent.Removed gone) {
                lastSeen.remove(gone.memberId());
                removed.put(gone.memberId(), true);
            }
        });
        int perCreator = 2_500;
        for (int c = 0; c < 2; c++) {
            creators.submit(() -> {
                for (int i = 0; i < perCreator; i++) {
                    Member m = driver.create(POOL, "v1", DesiredPower.RUNNING);
                    if (i % 5 == 0) {
                        driver.delete(POOL, m.id());
                    }
                }
            });
        }
        creators.shutdown();
        assertThat(creators.awaitTermination(2, TimeUnit.MINUTES)).isTrue();
        // Installs and deletes take no time, but run on the timer threads: wait until they have all run.
        await().atMost(Duration.ofMinutes(2)).until(() -> driver.list(POOL).stream()
                .allMatch(m -> m.observedPower() == ObservedPower.RUNNING) && driver.list(POOL).size() == 2 * perCreator * 4 / 5);
        timers.shutdown();
        assertThat(timers.awaitTermination(2, TimeUnit.MINUTES)).isTrue();

        assertThat(removed).hasSize(2 * perCreator / 5);
        assertThat(lastSeen).hasSize(2 * perCreator * 4 / 5);
        for (Member m : driver.list(POOL)) {
            assertThat(lastSeen.get(m.id())).as("last event seen of %s", m.id()).isEqualTo(m);
        }
    }
}
