package dev.hotspare.builders;

import dev.hotspare.fleet.SchedulerConfig.FleetLimits;
import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.fleet.runtime.Fleet;
import dev.hotspare.fleet.runtime.FleetSettings;
import dev.hotspare.memory.InMemoryLockStore;
import dev.hotspare.memory.MemoryRolloutAgentChannel;
import dev.hotspare.memory.MemoryRolloutStore;
import dev.hotspare.ownership.runtime.OwnershipMember;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.rollout.runtime.RolloutController;
import dev.hotspare.time.VirtualTimeScheduler;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The four entry points have one shape: ports as named setters (in memory where a default exists), time as
 * {@code scheduler(..)}, one {@code listener(..)}, every setting checked at {@code build()} naming the setting and the
 * value, and the settings read back as one record.
 */
class EntryPointBuildersTest {

    private final VirtualTimeScheduler time = VirtualTimeScheduler.startingAt2026();

    /** The problems {@code build} throws, as {@code path: bad value 'x': why} lines, in order. */
    private static List<String> problems(Supplier<?> build) {
        try {
            build.get();
        } catch (ValidationException e) {
            return e.problems().stream().map(Problem::describe).toList();
        }
        throw new AssertionError("built without a problem");
    }

    // --- Fleet and FleetSettings ---

    @Test
    void aFleetWithAZeroSyncPeriodFailsAtBuildNamingTheSettingAndTheValue() {
        assertThat(problems(() -> Fleet.builder().scheduler(time).syncPeriod(Duration.ZERO).build()))
                .containsExactly("syncPeriod: bad value 'PT0S': must be a positive duration");
    }

    @Test
    void aFleetReportsEveryBadSettingAtOnce() {
        assertThat(problems(() -> Fleet.builder().pollInterval(Duration.ofSeconds(-1)).lockTtl(Duration.ofMillis(2))
                .maxClockSkew(Duration.ofSeconds(-5)).instanceId("Fleet_A").ownershipLeaseTtl(Duration.ofSeconds(10))
                .ownershipHeartbeat(Duration.ofSeconds(5)).memberDriver(null).build()))
                .containsExactly(
                        "scheduler: bad value '<missing>': is required (TaskScheduler.system(..) or virtual time)",
                        "pollInterval: bad value 'PT-1S': must be a positive duration",
                        "lockTtl: bad value 'PT0.002S': must be at least 3ms so that renewing every third of it is possible",
                        "maxClockSkew: bad value 'PT-5S': must be zero or a positive duration",
                        "instanceId: bad value 'Fleet_A': must be one DNS-1123 label (a-z, 0-9, '-')",
                        "ownershipHeartbeat: bad value 'PT5S': must be under half of ownershipLeaseTtl (PT10S)");
    }

    @Test
    void aFleetRefusesANullPortAndBothAnInstanceIdAndAnOwnershipMember() {
        OwnershipMember member = OwnershipMember.builder("a").lockStore(new InMemoryLockStore(time.clock())).scheduler(time).build();
        assertThat(problems(() -> Fleet.builder().scheduler(time).schedulerStore(null).listener(null).instanceId("b")
                .ownership(member).build()))
                .containsExactly("schedulerStore: bad value '<missing>': must not be null",
                        "listener: bad value '<missing>': must not be null",
                        "instanceId: bad value 'b': set either instanceId or ownership, not both");
        assertThat(problems(() -> Fleet.builder().scheduler(time).settings(null).build()))
                .containsExactly("settings: bad value '<missing>': must not be null (FleetSettings.DEFAULTS)");
    }

    @Test
    void aFleetReadsItsSettingsBackAsOneRecord() {
        Fleet defaults = Fleet.builder().scheduler(time).build();
        assertThat(defaults.settings()).isEqualTo(FleetSettings.DEFAULTS);
        assertThat(FleetSettings.DEFAULTS).isEqualTo(new FleetSettings(Duration.ofSeconds(10), Duration.ofSeconds(1),
                Duration.ofMinutes(10), Duration.ofMinutes(1), Duration.ofSeconds(30), Duration.ofSeconds(30),
                Duration.ofSeconds(60), Duration.ofSeconds(60), FleetLimits.DEFAULT, Optional.empty(), "default",
                Duration.ofSeconds(15), Duration.ofSeconds(5)));

        Fleet tuned = Fleet.builder().scheduler(time).syncPeriod(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(200))
                .replaceTimeout(Duration.ofMinutes(2)).lockWait(Duration.ofSeconds(20)).lockTtl(Duration.ofSeconds(9))
                .pingTimeout(Duration.ofSeconds(45)).allocationTimeout(Duration.ofSeconds(15)).maxClockSkew(Duration.ZERO)
                .limits(FleetLimits.DEFAULT.withMaxRooms(50).withMaxScaleStep(5)).ownershipGroup("blue").build();
        FleetSettings expected = new FleetSettings(Duration.ofSeconds(3), Duration.ofMillis(200), Duration.ofMinutes(2),
                Duration.ofSeconds(20), Duration.ofSeconds(9), Duration.ofSeconds(45), Duration.ofSeconds(15), Duration.ZERO,
                FleetLimits.DEFAULT.withMaxRooms(50).withMaxScaleStep(5), Optional.empty(), "blue",
                Duration.ofSeconds(15), Duration.ofSeconds(5));
        assertThat(tuned.settings()).isEqualTo(expected);
        // Round trip: the record builds a fleet with the same settings, and the lock manager got the TTL.
        assertThat(Fleet.builder().scheduler(time).settings(tuned.settings()).build().settings()).isEqualTo(expected);
        assertThat(tuned.locks().settings().ttl()).isEqualTo(Duration.ofSeconds(9));
        assertThat(expected.toBuilder().build()).isEqualTo(expected);
    }

    @Test
    void fleetSettingsNameEveryBadValue() {
        assertThatThrownBy(() -> new FleetSettings(null, Duration.ZERO, Duration.ofSeconds(-1), Duration.ofSeconds(1),
                Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ZERO, Duration.ZERO, null, null, "",
                Duration.ofSeconds(15), Duration.ZERO))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.problems().stream().map(Problem::describe))
                        .containsExactly("syncPeriod: bad value '<missing>': must be a positive duration",
                                "pollInterval: bad value 'PT0S': must be a positive duration",
                                "replaceTimeout: bad value 'PT-1S': must be a positive duration",
                                "allocationTimeout: bad value 'PT0S': must be a positive duration",
                                "limits: bad value '<missing>': must be given (FleetLimits.DEFAULT)",
                                "instanceId: bad value '<missing>': must be Optional.empty() or an id",
                                "ownershipGroup: bad value '': must be one DNS-1123 label (a-z, 0-9, '-')",
                                "ownershipHeartbeat: bad value 'PT0S': must be a positive duration"));
    }

    // --- PoolController ---

    @Test
    void aPoolControllerChecksEverySettingAtBuild() {
        PoolSpec spec = PoolSpec.builder("ci").size(2).runningCount(1).build();
        assertThat(problems(() -> PoolController.builder(spec).resyncPeriod(Duration.ZERO).closeTimeout(Duration.ofSeconds(-1))
                .sizingInterval(Duration.ofMinutes(-1)).listener(null).build()))
                .containsExactly("scheduler: bad value '<missing>': is required (TaskScheduler.system(..) or virtual time)",
                        "resyncPeriod: bad value 'PT0S': must be positive",
                        "sizingInterval: bad value 'PT-1M': must be positive",
                        "closeTimeout: bad value 'PT-1S': must not be negative",
                        "listener: bad value '<missing>': must not be null");
    }

    @Test
    void aPoolControllerRunsOnInMemoryPortsByDefaultAndReadsItsSettingsBack() {
        PoolSpec spec = PoolSpec.builder("ci").size(2).runningCount(1).build();
        PoolController pool = PoolController.builder(spec).scheduler(time).resyncPeriod(Duration.ofSeconds(20))
                .closeTimeout(Duration.ZERO).build();
        assertThat(pool.settings()).isEqualTo(new PoolController.Settings("ci", Duration.ofSeconds(20), Duration.ZERO,
                Duration.ofMinutes(1), Duration.ZERO));
        pool.start();
        ClaimHandle claim = pool.claim("job-1");
        time.advanceBy(Duration.ofHours(1));
        assertThat(claim.member()).isCompleted();
        pool.close();
    }

    // --- RolloutController ---

    @Test
    void aRolloutControllerNamesEveryMissingPortAtBuild() {
        assertThat(problems(() -> RolloutController.builder("r1").notices(null).listener(null).build()))
                .containsExactly("store: bad value '<missing>': is required (the store the rollout was created in)",
                        "channel: bad value '<missing>': is required (where the rollout's agents pull ops)",
                        "scheduler: bad value '<missing>': is required (TaskScheduler.system(..) or virtual time)",
                        "notices: bad value '<missing>': must not be null",
                        "listener: bad value '<missing>': must not be null");
        RolloutController controller = RolloutController.builder("r1").store(new MemoryRolloutStore())
                .channel(new MemoryRolloutAgentChannel()).scheduler(time).build();
        assertThat(controller.settings()).isEqualTo(new RolloutController.Settings("r1", false));
    }

    // --- LockManager ---

    @Test
    void aLockManagerNamesEveryBadSettingAtBuildAndReadsItsTtlBack() {
        assertThat(problems(() -> LockManager.builder().ttl(Duration.ofMillis(2)).listener(null).build()))
                .containsExactly("lockStore: bad value '<missing>': is required",
                        "scheduler: bad value '<missing>': is required (TaskScheduler.system(..) or virtual time)",
                        "ttl: bad value 'PT0.002S': must be at least 3ms so that renewing every third of it is possible",
                        "listener: bad value '<missing>': must not be null");
        assertThat(problems(() -> LockManager.builder().lockStore(new InMemoryLockStore(time.clock())).scheduler(time)
                .ttl(Duration.ZERO).build())).containsExactly("ttl: bad value 'PT0S': must be a positive duration");
        LockManager locks = LockManager.builder().lockStore(new InMemoryLockStore(time.clock())).scheduler(time)
                .ttl(Duration.ofSeconds(12)).build();
        assertThat(locks.settings()).isEqualTo(new LockManager.Settings(Duration.ofSeconds(12)));
        assertThat(LockManager.builder().lockStore(new InMemoryLockStore(time.clock())).scheduler(time).build().settings().ttl())
                .isEqualTo(LockManager.DEFAULT_TTL);
    }
}
