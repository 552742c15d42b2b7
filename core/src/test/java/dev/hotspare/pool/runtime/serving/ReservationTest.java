package dev.hotspare.pool.runtime.serving;

import dev.hotspare.pool.Claim.Reservation;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolRuntimeTest;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Two-phase claims on the in-memory store: same key, same member; a lapsed reservation's member is released. */
class ReservationTest extends PoolRuntimeTest {

    private static final Duration TTL = Duration.ofSeconds(30);

    @Test
    void theSameKeyGivesTheSameMemberAndAConfirmedReservationStays() {
        start(PoolSpec.builder("ci").size(3).runningCount(2).build());
        time.advanceBy(Duration.ofMinutes(50));
        ClaimHandle first = controller.reserve("req-1", TTL);
        time.runDueTasks();
        Member member = first.member().join();
        ClaimHandle again = controller.reserve("req-1", Duration.ofHours(1));
        assertThat(again.name()).isEqualTo(first.name());
        assertThat(again.member().join().id()).isEqualTo(member.id());
        Reservation confirmed = controller.confirm("req-1").orElseThrow();
        assertThat(confirmed.confirmedAt()).contains(time.now());
        assertThat(controller.confirm("req-1")).contains(confirmed);
        time.advanceBy(TTL.multipliedBy(3));
        assertThat(claims.find("ci", first.name())).isPresent();
        assertThat(driver.find("ci", member.id()).orElseThrow().isReleased()).isFalse();
        controller.release(first);
        assertThat(controller.confirm("req-1")).isEmpty();
    }

    @Test
    void anUnconfirmedReservationEndsAtItsTimeAndItsMemberIsReleased() {
        start(PoolSpec.builder("ci").size(3).runningCount(2).build());
        time.advanceBy(Duration.ofMinutes(50));
        ClaimHandle lapsing = controller.reserve("req-2", TTL);
        time.runDueTasks();
        Member member = lapsing.member().join();
        time.advanceBy(TTL.minusSeconds(1));
        assertThat(claims.find("ci", lapsing.name())).isPresent();
        time.advanceBy(Duration.ofSeconds(1));
        assertThat(claims.find("ci", lapsing.name())).isEmpty();
        assertThat(controller.confirm("req-2")).isEmpty();
        assertThat(driver.find("ci", member.id()).map(m -> m.isReleased() || m.phase() == MemberPhase.DELETING).orElse(true))
                .isTrue();
        // The key starts afresh, with a new claim.
        ClaimHandle next = controller.reserve("req-2", TTL);
        assertThat(next.name()).isNotEqualTo(lapsing.name());
    }

    @Test
    void badKeysAndTtlsNameTheFieldAndTheValue() {
        start(PoolSpec.builder("ci").size(1).runningCount(1).build());
        assertThatThrownBy(() -> controller.reserve("a b", TTL)).isInstanceOf(ValidationException.class)
                .hasMessageContaining("key").hasMessageContaining("a b");
        assertThatThrownBy(() -> controller.reserve("x".repeat(129), TTL)).isInstanceOf(ValidationException.class)
                .hasMessageContaining("key").hasMessageContaining("128");
        assertThatThrownBy(() -> controller.reserve("ok", Duration.ofSeconds(-1))).isInstanceOf(ValidationException.class)
                .hasMessageContaining("ttl").hasMessageContaining("PT-1S");
        assertThatThrownBy(() -> controller.confirm("")).isInstanceOf(ValidationException.class).hasMessageContaining("key");
        assertThat(claims.live("ci")).isEmpty();
    }
}
