package dev.hotspare.pool;

import dev.hotspare.pool.Claim.ClaimReason;
import dev.hotspare.pool.Claim.WaitStage;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.pool.PoolPlan.DeleteReason;
import dev.hotspare.pool.PoolPlan.ReleaseReason;
import dev.hotspare.pool.PoolPlanner.TypicalDurations;
import dev.hotspare.pool.PoolSpec.ClaimLifetime;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** One example per rule of the planner, in the order docs/pools.md states them. */
class PoolPlannerTest {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    static Instant at(int minutes) {
        return T0.plus(Duration.ofMinutes(minutes));
    }

    static Member running(String id, int createdMinute) {
        return new Member(id, at(createdMinute), "v1", MemberPhase.READY, DesiredPower.RUNNING, ObservedPower.RUNNING,
                at(createdMinute), Optional.of(at(createdMinute)), Optional.of(at(createdMinute)), Optional.empty(), Optional.empty());
    }

    static Member hibernating(String id, int createdMinute) {
        return new Member(id, at(createdMinute), "v1", MemberPhase.READY, DesiredPower.HIBERNATING, ObservedPower.HIBERNATING,
                at(createdMinute), Optional.of(at(createdMinute)), Optional.empty(), Optional.empty(), Optional.empty());
    }

    static Member provisioning(String id, int createdMinute) {
        return Member.provisioning(id, at(createdMinute), "v1", DesiredPower.HIBERNATING);
    }

    static Member claimed(Member m, String claim, int claimedMinute) {
        return m.assignedTo(claim, at(claimedMinute));
    }

    static PoolSpec.Builder spec() {
        return PoolSpec.builder("ci-pool").size(3).runningCount(1);
    }

    static PoolPlan plan(PoolSpec spec, List<Member> members, List<Claim> claims, int nowMinute) {
        return PoolPlanner.plan(spec, members, claims, at(nowMinute));
    }

    @Nested
    class Classify {
        @Test
        void countsEachKindOfMember() {
            Member failed = hibernating("f", 0).withPhase(MemberPhase.FAILED);
            Member deleting = hibernating("d", 0).withPhase(MemberPhase.DELETING);
            Member held = claimed(running("c", 0), "claim-a", 5);
            List<Member> members = List.of(running("r", 1), hibernating("s", 2), provisioning("p", 3), failed, deleting, held);
            PoolPlan.Status status = plan(spec().size(4).build(), members,
                    List.of(Claim.pending("claim-a", at(4), Optional.empty()).assigned("c", at(5))), 10).status();
            // Template currency is counted after this pass's deletes: the failed member deleted now is not counted.
            assertThat(status).isEqualTo(new PoolPlan.Status(4, 4, 1, 1, 1, 1, 1, 1, 0, 6, 3, 0, 0, Optional.of(true), 0, false,
                    false, List.of()));
        }

        @Test
        void memberResumingForResumeTimeoutIsBrokenAndReplaced() {
            Member stuck = hibernating("a", 0).withDesiredPower(DesiredPower.RUNNING).withObservedPower(ObservedPower.RESUMING, at(10));
            PoolSpec s = spec().size(1).resumeTimeout(Duration.ofMinutes(15)).build();
            assertThat(plan(s, List.of(stuck), List.of(), 24).deletes()).isEmpty();
            PoolPlan atTimeout = plan(s, List.of(stuck), List.of(), 25);
            assertThat(atTimeout.status().broken()).as("resuming for exactly resumeTimeout is broken").isEqualTo(1);
            assertThat(atTimeout.deletes()).extracting(PoolPlan.Delete::reason).containsExactly(DeleteReason.BROKEN);
        }
    }

    @Nested
    class Release {
        @Test
        void claimPastItsLifetimeIsReleasedAndItsMemberDeleted() {
            Member held = claimed(running("m", 0), "job", 10);
            Claim claim = Claim.pending("job", at(9), Optional.of(Duration.ofMinutes(60))).assigned("m", at(10));
            assertThat(plan(spec().size(0).runningCount(0).build(), List.of(held), List.of(claim), 69).releases()).isEmpty();
            PoolPlan plan = plan(spec().size(0).runningCount(0).build(), List.of(held), List.of(claim), 70);
            assertThat(plan.releases()).extracting(PoolPlan.Release::reason).containsExactly(ReleaseReason.LIFETIME_EXPIRED);
            assertThat(plan.deletes()).extracting(PoolPlan.Delete::memberId, PoolPlan.Delete::reason)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("m", DeleteReason.CLAIM_EXPIRED));
        }

        @Test
        void effectiveLifetimeIsTheClaimsOrTheDefaultCappedByTheMaximum() {
            ClaimLifetime lifetime = new ClaimLifetime(Optional.of(Duration.ofHours(2)), Optional.of(Duration.ofHours(4)));
            assertThat(lifetime.effective(Optional.empty())).contains(Duration.ofHours(2));
            assertThat(lifetime.effective(Optional.of(Duration.ofHours(3)))).contains(Duration.ofHours(3));
            assertThat(lifetime.effective(Optional.of(Duration.ofHours(9)))).contains(Duration.ofHours(4));
            assertThat(ClaimLifetime.UNLIMITED.effective(Optional.empty())).isEmpty();
            PoolSpec s = spec().size(0).runningCount(0).claimLifetime(lifetime).build();
            Member held = claimed(running("m", 0), "job", 0);
            Claim claim = Claim.pending("job", at(0), Optional.of(Duration.ofHours(9))).assigned("m", at(0));
            assertThat(plan(s, List.of(held), List.of(claim), 239).releases()).isEmpty();
            assertThat(plan(s, List.of(held), List.of(claim), 240).releases()).hasSize(1);
        }


        @Test
        void memberNamingAClaimThatHoldsAnotherMemberIsDeleted() {
            Member loser = claimed(running("loser", 0), "job", 5);
            Member winner = claimed(running("winner", 1), "job", 5);
            Claim claim = Claim.pending("job", at(4), Optional.empty()).assigned("winner", at(5));
            PoolPlan plan = plan(spec().size(0).runningCount(0).build(), List.of(loser, winner), List.of(claim), 6);
            assertThat(plan.deletes()).extracting(PoolPlan.Delete::memberId, PoolPlan.Delete::reason)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("loser", DeleteReason.CLAIM_HOLDS_ANOTHER));
            assertThat(plan.releases()).isEmpty();
        }

        @Test
        void claimWhoseMemberVanishedIsReleased() {
            Claim claim = Claim.pending("job", at(0), Optional.empty()).assigned("vanished", at(1));
            PoolPlan plan = plan(spec().size(1).runningCount(0).build(), List.of(hibernating("other", 0)), List.of(claim), 5);
            assertThat(plan.releases()).extracting(PoolPlan.Release::reason).containsExactly(ReleaseReason.MEMBER_GONE);
        }

        @Test
        void anEmptyMemberListReleasesNoAssignedClaim() {
            Claim claim = Claim.pending("job", at(0), Optional.empty()).assigned("m", at(1));
            PoolPlan plan = plan(spec().size(0).runningCount(0).build(), List.of(), List.of(claim), 5);
            assertThat(plan.releases()).as("a read that lists no member at all is not trusted to say members are gone").isEmpty();
        }

        @Test
        void releasesComeFirstInTheConcurrencyBudget() {
            PoolSpec s = spec().size(2).runningCount(0).maxConcurrent(1).build();
            PoolPlan plan = plan(s, List.of(claimed(running("m", 0), "gone", 1).released(at(4))), List.of(), 5);
            assertThat(plan.deletes()).extracting(PoolPlan.Delete::reason).containsExactly(DeleteReason.RELEASED);
            assertThat(plan.creates()).isEmpty();
        }
    }

    @Nested
    class Assign {
        @Test
        void oldestPendingClaimGetsOldestRunningMember() {
            List<Member> members = List.of(running("young", 20), running("old", 10), hibernating("older-but-asleep", 0));
            List<Claim> claims = List.of(Claim.pending("second", at(31), Optional.empty()), Claim.pending("first", at(30), Optional.empty()));
            PoolPlan plan = plan(spec().size(1).runningCount(0).build(), members, claims, 40);
            assertThat(plan.assignments()).extracting(PoolPlan.Assignment::claimName, PoolPlan.Assignment::memberId)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("first", "old"),
                            org.assertj.core.groups.Tuple.tuple("second", "young"));
            assertThat(plan.assignments()).allSatisfy(a -> assertThat(a.claimedAt()).isEqualTo(at(40)));
        }

        @Test
        void claimsAreOnlyGivenRunningMembers() {
            Member resuming = hibernating("a", 0).withDesiredPower(DesiredPower.RUNNING).withObservedPower(ObservedPower.RESUMING, at(5));
            PoolPlan plan = plan(spec().size(2).runningCount(0).build(), List.of(resuming, provisioning("b", 1)),
                    List.of(Claim.pending("c", at(3), Optional.empty())), 6);
            assertThat(plan.assignments()).isEmpty();
            assertThat(plan.status().pendingClaims()).isEqualTo(1);
        }

        @Test
        void tiesOnCreatedAtAreBrokenByIdAndName() {
            List<Member> members = List.of(running("b", 0), running("a", 0));
            List<Claim> claims = List.of(Claim.pending("y", at(1), Optional.empty()), Claim.pending("x", at(1), Optional.empty()));
            PoolPlan plan = plan(spec().size(0).runningCount(0).build(), members, claims, 2);
            assertThat(plan.assignments()).extracting(PoolPlan.Assignment::claimName, PoolPlan.Assignment::memberId)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("x", "a"), org.assertj.core.groups.Tuple.tuple("y", "b"));
        }
    }

    @Nested
    class Power {
        @Test
        void oldestRunningCountMembersRunTheRestHibernate() {
            List<Member> members = List.of(hibernating("a", 0), hibernating("b", 1), running("c", 2), running("d", 3));
            PoolPlan plan = plan(spec().size(4).runningCount(2).build(), members, List.of(), 10);
            assertThat(plan.powerChanges()).extracting(PoolPlan.PowerChange::memberId, PoolPlan.PowerChange::to)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("a", DesiredPower.RUNNING),
                            org.assertj.core.groups.Tuple.tuple("b", DesiredPower.RUNNING),
                            org.assertj.core.groups.Tuple.tuple("c", DesiredPower.HIBERNATING),
                            org.assertj.core.groups.Tuple.tuple("d", DesiredPower.HIBERNATING));
        }

        @Test
        void pendingClaimsGetExtraRunningSlots() {
            List<Member> members = List.of(hibernating("a", 0), hibernating("b", 1), hibernating("c", 2));
            PoolPlan plan = plan(spec().size(3).runningCount(1).build(), members,
                    List.of(Claim.pending("waiting", at(5), Optional.empty())), 6);
            assertThat(plan.powerChanges()).extracting(PoolPlan.PowerChange::memberId).containsExactly("a", "b");
        }

        @Test
        void runningCountAboveSizeRunsEveryUnclaimedMember() {
            List<Member> members = List.of(hibernating("a", 0), hibernating("b", 1));
            PoolPlan plan = plan(spec().size(2).runningCount(10).build(), members, List.of(), 5);
            assertThat(plan.powerChanges()).extracting(PoolPlan.PowerChange::to).containsOnly(DesiredPower.RUNNING).hasSize(2);
        }

        @Test
        void noChangeForAMemberAlreadyInItsTargetState() {
            List<Member> members = List.of(running("a", 0), hibernating("b", 1));
            assertThat(plan(spec().size(2).runningCount(1).build(), members, List.of(), 5).isEmpty()).isTrue();
        }

        @Test
        void provisioningMembersTakePartInPowerPlanning() {
            PoolPlan plan = plan(spec().size(1).runningCount(1).build(), List.of(provisioning("p", 0)), List.of(), 1);
            assertThat(plan.powerChanges()).extracting(PoolPlan.PowerChange::to).containsExactly(DesiredPower.RUNNING);
        }
    }

    @Nested
    class Size {
        @Test
        void createsTheShortfallWithTheirPowerDecided() {
            PoolPlan plan = plan(spec().size(3).runningCount(2).build(), List.of(running("a", 0)), List.of(), 1);
            assertThat(plan.creates()).extracting(PoolPlan.Create::power)
                    .containsExactly(DesiredPower.RUNNING, DesiredPower.HIBERNATING);
        }

        @Test
        void pendingClaimsGrowThePool() {
            PoolPlan plan = plan(spec().size(1).runningCount(0).build(), List.of(hibernating("a", 0)),
                    List.of(Claim.pending("x", at(1), Optional.empty()), Claim.pending("y", at(2), Optional.empty())), 3);
            assertThat(plan.creates()).hasSize(2);
            assertThat(plan.creates()).extracting(PoolPlan.Create::power).containsExactly(DesiredPower.RUNNING, DesiredPower.HIBERNATING);
        }

        @Test
        void createsStopAtMaxSizeCountingClaimedAndDeleting() {
            List<Member> members = List.of(claimed(running("c", 0), "x", 1), hibernating("d", 0).withPhase(MemberPhase.DELETING));
            PoolPlan plan = plan(spec().size(5).runningCount(0).maxSize(4).build(), members,
                    List.of(Claim.pending("x", at(0), Optional.empty()).assigned("c", at(1))), 2);
            assertThat(plan.creates()).hasSize(2);
        }

        @Test
        void nothingMoreWhenTheConcurrencyBudgetIsSpent() {
            List<Member> members = List.of(provisioning("p1", 0), provisioning("p2", 1));
            PoolPlan plan = plan(spec().size(5).runningCount(0).maxConcurrent(2).build(), members, List.of(), 2);
            assertThat(plan.creates()).isEmpty();
            assertThat(plan.deletes()).isEmpty();
            PoolPlan more = plan(spec().size(5).runningCount(0).maxConcurrent(3).build(), members, List.of(), 2);
            assertThat(more.creates()).hasSize(1);
        }

        @Test
        void brokenMembersAreDeletedOldestFirstWithinBudget() {
            List<Member> members = List.of(hibernating("b2", 2).withPhase(MemberPhase.FAILED),
                    hibernating("b1", 1).withPhase(MemberPhase.FAILED), hibernating("ok", 0));
            PoolPlan plan = plan(spec().size(3).runningCount(0).maxConcurrent(1).build(), members, List.of(), 5);
            assertThat(plan.deletes()).extracting(PoolPlan.Delete::memberId).containsExactly("b1");
        }

        @Test
        void excessIsDeletedProvisioningNewestFirstThenStandbyThenRunningOldestFirst() {
            List<Member> members = List.of(running("r1", 0), running("r2", 1), hibernating("s1", 2), hibernating("s2", 3),
                    provisioning("p1", 4), provisioning("p2", 5));
            PoolPlan plan = plan(spec().size(1).runningCount(2).build(), members, List.of(), 10);
            assertThat(plan.deletes()).extracting(PoolPlan.Delete::memberId).containsExactly("p2", "p1", "s1", "s2", "r1");
            assertThat(plan.deletes()).extracting(PoolPlan.Delete::reason).containsOnly(DeleteReason.EXCESS);
        }

        @Test
        void staleTemplateIsReplacedOneAtATimeWhenSettled() {
            Member stale1 = new Member("a", at(0), "v0", MemberPhase.READY, DesiredPower.RUNNING, ObservedPower.RUNNING, at(0),
                    Optional.of(at(0)), Optional.of(at(0)), Optional.empty(), Optional.empty());
            Member stale2 = new Member("b", at(1), "v0", MemberPhase.READY, DesiredPower.HIBERNATING, ObservedPower.HIBERNATING,
                    at(1), Optional.of(at(1)), Optional.empty(), Optional.empty(), Optional.empty());
            PoolPlan plan = plan(spec().size(2).runningCount(1).build(), List.of(stale1, stale2), List.of(), 5);
            assertThat(plan.deletes()).extracting(PoolPlan.Delete::memberId, PoolPlan.Delete::reason)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("a", DeleteReason.STALE_TEMPLATE));
            PoolPlan whileProvisioning = plan(spec().size(3).runningCount(1).build(),
                    List.of(stale1, stale2, Member.provisioning("c", at(2), "v1", DesiredPower.HIBERNATING)), List.of(), 5);
            assertThat(whileProvisioning.deletes()).isEmpty();
        }
    }

    @Nested
    class HibernateClaimed {
        final PoolSpec spec = spec().size(0).runningCount(0).hibernateAfter(Duration.ofMinutes(60)).build();
        final Claim claim = Claim.pending("job", at(0), Optional.empty()).assigned("m", at(10));

        @Test
        void claimedMemberHibernatesAfterTheLatestOfInstalledClaimedAndBecameRunning() {
            Member held = claimed(running("m", 0), "job", 10);
            assertThat(plan(spec, List.of(held), List.of(claim), 69).powerChanges()).isEmpty();
            assertThat(plan(spec, List.of(held), List.of(claim), 70).powerChanges())
                    .extracting(PoolPlan.PowerChange::to).containsExactly(DesiredPower.HIBERNATING);
            Member resumedLater = held.withObservedPower(ObservedPower.HIBERNATING, at(70)).withObservedPower(ObservedPower.RUNNING, at(100));
            assertThat(plan(spec, List.of(resumedLater), List.of(claim), 159).powerChanges()).isEmpty();
            assertThat(plan(spec, List.of(resumedLater), List.of(claim), 160).powerChanges()).hasSize(1);
        }

        @Test
        void unclaimedMembersNeverHibernateBecauseOfHibernateAfter() {
            PoolSpec s = spec().size(1).runningCount(1).hibernateAfter(Duration.ofMinutes(1)).build();
            assertThat(plan(s, List.of(running("a", 0)), List.of(), 600).isEmpty()).isTrue();
        }
    }

    @Nested
    class ReleaseMarks {
        final Claim job = Claim.pending("job", at(0), Optional.empty()).assigned("m", at(1));

        @Test
        void aMemberCarryingTheReleaseMarkIsDeletedAndAnInterruptedReleaseFinished() {
            Member marked = claimed(running("m", 0), "job", 1).released(at(4));
            PoolPlan plan = plan(spec().size(0).runningCount(0).build(), List.of(marked), List.of(job), 5);
            assertThat(plan.releases()).extracting(PoolPlan.Release::claimName, PoolPlan.Release::reason)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("job", ReleaseReason.RELEASED));
            assertThat(plan.deletes()).extracting(PoolPlan.Delete::memberId, PoolPlan.Delete::reason)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("m", DeleteReason.RELEASED));
        }

        @Test
        void aReleasedMemberWaitsForTheBudgetAndIsNeverReused() {
            Member marked = claimed(running("m", 0), "job", 1).released(at(4));
            PoolSpec s = spec().size(1).runningCount(1).maxConcurrent(1).build();
            PoolPlan plan = plan(s, List.of(marked, provisioning("p", 2)), List.of(Claim.pending("next", at(3), Optional.empty())), 5);
            assertThat(plan.deletes()).isEmpty();
            assertThat(plan.assignments()).isEmpty();
            assertThat(plan.status().claimed()).isEqualTo(1);
        }

        @Test
        void aNewClaimReusingTheNameOfAReleasedOneIsServedNotReleased() {
            Member marked = claimed(running("m", 0), "job", 1).released(at(4));
            Claim again = Claim.pending("job", at(6), Optional.empty());
            PoolPlan plan = plan(spec().size(0).runningCount(0).build(), List.of(marked, running("r", 2)), List.of(again), 7);
            assertThat(plan.releases()).isEmpty();
            assertThat(plan.assignments()).extracting(PoolPlan.Assignment::claimName, PoolPlan.Assignment::memberId)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("job", "r"));
        }

        @Test
        void anExpiredClaimIsReleasedEvenWhenTheBudgetCannotDeleteItsMemberYet() {
            PoolSpec s = spec().size(1).runningCount(0).maxConcurrent(1)
                    .claimLifetime(new ClaimLifetime(Optional.of(Duration.ofMinutes(30)), Optional.empty())).build();
            PoolPlan plan = plan(s, List.of(claimed(running("m", 0), "job", 1), provisioning("p", 2)), List.of(job), 31);
            assertThat(plan.releases()).extracting(PoolPlan.Release::reason).containsExactly(ReleaseReason.LIFETIME_EXPIRED);
            assertThat(plan.deletes()).isEmpty();
            assertThat(plan.powerChanges()).extracting(PoolPlan.PowerChange::memberId).doesNotContain("m");
        }
    }

    @Nested
    class Orphans {
        final PoolSpec s = spec().size(0).runningCount(0).build();

        @Test
        void aClaimedMemberWhoseClaimIsMissingIsOrphanedNotDeleted() {
            PoolPlan plan = plan(s, List.of(claimed(running("m", 0), "gone", 1)), List.of(Claim.pending("other", at(2), Optional.empty())), 5);
            assertThat(plan.deletes()).isEmpty();
            assertThat(plan.orphanMarks()).containsExactly(new PoolPlan.OrphanMark("m", "gone", Optional.of(at(5)),
                    "claim 'gone' missing from the claim store"));
            assertThat(plan.orphans()).containsExactly(new PoolPlan.Orphan("m", "gone", at(5), at(15)));
            assertThat(plan.status().orphaned()).isEqualTo(1);
        }

        @Test
        void anOrphanIsDeletedOnceItsClaimHasBeenMissingForTheGracePeriod() {
            Member orphan = claimed(running("m", 0), "gone", 1).withOrphanedSince(Optional.of(at(5)));
            List<Claim> others = List.of(Claim.pending("other", at(2), Optional.empty()));
            PoolPlan early = plan(s, List.of(orphan), others, 14);
            assertThat(early.deletes()).isEmpty();
            assertThat(early.orphanMarks()).as("the mark is already there").isEmpty();
            assertThat(plan(s, List.of(orphan), others, 15).deletes()).extracting(PoolPlan.Delete::memberId, PoolPlan.Delete::reason)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("m", DeleteReason.CLAIM_GONE));
        }

        @Test
        void aZeroGracePeriodDeletesAnOrphanOnTheFirstPassThatMissesItsClaim() {
            PoolSpec zero = s.toBuilder().orphanGracePeriod(Duration.ZERO).build();
            PoolPlan plan = plan(zero, List.of(claimed(running("m", 0), "gone", 1)), List.of(Claim.pending("other", at(2), Optional.empty())), 5);
            assertThat(plan.deletes()).extracting(PoolPlan.Delete::reason).containsExactly(DeleteReason.CLAIM_GONE);
            assertThat(plan.orphanMarks()).isEmpty();
        }

        @Test
        void aClaimSeenAgainClearsTheMark() {
            Member orphan = claimed(running("m", 0), "job", 1).withOrphanedSince(Optional.of(at(5)));
            Claim back = Claim.pending("job", at(0), Optional.empty()).assigned("m", at(1));
            PoolPlan plan = plan(s, List.of(orphan), List.of(back), 20);
            assertThat(plan.deletes()).isEmpty();
            assertThat(plan.orphanMarks()).extracting(PoolPlan.OrphanMark::memberId, PoolPlan.OrphanMark::since)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("m", Optional.empty()));
            assertThat(plan.orphans()).isEmpty();
        }

        @Test
        void aReadWithNoClaimAtAllDeletesNoClaimedMemberWhateverTheGrace() {
            PoolSpec zero = s.toBuilder().orphanGracePeriod(Duration.ZERO).build();
            Member longGone = claimed(running("a", 0), "one", 1).withOrphanedSince(Optional.of(at(2)));
            Member fresh = claimed(running("b", 0), "two", 1);
            PoolPlan plan = plan(zero, List.of(longGone, fresh), List.of(), 500);
            assertThat(plan.deletes()).isEmpty();
            assertThat(plan.orphanMarks()).as("no mark set or cleared on a read not to be trusted").isEmpty();
            assertThat(plan.status().emptyClaimRead()).isTrue();
            assertThat(plan.orphans()).extracting(PoolPlan.Orphan::memberId).containsExactly("a", "b");
        }

        @Test
        void aPendingClaimMadeAfterTheMemberWasClaimedIsANewClaimNotTheMembers() {
            Member old = claimed(running("m", 0), "job", 10);
            Claim again = Claim.pending("job", at(20), Optional.empty());
            PoolPlan plan = plan(s, List.of(old, running("r", 1)), List.of(again), 21);
            assertThat(plan.orphans()).extracting(PoolPlan.Orphan::memberId).containsExactly("m");
            assertThat(plan.assignments()).extracting(PoolPlan.Assignment::memberId).containsExactly("r");
        }
    }

    @Nested
    class Budget {
        @Test
        void claimedMembersStillProvisioningLeaveTheBudgetAlone() {
            Member claimedInstalling = provisioning("c", 0).assignedTo("job", at(1));
            Claim job = Claim.pending("job", at(1), Optional.empty()).assigned("c", at(1));
            PoolSpec s = spec().size(1).runningCount(0).maxConcurrent(1).build();
            assertThat(plan(s, List.of(claimedInstalling), List.of(job), 2).creates()).hasSize(1);
            Member released = claimed(running("r", 0), "done", 1).released(at(2));
            assertThat(plan(s.toBuilder().size(0).build(), List.of(claimedInstalling, released), List.of(job), 3).deletes())
                    .extracting(PoolPlan.Delete::memberId).containsExactly("r");
        }
    }

    @Nested
    class Templates {
        Member unknown(String id, int minute) {
            return new Member(id, at(minute), null, MemberPhase.READY, DesiredPower.HIBERNATING, ObservedPower.HIBERNATING,
                    at(minute), Optional.of(at(minute)), Optional.empty(), Optional.empty(), Optional.empty());
        }

        Member stale(String id, int minute) {
            return new Member(id, at(minute), "v0", MemberPhase.READY, DesiredPower.HIBERNATING, ObservedPower.HIBERNATING,
                    at(minute), Optional.of(at(minute)), Optional.empty(), Optional.empty(), Optional.empty());
        }

        @Test
        void aMemberWithNoRecordedTemplateVersionIsUnknownNotCurrent() {
            assertThat(unknown("u", 0).templateVersion()).isEqualTo(Member.UNKNOWN_TEMPLATE_VERSION);
            // size 4: the pool grows this pass, so no member is replaced and all three are counted.
            PoolPlan.Status status = plan(spec().size(4).runningCount(0).build(),
                    List.of(hibernating("a", 0), stale("b", 1), unknown("c", 2)), List.of(), 5).status();
            assertThat(List.of(status.current(), status.stale(), status.unknown())).containsExactly(1, 1, 1);
            assertThat(status.allCurrent()).contains(false);
            assertThat(plan(spec().size(1).runningCount(0).build(), List.of(hibernating("a", 0)), List.of(), 5).status().allCurrent())
                    .contains(true);
        }

        @Test
        void templateCurrencyIsCountedAfterThisPassesDeletesAndBeforeItsAssignments() {
            // Item 3 of issue 27, as Hive: a stale running member assigned by this pass still counts (not current) ...
            Member staleRunning = new Member("s", at(0), "v0", MemberPhase.READY, DesiredPower.RUNNING, ObservedPower.RUNNING,
                    at(0), Optional.of(at(0)), Optional.of(at(0)), Optional.empty(), Optional.empty());
            PoolPlan assigning = plan(spec().size(1).runningCount(1).build(), List.of(staleRunning, running("a", 1)),
                    List.of(Claim.pending("job", at(2), Optional.empty())), 5);
            assertThat(assigning.assignments()).extracting(PoolPlan.Assignment::memberId).containsExactly("s");
            assertThat(List.of(assigning.status().current(), assigning.status().stale())).containsExactly(1, 1);
            assertThat(assigning.status().allCurrent()).contains(false);
            // ... and a stale broken member deleted by this pass no longer does.
            Member staleBroken = stale("f", 0).withPhase(MemberPhase.FAILED);
            PoolPlan deleting = plan(spec().size(1).runningCount(0).build(), List.of(staleBroken, hibernating("a", 1)), List.of(), 5);
            assertThat(deleting.deletes()).extracting(PoolPlan.Delete::memberId).containsExactly("f");
            assertThat(List.of(deleting.status().current(), deleting.status().stale())).containsExactly(1, 0);
            assertThat(deleting.status().allCurrent()).contains(true);
        }

        @Test
        void unknownMembersAreReplacedBeforeStaleOnesOldestFirst() {
            List<Member> members = List.of(stale("s", 0), unknown("u2", 2), unknown("u1", 1));
            PoolPlan plan = plan(spec().size(3).runningCount(0).build(), members, List.of(), 5);
            assertThat(plan.deletes()).extracting(PoolPlan.Delete::memberId, PoolPlan.Delete::reason)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("u1", DeleteReason.STALE_TEMPLATE));
        }
    }

    @Nested
    class ResumeTimeout {
        @Test
        void aMemberThePoolWantsHibernatingIsNeverBrokenForASlowResume() {
            Member slow = hibernating("a", 0).withObservedPower(ObservedPower.RESUMING, at(10));
            PoolSpec s = spec().size(1).runningCount(0).resumeTimeout(Duration.ofMinutes(15)).build();
            PoolPlan plan = plan(s, List.of(slow), List.of(), 100);
            assertThat(plan.status().broken()).isZero();
            assertThat(plan.deletes()).isEmpty();
        }
    }

    @Nested
    class Deletion {
        final PoolSpec deleted = spec().size(3).runningCount(1).maxConcurrent(3).deleted(true).build();

        @Test
        void aDeletedPoolServesNoClaimCreatesNothingAndDeletesUnclaimedMembersWithinTheBudget() {
            Member held = claimed(running("c", 0), "job", 1);
            List<Member> members = List.of(running("r", 1), hibernating("s", 2), provisioning("p", 3), held);
            List<Claim> claims = List.of(Claim.pending("job", at(0), Optional.empty()).assigned("c", at(1)),
                    Claim.pending("late", at(4), Optional.empty()));
            PoolPlan plan = plan(deleted, members, claims, 5);
            assertThat(plan.assignments()).isEmpty();
            assertThat(plan.creates()).isEmpty();
            assertThat(plan.powerChanges()).isEmpty();
            assertThat(plan.deletes()).extracting(PoolPlan.Delete::memberId, PoolPlan.Delete::reason).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("p", DeleteReason.POOL_DELETED),
                    org.assertj.core.groups.Tuple.tuple("s", DeleteReason.POOL_DELETED));
            assertThat(plan.reasons()).extracting(PoolPlan.PendingClaim::reason).containsExactly(new ClaimReason.PoolDeleting());
            assertThat(plan.status().poolDeleted()).isTrue();
            assertThat(plan.status().deletionWaitsFor()).containsExactly("c", "r", "s", "p");
        }

        @Test
        void aDeletedPoolsTemplateCurrencyIsUnknownAsHiveNeverEvaluatesIt() {
            // Item 2 of issue 27: every member current, yet allCurrent is Unknown (empty), not true.
            PoolPlan plan = plan(deleted, List.of(hibernating("a", 0), running("b", 1)), List.of(), 5);
            assertThat(plan.status().stale()).isZero();
            assertThat(plan.status().unknown()).isZero();
            assertThat(plan.status().allCurrent()).isEmpty();
        }

        @Test
        void aDeletedPoolUnderMaxConcurrentDeletesBrokenMembersLast() {
            // Item 4 of issue 27, as Hive: provisioning (newest first), standby, running, then broken.
            PoolSpec one = deleted; // maxConcurrent 3, one member provisioning: a budget of 2 deletes
            Member failed = hibernating("f", 0).withPhase(MemberPhase.FAILED);
            List<Member> members = List.of(failed, running("r", 1), hibernating("s", 2), provisioning("p", 3));
            assertThat(plan(one, members, List.of(), 5).deletes()).extracting(PoolPlan.Delete::memberId).containsExactly("p", "s");
            assertThat(plan(deleted.toBuilder().maxConcurrent(10).build(), members, List.of(), 5).deletes())
                    .extracting(PoolPlan.Delete::memberId).containsExactly("p", "s", "r", "f");
        }

        @Test
        void claimedMembersStayUntilReleased() {
            Member held = claimed(running("c", 0), "job", 1);
            Claim job = Claim.pending("job", at(0), Optional.empty()).assigned("c", at(1));
            assertThat(plan(deleted, List.of(held), List.of(job), 5).deletes()).isEmpty();
            assertThat(plan(deleted, List.of(held.released(at(6))), List.of(), 7).deletes())
                    .extracting(PoolPlan.Delete::reason).containsExactly(DeleteReason.RELEASED);
            assertThat(plan(deleted, List.of(), List.of(), 8).status().deletionWaitsFor()).isEmpty();
        }

        @Test
        void aSpecFileSaysDeletedTrue() {
            PoolSpec read = dev.hotspare.json.Documents.read("name: ci\nsize: 2\ndeleted: true\n",
                    dev.hotspare.json.Documents.Format.YAML, PoolSpec.class);
            assertThat(read.deleted()).isTrue();
            assertThat(read.orphanGracePeriod()).isEqualTo(Duration.ofMinutes(10));
        }
    }

    @Nested
    class Reasons {
        final TypicalDurations typical = new TypicalDurations(Optional.of(Duration.ofMinutes(40)), Optional.of(Duration.ofMinutes(5)));

        PoolPlan planWith(PoolSpec spec, List<Member> members, List<Claim> claims, int nowMinute) {
            return PoolPlanner.plan(spec, members, claims, at(nowMinute), typical);
        }

        @Test
        void aClaimWaitingForAResumeNamesTheMemberAndWhenItIsExpectedToRun() {
            List<Member> members = List.of(hibernating("a", 0), hibernating("b", 1).withDesiredPower(DesiredPower.RUNNING)
                    .withObservedPower(ObservedPower.RESUMING, at(4)));
            List<Claim> claims = List.of(Claim.pending("x", at(5), Optional.empty()), Claim.pending("y", at(6), Optional.empty()));
            PoolPlan plan = planWith(spec().size(2).runningCount(0).build(), members, claims, 6);
            assertThat(plan.reasons()).extracting(PoolPlan.PendingClaim::claimName, PoolPlan.PendingClaim::reason).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("x", new ClaimReason.WaitingForResume("a", at(6), Optional.of(at(11)))),
                    org.assertj.core.groups.Tuple.tuple("y", new ClaimReason.WaitingForResume("b", at(4), Optional.of(at(9)))));
            assertThat(plan.reasons().get(0).reason().stage()).isEqualTo(WaitStage.RESUME);
        }

        @Test
        void aClaimWaitingForAnInstallNamesTheMemberOrTheOneBeingCreated() {
            List<Claim> claims = List.of(Claim.pending("x", at(5), Optional.empty()), Claim.pending("y", at(6), Optional.empty()));
            PoolPlan plan = planWith(spec().size(0).runningCount(0).build(), List.of(provisioning("p", 2)), claims, 7);
            assertThat(plan.reasons()).extracting(PoolPlan.PendingClaim::reason).containsExactly(
                    new ClaimReason.Provisioning(Optional.of("p"), at(2), Optional.of(at(42))),
                    new ClaimReason.Provisioning(Optional.empty(), at(7), Optional.of(at(47))));
        }

        @Test
        void aClaimBlockedByMaxSizeMaxConcurrentOrBrokenMembersSaysWhich() {
            Member held = claimed(running("c", 0), "job", 1);
            Claim job = Claim.pending("job", at(0), Optional.empty()).assigned("c", at(1));
            Claim x = Claim.pending("x", at(5), Optional.empty());
            assertThat(planWith(spec().size(0).maxSize(1).build(), List.of(held), List.of(job, x), 6).reasonFor("x"))
                    .contains(new ClaimReason.AtMaxSize(1, 1));
            Claim y = Claim.pending("y", at(6), Optional.empty());
            PoolPlan busy = planWith(spec().size(0).runningCount(0).maxConcurrent(1).build(), List.of(provisioning("p", 2)), List.of(x, y), 7);
            assertThat(busy.reasonFor("x")).contains(new ClaimReason.Provisioning(Optional.of("p"), at(2), Optional.of(at(42))));
            assertThat(busy.reasonFor("y")).contains(new ClaimReason.MaxConcurrentExhausted(1, 1));
            Member failed = hibernating("f", 0).withPhase(MemberPhase.FAILED);
            PoolPlan broken = planWith(spec().size(0).runningCount(0).build(), List.of(failed), List.of(x), 7);
            assertThat(broken.reasonFor("x")).contains(new ClaimReason.AllBroken(1));
        }

        @Test
        void withoutObservedDurationsThereIsNoExpectedTime() {
            PoolPlan plan = plan(spec().size(1).runningCount(0).build(), List.of(hibernating("a", 0)),
                    List.of(Claim.pending("x", at(5), Optional.empty())), 6);
            assertThat(plan.reasonFor("x")).contains(new ClaimReason.WaitingForResume("a", at(6), Optional.empty()));
        }

        @Test
        void reasonsAreWrittenWithTheirKindAndAText() {
            PoolPlan plan = planWith(spec().size(1).runningCount(0).build(), List.of(hibernating("a", 0)),
                    List.of(Claim.pending("x", at(5), Optional.empty())), 6);
            String json = dev.hotspare.json.Documents.toJson(plan);
            assertThat(json).contains("\"kind\" : \"WAITING_FOR_RESUME\"").contains("\"member\" : \"a\"")
                    .contains("\"expectedReadyAt\" : \"2026-01-01T00:11:00Z\"")
                    .contains("\"text\" : \"waiting for member a to resume");
        }
    }

    @Nested
    class Consistency {
        @Test
        void aClaimedMemberWithoutClaimedAtNamingAPendingClaimHoldsIt() {
            Member noTime = new Member("m", at(0), "v1", MemberPhase.READY, DesiredPower.RUNNING, ObservedPower.RUNNING, at(0),
                    Optional.of(at(0)), Optional.of(at(0)), Optional.of("job"), Optional.empty());
            PoolPlan plan = plan(spec().size(0).runningCount(0).build(), List.of(noTime), List.of(Claim.pending("job", at(1), Optional.empty())), 2);
            assertThat(plan.status().pendingClaims()).isZero();
            assertThat(plan.deletes()).isEmpty();
        }

        @Test
        void aClaimRecordNamingAnUnclaimedMemberHoldsItForThatClaim() {
            Claim x = Claim.pending("x", at(0), Optional.empty()).assigned("m", at(3));
            PoolPlan plan = plan(spec().size(0).runningCount(0).build(), List.of(running("m", 0)),
                    List.of(x, Claim.pending("y", at(4), Optional.empty())), 5);
            assertThat(plan.assignments()).isEmpty();
            assertThat(plan.releases()).isEmpty();
            assertThat(plan.status().claimed()).isEqualTo(1);
        }
    }

    @Nested
    class Inputs {
        @Test
        void duplicateMemberIdsAreRejectedByName() {
            assertThatThrownBy(() -> plan(spec().build(), List.of(running("a", 0), running("a", 1)), List.of(), 1))
                    .isInstanceOf(ValidationException.class).hasMessageContaining("members[].id").hasMessageContaining("'a'");
        }

        @Test
        void specRejectsEveryBadFieldAtOnce() {
            assertThatThrownBy(() -> PoolSpec.builder("Bad_Name").size(-1).runningCount(-2).maxConcurrent(0).build())
                    .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.problems())
                            .extracting(dev.hotspare.validation.Problem::path)
                            .containsExactly("name", "size", "runningCount", "maxConcurrent"));
        }

        @Test
        void planDoesNotDependOnInputOrder() {
            List<Member> members = new ArrayList<>(List.of(running("a", 0), hibernating("b", 1), provisioning("c", 2), running("d", 3)));
            List<Claim> claims = new ArrayList<>(List.of(Claim.pending("x", at(4), Optional.empty()), Claim.pending("y", at(5), Optional.empty())));
            PoolPlan forward = plan(spec().size(3).runningCount(1).build(), members, claims, 6);
            java.util.Collections.reverse(members);
            java.util.Collections.reverse(claims);
            assertThat(plan(spec().size(3).runningCount(1).build(), members, claims, 6)).isEqualTo(forward);
        }
    }
}
