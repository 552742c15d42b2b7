package dev.hotspare.kubernetes;

import dev.hotspare.kubernetes.internal.Kube;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolPlanner;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.testkit.servers.MockKubernetes;
import dev.hotspare.time.VirtualTimeScheduler.VirtualClock;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link CustomResourceMemberDriver}'s default mapping on objects shaped like Hive's {@code ClusterDeployment}s, as
 * Hive's own controllers write them: the power states a resume goes through count as RESUMING (so
 * {@code resumeTimeout} fires), the stop states as hibernating, and a stopped or failed provision as FAILED.
 */
class HiveClusterDeploymentTest {

    @RegisterExtension
    static final MockKubernetes kube = MockKubernetes.checkingRbac(RbacFile.SHIPPED);
    static final Instant T0 = Instant.parse("2026-05-01T08:00:00Z");

    final VirtualClock clock = new VirtualClock(T0);
    CustomResourceMemberDriver driver;

    @AfterEach
    void closeDriver() {
        driver.close();
    }

    CustomResourceMemberDriver driver() {
        driver = ClusterDeployments.driver(kube).clock(clock).build();
        return driver;
    }

    /** What Hive's controllers would write: installed, its power state, and any conditions. */
    @SuppressWarnings("unchecked")
    void hiveWrites(String id, String powerState, List<Map<String, Object>> conditions, boolean installed) {
        GenericKubernetesResource cd = kube.client.genericKubernetesResources(ClusterDeployments.CONTEXT)
                .inNamespace(ClusterDeployments.NAMESPACE).withName(id).get();
        Map<String, Object> spec = new LinkedHashMap<>((Map<String, Object>) cd.getAdditionalProperties().get("spec"));
        spec.put("installed", installed);
        cd.getAdditionalProperties().put("spec", spec);
        Map<String, Object> status = new LinkedHashMap<>();
        if (installed) {
            status.put("installedTimestamp", "2026-05-01T07:00:00Z");
        }
        if (powerState != null) {
            status.put("powerState", powerState);
        }
        status.put("conditions", conditions);
        cd.getAdditionalProperties().put("status", status);
        kube.client.genericKubernetesResources(ClusterDeployments.CONTEXT).inNamespace(ClusterDeployments.NAMESPACE)
                .resource(cd).update();
    }

    Member seen(String pool, String id, Predicate<Member> until) {
        return await().atMost(Duration.ofSeconds(60)).until(() -> driver.find(pool, id), o -> o.isPresent() && until.test(o.get()))
                .orElseThrow();
    }

    static Map<String, Object> condition(String type, String status) {
        return Map.of("type", type, "status", status, "reason", "Test", "lastTransitionTime", "2026-05-01T07:30:00Z");
    }

    @Test
    void everyResumeStateIsResumingAndAResumeThatNeverEndsHitsResumeTimeout() {
        CustomResourceMemberDriver cds = driver();
        Member created = cds.create("hive-resume", "v1", DesiredPower.RUNNING);
        // A second member is the barrier: the informer delivers in order, so once its change is seen, every
        // earlier write to the first member is in the cache too.
        Member barrier = cds.create("hive-resume", "v1", DesiredPower.RUNNING);
        clock.advance(Duration.ofMinutes(1));
        Instant firstSeen = clock.instant();
        hiveWrites(created.id(), "StartingMachines", List.of(), true);
        Member resuming = seen("hive-resume", created.id(), m -> m.observedPower() == ObservedPower.RESUMING);
        assertThat(resuming.phase()).isEqualTo(MemberPhase.READY);
        assertThat(resuming.observedPowerSince()).isEqualTo(firstSeen);

        boolean flip = false;
        for (String state : List.of("WaitingForMachines", "WaitingForNodes", "PausingForClusterOperatorsToSettle",
                "WaitingForClusterOperators", "SyncSetsNotApplied", "FailedToStartMachines", "Resuming")) {
            clock.advance(Duration.ofMinutes(2));
            hiveWrites(created.id(), state, List.of(), true);
            flip = !flip;
            ObservedPower barrierPower = flip ? ObservedPower.HIBERNATING : ObservedPower.RUNNING;
            hiveWrites(barrier.id(), flip ? "Hibernating" : "Running", List.of(), true);
            seen("hive-resume", barrier.id(), m -> m.observedPower() == barrierPower);
            Member still = cds.find("hive-resume", created.id()).orElseThrow();
            assertThat(still.observedPower()).as(state).isEqualTo(ObservedPower.RESUMING);
            assertThat(still.observedPowerSince()).as("%s is part of the same resume", state).isEqualTo(firstSeen);
        }

        PoolSpec spec = PoolSpec.builder("hive-resume").size(2).runningCount(2).resumeTimeout(Duration.ofMinutes(20)).build();
        List<Member> members = cds.list("hive-resume");
        assertThat(PoolPlanner.plan(spec, members, List.of(), firstSeen.plus(Duration.ofMinutes(19))).deletes()).isEmpty();
        PoolPlan timedOut = PoolPlanner.plan(spec, members, List.of(), firstSeen.plus(Duration.ofMinutes(20)));
        assertThat(timedOut.status().broken()).isEqualTo(1);
        assertThat(timedOut.deletes()).extracting(PoolPlan.Delete::memberId, PoolPlan.Delete::reason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(created.id(), PoolPlan.DeleteReason.BROKEN));
    }

    @Test
    void eachResumeStateOnItsOwnIsResuming() {
        CustomResourceMemberDriver cds = driver();
        Member created = cds.create("hive-states", "v1", DesiredPower.RUNNING);
        for (String state : List.of("Resuming", "StartingMachines", "WaitingForMachines", "WaitingForNodes",
                "PausingForClusterOperatorsToSettle", "WaitingForClusterOperators", "SyncSetsNotApplied", "FailedToStartMachines")) {
            hiveWrites(created.id(), "Hibernating", List.of(), true);
            seen("hive-states", created.id(), m -> m.observedPower() == ObservedPower.HIBERNATING);
            hiveWrites(created.id(), state, List.of(), true);
            seen("hive-states", created.id(), m -> m.observedPower() == ObservedPower.RESUMING);
        }
    }

    @Test
    void theStopStatesAreHibernatingAndHibernatingIsHibernated() {
        CustomResourceMemberDriver cds = driver();
        Member created = cds.create("hive-stop", "v1", DesiredPower.HIBERNATING);
        for (String state : List.of("Stopping", "WaitingForMachinesToStop", "FailedToStop")) {
            hiveWrites(created.id(), state, List.of(), true);
            seen("hive-stop", created.id(), m -> m.observedPower() == ObservedPower.HIBERNATING_IN_PROGRESS);
        }
        hiveWrites(created.id(), "Hibernating", List.of(), true);
        seen("hive-stop", created.id(), m -> m.observedPower() == ObservedPower.HIBERNATING);
        hiveWrites(created.id(), "Running", List.of(), true);
        seen("hive-stop", created.id(), m -> m.observedPower() == ObservedPower.RUNNING);
        hiveWrites(created.id(), "Unknown", List.of(), true);
        seen("hive-stop", created.id(), m -> m.observedPower() == ObservedPower.UNKNOWN);
    }

    @Test
    void aStoppedOrFailedProvisionIsFailedAndReplaced() {
        CustomResourceMemberDriver cds = driver();
        Member stopped = cds.create("hive-failed", "v1", DesiredPower.HIBERNATING);
        Member failed = cds.create("hive-failed", "v1", DesiredPower.HIBERNATING);
        Member installing = cds.create("hive-failed", "v1", DesiredPower.HIBERNATING);
        hiveWrites(stopped.id(), null, List.of(condition("ProvisionFailed", "True"), condition("ProvisionStopped", "True")), false);
        hiveWrites(failed.id(), null, List.of(condition("ProvisionFailed", "True"), condition("ProvisionStopped", "False")), false);
        hiveWrites(installing.id(), null, List.of(condition("ProvisionFailed", "False"), condition("ProvisionStopped", "False")), false);

        seen("hive-failed", stopped.id(), m -> m.phase() == MemberPhase.FAILED);
        seen("hive-failed", failed.id(), m -> m.phase() == MemberPhase.FAILED);
        assertThat(seen("hive-failed", installing.id(), m -> true).phase()).isEqualTo(MemberPhase.PROVISIONING);
        PoolPlan plan = PoolPlanner.plan(PoolSpec.builder("hive-failed").size(3).build(), cds.list("hive-failed"), List.of(), clock.instant());
        assertThat(plan.status().broken()).isEqualTo(2);
        assertThat(plan.creates()).as("broken members count as unclaimed: replaced once deleted").isEmpty();
        assertThat(plan.deletes()).extracting(PoolPlan.Delete::reason).containsOnly(PoolPlan.DeleteReason.BROKEN).hasSize(2);
    }

    @Test
    void aClusterDeploymentWithoutTheTemplateVersionLabelIsUnknown() {
        CustomResourceMemberDriver cds = driver();
        Member created = cds.create("hive-unknown", "v1", DesiredPower.RUNNING);
        GenericKubernetesResource cd = kube.client.genericKubernetesResources(ClusterDeployments.CONTEXT)
                .inNamespace(ClusterDeployments.NAMESPACE).withName(created.id()).get();
        Map<String, String> labels = new LinkedHashMap<>(cd.getMetadata().getLabels());
        labels.remove(Kube.TEMPLATE_VERSION);
        cd.getMetadata().setLabels(labels);
        kube.client.genericKubernetesResources(ClusterDeployments.CONTEXT).inNamespace(ClusterDeployments.NAMESPACE).resource(cd).update();

        Member unknown = seen("hive-unknown", created.id(), m -> !m.isTemplateVersionKnown());
        assertThat(unknown.templateVersion()).isEqualTo(Member.UNKNOWN_TEMPLATE_VERSION);
        assertThat(PoolPlanner.plan(PoolSpec.builder("hive-unknown").size(1).build(), List.of(unknown), List.of(), clock.instant())
                .status().allCurrent()).contains(false);
        assertThat(Optional.of(unknown.claimName())).contains(Optional.empty());
    }
}
