package dev.hotspare.pool.runtime.releasemark;

import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.PoolSpec.ClaimLifetime;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.ControllableClaims;
import dev.hotspare.pool.runtime.ControllableDriver;
import dev.hotspare.pool.runtime.PoolRuntimeTest;
import dev.hotspare.spi.StoreUnavailableException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Releasing a claim — by the user or when its lifetime runs out — first writes the release mark on its member
 * through the driver, then ends the claim; the member is deleted because it carries the mark.
 */
class ReleaseMarkTest extends PoolRuntimeTest {

    ControllableClaims store;
    ControllableDriver faulty;

    @Override
    protected InMemoryMemberDriver.Builder driverBuilder() {
        return super.driverBuilder().deleteTime(Duration.ofMinutes(3));
    }

    @BeforeEach
    void wrap() {
        store = new ControllableClaims(claims);
        faulty = new ControllableDriver(driver);
    }

    ClaimHandle served(PoolSpec spec) {
        start(spec, faulty, store);
        time.advanceBy(Duration.ofMinutes(50));
        ClaimHandle handle = controller.claim("job");
        time.runDueTasks();
        return handle;
    }

    Member member(String id) {
        return driver.find("ci", id).orElseThrow();
    }

    @Test
    void theMemberCarriesTheMarkBeforeTheClaimEnds() {
        String id = served(PoolSpec.builder("ci").size(1).runningCount(1).build()).member().join().id();
        AtomicReference<Optional<Instant>> markWhenReleased = new AtomicReference<>();
        store.beforeRelease = name -> markWhenReleased.set(member(id).releasedAt());
        Instant releasedAt = time.now();

        assertThat(controller.release("job")).isTrue();

        assertThat(markWhenReleased.get()).contains(releasedAt);
        time.runDueTasks();
        assertThat(member(id).phase()).isEqualTo(MemberPhase.DELETING);
        assertThat(member(id).releasedAt()).contains(releasedAt);
        time.advanceBy(Duration.ofMinutes(3));
        assertThat(driver.find("ci", id)).isEmpty();
    }

    @Test
    void whenTheMarkCannotBeWrittenTheReleaseFailsAndNothingIsLost() {
        String id = served(PoolSpec.builder("ci").size(1).runningCount(1).build()).member().join().id();
        faulty.failReleaseMarks = true;

        assertThatThrownBy(() -> controller.release("job")).isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("release mark");

        time.advanceBy(Duration.ofMinutes(5));
        assertThat(claims.find("ci", "job")).isPresent();
        assertThat(member(id).isReleased()).isFalse();
        assertThat(member(id).phase()).isEqualTo(MemberPhase.READY);
        faulty.failReleaseMarks = false;
        assertThat(controller.release("job")).isTrue();
        time.advanceBy(Duration.ofMinutes(4));
        assertThat(driver.find("ci", id)).isEmpty();
    }

    @Test
    void anExpiredClaimsMemberIsMarkedAndDeleted() {
        PoolSpec spec = PoolSpec.builder("ci").size(1).runningCount(1)
                .claimLifetime(new ClaimLifetime(Optional.of(Duration.ofMinutes(30)), Optional.empty())).build();
        ClaimHandle handle = served(spec);
        String id = handle.member().join().id();
        Instant expiry = handle.createdAt().plus(Duration.ofMinutes(30));

        time.advanceBy(Duration.ofMinutes(30));

        assertThat(claims.find("ci", "job")).isEmpty();
        assertThat(member(id).phase()).isEqualTo(MemberPhase.DELETING);
        assertThat(member(id).releasedAt()).contains(expiry);
    }

    @Test
    void anExpiredClaimWhoseMarkCannotBeWrittenStaysUntilItCanBe() {
        PoolSpec spec = PoolSpec.builder("ci").size(1).runningCount(1)
                .claimLifetime(new ClaimLifetime(Optional.of(Duration.ofMinutes(30)), Optional.empty())).build();
        String id = served(spec).member().join().id();
        faulty.failReleaseMarks = true;

        time.advanceBy(Duration.ofMinutes(40));
        assertThat(claims.find("ci", "job")).as("not ended without the mark").isPresent();
        assertThat(member(id).phase()).isEqualTo(MemberPhase.READY);

        faulty.failReleaseMarks = false;
        time.advanceBy(Duration.ofMinutes(1));
        assertThat(claims.find("ci", "job")).isEmpty();
        assertThat(member(id).phase()).isEqualTo(MemberPhase.DELETING);
    }

    @Test
    void aReleaseInterruptedAfterTheMarkIsFinishedByTheNextPass() {
        String id = served(PoolSpec.builder("ci").size(1).runningCount(1).build()).member().join().id();
        driver.markReleased("ci", id, time.now()); // the process died right after writing the mark

        time.runDueTasks();

        assertThat(claims.find("ci", "job")).isEmpty();
        assertThat(member(id).phase()).isEqualTo(MemberPhase.DELETING);
    }

    @Test
    void aMemberGivenToAClaimThatEndedMeanwhileIsMarkedAtOnce() {
        start(PoolSpec.builder("ci").size(1).runningCount(1).build(), faulty, store);
        time.advanceBy(Duration.ofMinutes(50));
        store.beforeAssign = name -> claims.release("ci", name); // the claimer gave up between read and write
        ClaimHandle handle = controller.claim("job");
        String id = live().get(0).id();

        time.runDueTasks();

        assertThat(member(id).releasedAt()).as("no orphan grace: the store said the claim is gone").contains(time.now());
        assertThat(member(id).phase()).isEqualTo(MemberPhase.DELETING);
        assertThat(handle.member()).isCancelled();
    }

    @Test
    void aClaimServedHereIsReleasedWithoutReadingItAgain() {
        String id = served(PoolSpec.builder("ci").size(1).runningCount(1).build()).member().join().id();
        store.finds.set(0);
        Instant releasedAt = time.now();

        assertThat(controller.release("job")).isTrue();

        assertThat(store.finds).as("its member is known here").hasValue(0);
        assertThat(member(id).releasedAt()).contains(releasedAt);
        assertThat(claims.find("ci", "job")).isEmpty();
    }

    @Test
    void aClaimMadeElsewhereUnderTheNameOfOneServedHereHasItsOwnMemberMarked() {
        start(PoolSpec.builder("ci").size(2).runningCount(2).build(), faulty, store);
        time.advanceBy(Duration.ofMinutes(50));
        ClaimHandle first = controller.claim("job");
        time.runDueTasks();
        String firstMember = first.member().join().id();
        // Another instance ends the claim and a new claim of the same name gets the other member there.
        claims.release("ci", "job");
        claims.submit("ci", "job", Optional.empty(), time.now());
        String other = live().stream().map(Member::id).filter(id -> !id.equals(firstMember)).findFirst().orElseThrow();
        driver.assign("ci", other, "job", time.now());
        claims.assign("ci", "job", other, time.now());
        controller.reconcile();
        store.finds.set(0);

        assertThat(controller.release("job")).isTrue();

        assertThat(store.finds).as("the claim served here has ended: this one is read").hasPositiveValue();
        assertThat(member(other).releasedAt()).contains(time.now());
    }
}
