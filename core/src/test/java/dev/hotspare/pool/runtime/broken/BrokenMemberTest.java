package dev.hotspare.pool.runtime.broken;

import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.PoolRuntimeTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Comparator;

import static org.assertj.core.api.Assertions.assertThat;

/** Broken members are replaced. */
class BrokenMemberTest extends PoolRuntimeTest {

    @Test
    void aFailedMemberIsReplaced() {
        start(PoolSpec.builder("ci").size(2).runningCount(0).build());
        time.advanceBy(Duration.ofMinutes(50));
        Member victim = members().get(0);
        driver.fail("ci", victim.id());
        time.advanceBy(Duration.ofMinutes(1));
        assertThat(driver.find("ci", victim.id())).isEmpty();
        time.advanceBy(Duration.ofMinutes(45));
        assertThat(members()).hasSize(2).allSatisfy(m -> assertThat(m.phase()).isEqualTo(MemberPhase.READY));
        assertThat(members()).extracting(Member::id).doesNotContain(victim.id());
        assertThat(members().stream().map(Member::createdAt).max(Comparator.naturalOrder())).isPresent();
    }
}
