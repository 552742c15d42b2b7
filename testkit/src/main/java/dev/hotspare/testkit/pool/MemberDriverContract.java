package dev.hotspare.testkit.pool;

import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.pool.spi.MemberDriver.MemberAlreadyClaimedException;
import dev.hotspare.pool.spi.MemberDriver.MemberNotFoundException;
import dev.hotspare.validation.Names;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * What every {@link MemberDriver} must do. Subclass it once per backend and return a fresh driver (and a
 * pool name no other test uses) from the factory methods; the in-memory driver, the Kubernetes pod driver and
 * the custom-resource driver all run this same suite.
 *
 * <p>Observations may be eventually consistent (informer caches), so reads wait with Awaitility up to
 * {@link #visibilityTimeout()}.
 */
public abstract class MemberDriverContract {

    /** The driver under test. Called once per test. */
    protected abstract MemberDriver driver();

    /** A pool name unique to the calling test (DNS-1123 label). */
    protected abstract String freshPool();

    /**
     * A second driver on the same backing system as {@code driver} (a new process, as it were), to show that what
     * was written is durable. The default returns {@code driver} itself, for backends that live in the driver.
     *
     * @param driver the driver under test
     * @return a driver reading the same backing system
     */
    protected MemberDriver reopen(MemberDriver driver) {
        return driver;
    }

    /** How long a write may take to show up in {@code list}/{@code find}. */
    protected Duration visibilityTimeout() {
        return Duration.ofSeconds(60);
    }

    private Optional<Member> eventually(MemberDriver driver, String pool, String id, java.util.function.Predicate<Optional<Member>> until) {
        return await().atMost(visibilityTimeout()).until(() -> driver.find(pool, id), until::test);
    }

    @Test
    void createReturnsAProvisioningMemberWithADnsLabelIdAndTheAskedPower() {
        MemberDriver driver = driver();
        String pool = freshPool();
        Member created = driver.create(pool, "v1", DesiredPower.HIBERNATING);
        assertThat(Names.isDns1123Label(created.id())).as("id %s is a DNS-1123 label", created.id()).isTrue();
        assertThat(created.phase()).isEqualTo(MemberPhase.PROVISIONING);
        assertThat(created.desiredPower()).isEqualTo(DesiredPower.HIBERNATING);
        assertThat(created.templateVersion()).isEqualTo("v1");
        assertThat(created.isClaimed()).isFalse();
        Member seen = eventually(driver, pool, created.id(), Optional::isPresent).orElseThrow();
        assertThat(seen.desiredPower()).isEqualTo(DesiredPower.HIBERNATING);
        assertThat(seen.templateVersion()).isEqualTo("v1");
    }

    @Test
    void idsAreUniqueAndEveryCreatedMemberIsListed() {
        MemberDriver driver = driver();
        String pool = freshPool();
        List<String> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(driver.create(pool, "v1", DesiredPower.UNSET).id());
        }
        assertThat(ids).doesNotHaveDuplicates();
        await().atMost(visibilityTimeout()).untilAsserted(() ->
                assertThat(driver.list(pool)).extracting(Member::id).containsExactlyInAnyOrderElementsOf(ids));
    }

    @Test
    void poolsAreIsolated() {
        MemberDriver driver = driver();
        String a = freshPool();
        String b = freshPool();
        Member inA = driver.create(a, "v1", DesiredPower.UNSET);
        Member inB = driver.create(b, "v1", DesiredPower.UNSET);
        await().atMost(visibilityTimeout()).untilAsserted(() -> {
            assertThat(driver.list(a)).extracting(Member::id).containsExactly(inA.id());
            assertThat(driver.list(b)).extracting(Member::id).containsExactly(inB.id());
        });
        assertThat(driver.find(a, inB.id())).isEmpty();
    }

    @Test
    void desiredPowerIsRecorded() {
        MemberDriver driver = driver();
        String pool = freshPool();
        Member m = driver.create(pool, "v1", DesiredPower.HIBERNATING);
        eventually(driver, pool, m.id(), Optional::isPresent);
        driver.setDesiredPower(pool, m.id(), DesiredPower.RUNNING);
        eventually(driver, pool, m.id(), o -> o.isPresent() && o.get().desiredPower() == DesiredPower.RUNNING);
    }

    @Test
    void assignRecordsTheClaimAndAsksForRunningAndIsIdempotent() {
        MemberDriver driver = driver();
        String pool = freshPool();
        Member m = driver.create(pool, "v1", DesiredPower.HIBERNATING);
        eventually(driver, pool, m.id(), Optional::isPresent);
        Instant claimedAt = Instant.parse("2026-03-01T10:00:00Z");
        driver.assign(pool, m.id(), "job-1", claimedAt);
        Member held = eventually(driver, pool, m.id(), o -> o.isPresent() && o.get().isClaimed()).orElseThrow();
        assertThat(held.claimName()).contains("job-1");
        assertThat(held.claimedAt()).contains(claimedAt);
        assertThat(held.desiredPower()).isEqualTo(DesiredPower.RUNNING);
        driver.assign(pool, m.id(), "job-1", claimedAt.plusSeconds(60));
        assertThat(driver.find(pool, m.id()).orElseThrow().claimedAt()).as("claimedAt never changes").contains(claimedAt);
    }

    @Test
    void aMemberHeldByOneClaimIsRefusedToAnother() {
        MemberDriver driver = driver();
        String pool = freshPool();
        Member m = driver.create(pool, "v1", DesiredPower.RUNNING);
        eventually(driver, pool, m.id(), Optional::isPresent);
        driver.assign(pool, m.id(), "first", Instant.parse("2026-03-01T10:00:00Z"));
        eventually(driver, pool, m.id(), o -> o.isPresent() && o.get().isClaimed());
        assertThatThrownBy(() -> driver.assign(pool, m.id(), "second", Instant.parse("2026-03-01T10:01:00Z")))
                .isInstanceOf(MemberAlreadyClaimedException.class).hasMessageContaining("first");
        assertThat(driver.find(pool, m.id()).orElseThrow().claimName()).contains("first");
    }

    @Test
    void deleteMakesTheMemberDeletingOrGoneAndIsIdempotent() {
        MemberDriver driver = driver();
        String pool = freshPool();
        Member m = driver.create(pool, "v1", DesiredPower.UNSET);
        eventually(driver, pool, m.id(), Optional::isPresent);
        driver.delete(pool, m.id());
        eventually(driver, pool, m.id(), o -> o.isEmpty() || o.get().phase() == MemberPhase.DELETING);
        driver.delete(pool, m.id());
        driver.delete(pool, "never-existed");
    }

    @Test
    void callsForUnknownMembersSayWhichMember() {
        MemberDriver driver = driver();
        String pool = freshPool();
        assertThatThrownBy(() -> driver.setDesiredPower(pool, "missing-1", DesiredPower.RUNNING))
                .isInstanceOf(MemberNotFoundException.class).hasMessageContaining("missing-1");
        assertThatThrownBy(() -> driver.assign(pool, "missing-2", "job", Instant.parse("2026-03-01T10:00:00Z")))
                .isInstanceOf(MemberNotFoundException.class).hasMessageContaining("missing-2");
        assertThat(driver.find(pool, "missing-3")).isEmpty();
        assertThat(driver.list(pool)).isEmpty();
    }

    @Test
    void theReleaseMarkIsDurableAndTheFirstOneStays() {
        MemberDriver driver = driver();
        String pool = freshPool();
        Member m = driver.create(pool, "v1", DesiredPower.RUNNING);
        eventually(driver, pool, m.id(), Optional::isPresent);
        Instant claimedAt = Instant.parse("2026-03-01T10:00:00Z");
        driver.assign(pool, m.id(), "job-1", claimedAt);
        eventually(driver, pool, m.id(), o -> o.isPresent() && o.get().isClaimed());
        Instant releasedAt = Instant.parse("2026-03-01T11:30:00.123456Z");

        driver.markReleased(pool, m.id(), releasedAt);

        Member marked = eventually(driver, pool, m.id(), o -> o.isPresent() && o.get().isReleased()).orElseThrow();
        assertThat(marked.releasedAt()).contains(releasedAt);
        assertThat(marked.claimName()).as("the claim stays recorded").contains("job-1");
        assertThat(marked.claimedAt()).contains(claimedAt);
        driver.markReleased(pool, m.id(), releasedAt.plusSeconds(60));
        driver.setDesiredPower(pool, m.id(), DesiredPower.HIBERNATING);
        Member later = eventually(driver, pool, m.id(), o -> o.isPresent() && o.get().desiredPower() == DesiredPower.HIBERNATING)
                .orElseThrow();
        assertThat(later.releasedAt()).as("the first mark stays, whatever is written after it").contains(releasedAt);
        MemberDriver reopened = reopen(driver);
        assertThat(eventually(reopened, pool, m.id(), o -> o.isPresent() && o.get().isReleased()).orElseThrow().releasedAt())
                .contains(releasedAt);
    }

    @Test
    void theOrphanMarkIsDurableAndCanBeCleared() {
        MemberDriver driver = driver();
        String pool = freshPool();
        Member m = driver.create(pool, "v1", DesiredPower.RUNNING);
        eventually(driver, pool, m.id(), Optional::isPresent);
        driver.assign(pool, m.id(), "job-1", Instant.parse("2026-03-01T10:00:00Z"));
        eventually(driver, pool, m.id(), o -> o.isPresent() && o.get().isClaimed());
        Instant since = Instant.parse("2026-03-01T10:20:00.5Z");

        driver.markOrphaned(pool, m.id(), Optional.of(since));

        assertThat(eventually(driver, pool, m.id(), o -> o.isPresent() && o.get().orphanedSince().isPresent())
                .orElseThrow().orphanedSince()).contains(since);
        MemberDriver reopened = reopen(driver);
        assertThat(eventually(reopened, pool, m.id(), o -> o.isPresent() && o.get().orphanedSince().isPresent())
                .orElseThrow().orphanedSince()).contains(since);
        driver.markOrphaned(pool, m.id(), Optional.of(since));
        driver.markOrphaned(pool, m.id(), Optional.empty());
        Member cleared = eventually(driver, pool, m.id(), o -> o.isPresent() && o.get().orphanedSince().isEmpty()).orElseThrow();
        assertThat(cleared.claimName()).contains("job-1");
        assertThat(cleared.isReleased()).isFalse();
    }

    @Test
    void marksOnUnknownMembersSayWhichMember() {
        MemberDriver driver = driver();
        String pool = freshPool();
        assertThatThrownBy(() -> driver.markReleased(pool, "missing-4", Instant.parse("2026-03-01T10:00:00Z")))
                .isInstanceOf(MemberNotFoundException.class).hasMessageContaining("missing-4");
        assertThatThrownBy(() -> driver.markOrphaned(pool, "missing-5", Optional.of(Instant.parse("2026-03-01T10:00:00Z"))))
                .isInstanceOf(MemberNotFoundException.class).hasMessageContaining("missing-5");
    }

    @Test
    void watchReportsChangesUntilClosed() throws Exception {
        MemberDriver driver = driver();
        String pool = freshPool();
        List<MemberDriver.MemberEvent> events = new CopyOnWriteArrayList<>();
        AutoCloseable watch = driver.watch(pool, events::add);
        Member m = driver.create(pool, "v1", DesiredPower.UNSET);
        await().atMost(visibilityTimeout()).until(() -> events.stream().anyMatch(e -> mentions(e, m.id())));
        driver.setDesiredPower(pool, m.id(), DesiredPower.RUNNING);
        await().atMost(visibilityTimeout()).until(() -> events.stream().anyMatch(e -> e instanceof MemberDriver.MemberEvent.Updated u
                && u.member().id().equals(m.id()) && u.member().desiredPower() == DesiredPower.RUNNING));
        watch.close();
        String other = freshPool();
        driver.create(other, "v1", DesiredPower.UNSET);
        assertThat(events).allSatisfy(e -> assertThat(e.pool()).isEqualTo(pool));
    }

    private static boolean mentions(MemberDriver.MemberEvent event, String id) {
        if (event instanceof MemberDriver.MemberEvent.Added a) {
            return a.member().id().equals(id);
        }
        if (event instanceof MemberDriver.MemberEvent.Updated u) {
            return u.member().id().equals(id);
        }
        return ((MemberDriver.MemberEvent.Removed) event).memberId().equals(id);
    }
}
