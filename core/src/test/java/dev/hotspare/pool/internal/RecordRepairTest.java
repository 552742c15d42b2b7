package dev.hotspare.pool.internal;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.internal.RecordRepair.OnClaim;
import dev.hotspare.pool.internal.RecordRepair.OnMember;
import dev.hotspare.pool.internal.RecordRepair.Ready;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static dev.hotspare.pool.internal.Records.NOW;
import static dev.hotspare.pool.internal.Records.member;
import static dev.hotspare.pool.internal.Records.pending;
import static org.assertj.core.api.Assertions.assertThat;

class RecordRepairTest {

    private final Instant claimedAt = NOW.minus(Duration.ofMinutes(2));

    @Test
    void anAssignmentCutShortIsRecordedOnTheClaimAndMarkedReady() {
        List<Member> members = List.of(member("m", Optional.of("job"), Optional.of(claimedAt)));
        List<Claim> claims = List.of(pending("job", NOW.minus(Duration.ofMinutes(5))));

        assertThat(RecordRepair.decide(members, claims, NOW, Set.of()))
                .containsExactly(new OnClaim("job", "m", claimedAt), new Ready("job", NOW));
        PoolState repaired = RecordRepair.repaired(new PoolState(members, claims), NOW);
        assertThat(repaired.claims().get(0).assignedMember()).contains("m");
        assertThat(repaired.claims().get(0).readyAt()).contains(NOW);
    }

    @Test
    void aMemberWithNoClaimTimeIsRecordedAtThePassTime() {
        List<Member> members = List.of(member("m", Optional.of("job"), Optional.empty()));
        List<Claim> claims = List.of(pending("job", NOW.minus(Duration.ofMinutes(5))));

        assertThat(RecordRepair.decide(members, claims, NOW, Set.of()))
                .containsExactly(new OnClaim("job", "m", NOW), new Ready("job", NOW));
    }

    @Test
    void aClaimRecordNamingAMemberThatKnowsNoClaimIsWrittenOnTheMember() {
        List<Member> members = List.of(member("m", Optional.empty(), Optional.empty()));
        List<Claim> claims = List.of(pending("job", NOW.minus(Duration.ofMinutes(5))).assigned("m", claimedAt));

        assertThat(RecordRepair.decide(members, claims, NOW, Set.of()))
                .containsExactly(new OnMember("m", "job", claimedAt), new Ready("job", NOW));
        PoolState repaired = RecordRepair.repaired(new PoolState(members, claims), NOW);
        assertThat(repaired.members().get(0).claimName()).contains("job");
        assertThat(repaired.members().get(0).claimedAt()).contains(claimedAt);
    }

    @Test
    void ofTwoMembersNamingOnePendingClaimTheFirstListedGetsIt() {
        List<Member> members = List.of(member("m-2", Optional.of("job"), Optional.of(claimedAt)),
                member("m-1", Optional.of("job"), Optional.of(claimedAt)));
        List<Claim> claims = List.of(pending("job", NOW.minus(Duration.ofMinutes(5))));

        assertThat(RecordRepair.decide(members, claims, NOW, Set.of()))
                .containsExactly(new OnClaim("job", "m-2", claimedAt), new Ready("job", NOW));
    }

    @Test
    void aFailedRecordIsNotMarkedReadyAndTheNextMemberNamingTheClaimIsTried() {
        List<Member> members = List.of(member("m-1", Optional.of("job"), Optional.of(claimedAt)),
                member("m-2", Optional.of("job"), Optional.of(claimedAt)));
        List<Claim> claims = List.of(pending("job", NOW.minus(Duration.ofMinutes(5))));

        assertThat(RecordRepair.decide(members, claims, NOW, Set.of(new OnClaim("job", "m-1", claimedAt))))
                .containsExactly(new OnClaim("job", "m-2", claimedAt), new Ready("job", NOW));
        assertThat(RecordRepair.decide(members, claims, NOW,
                Set.of(new OnClaim("job", "m-1", claimedAt), new OnClaim("job", "m-2", claimedAt)))).isEmpty();
    }

    @Test
    void aMemberAnotherClaimRecordNamesIsNotRecordedOnASecondClaim() {
        // The plan settles it: the claim holding a member that names another claim is released (MEMBER_GONE).
        List<Member> members = List.of(member("m", Optional.of("a"), Optional.of(claimedAt)));
        List<Claim> claims = List.of(pending("a", NOW.minus(Duration.ofMinutes(5))),
                pending("b", NOW.minus(Duration.ofMinutes(4))).assigned("m", claimedAt));

        assertThat(RecordRepair.decide(members, claims, NOW, Set.of())).isEmpty();
    }

    @Test
    void aDeletingMemberIsRecordedOnItsClaimButNeverHandedOver() {
        List<Member> members = List.of(member("m", Optional.of("job"), Optional.of(claimedAt)).withPhase(MemberPhase.DELETING));
        List<Claim> claims = List.of(pending("job", NOW.minus(Duration.ofMinutes(5))));

        assertThat(RecordRepair.decide(members, claims, NOW, Set.of())).containsExactly(new OnClaim("job", "m", claimedAt));
    }

    @Test
    void releasedMembersAndAgreeingRecordsNeedNothing() {
        List<Member> members = List.of(member("r", Optional.of("job"), Optional.of(claimedAt)).released(NOW),
                member("m", Optional.of("held"), Optional.of(claimedAt)));
        List<Claim> claims = List.of(pending("job", NOW.minus(Duration.ofMinutes(5))),
                pending("held", NOW.minus(Duration.ofMinutes(5))).assigned("m", claimedAt).ready(claimedAt));

        assertThat(RecordRepair.decide(members, claims, NOW, Set.of())).isEmpty();
        assertThat(RecordRepair.repaired(new PoolState(members, claims), NOW)).isEqualTo(new PoolState(members, claims));
    }

    @Test
    void aClaimAssignedAfterThePassTimeIsMarkedReadyAtItsAssignment() {
        Instant later = NOW.plus(Duration.ofSeconds(3));
        List<Member> members = List.of(member("m", Optional.of("job"), Optional.of(later)));
        List<Claim> claims = List.of(pending("job", NOW.minus(Duration.ofMinutes(5))).assigned("m", later));

        assertThat(RecordRepair.decide(members, claims, NOW, Set.of())).containsExactly(new Ready("job", later));
    }
}
