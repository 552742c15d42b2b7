package dev.hotspare.testkit.rollout;

import dev.hotspare.rollout.RolloutState.OpKind;
import dev.hotspare.rollout.RolloutState.OpStatus;
import dev.hotspare.rollout.TargetRef;
import dev.hotspare.rollout.spi.RolloutAgentChannel;
import dev.hotspare.rollout.spi.RolloutAgentChannel.AgentOp;
import dev.hotspare.rollout.spi.RolloutAgentChannel.OpReport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The {@link RolloutAgentChannel} contract; subclass and return a fresh channel. Deliveries may be asynchronous. */
public abstract class RolloutAgentChannelContract {

    /**
     * A fresh channel with nothing published.
     */
    protected abstract RolloutAgentChannel newChannel();

    /**
     * How long to wait for an asynchronous delivery.
     */
    protected Duration deliveryTimeout() {
        return Duration.ofSeconds(60);
    }

    private RolloutAgentChannel channel;
    private static final TargetRef DEV1 = TargetRef.device("dev-1");
    private static final TargetRef DEV2 = TargetRef.device("dev-2");

    @BeforeEach
    void createChannel() {
        channel = newChannel();
    }

    private static AgentOp op(String rollout, TargetRef target, int attempt) {
        return new AgentOp(rollout, target, rollout + ":upgrade:" + target.name() + ":" + attempt, OpKind.UPGRADE, attempt, "2.0");
    }

    private static final class Recorder implements RolloutAgentChannel.AgentListener {
        final List<AgentOp> ops = new CopyOnWriteArrayList<>();
        final List<AgentOp> cancels = new CopyOnWriteArrayList<>();

        @Override
        public void onOp(AgentOp op) {
            ops.add(op);
        }

        @Override
        public void onCancel(AgentOp op) {
            cancels.add(op);
        }
    }

    @Test
    void anOpIsPendingOnlyForItsTarget() {
        AgentOp op = op("r1", DEV1, 1);
        channel.publish(op);
        await().atMost(deliveryTimeout()).untilAsserted(() -> assertThat(channel.pending(DEV1)).containsExactly(op));
        assertThat(channel.pending(DEV2)).isEmpty();
    }

    @Test
    void pendingKeepsPublishOrderAndEachOpIdOnce() {
        AgentOp a = op("r1", DEV1, 1);
        AgentOp b = op("r2", DEV1, 1);
        channel.publish(a);
        channel.publish(b);
        channel.publish(a);
        await().atMost(deliveryTimeout()).untilAsserted(() -> assertThat(channel.pending(DEV1)).containsExactly(a, b));
    }

    @Test
    void aWatchGetsPendingOpsThenNewOnesAndRepublishes() {
        AgentOp first = op("r1", DEV1, 1);
        channel.publish(first);
        Recorder recorder = new Recorder();
        channel.watch(DEV1, recorder);
        await().atMost(deliveryTimeout()).untilAsserted(() -> assertThat(recorder.ops).containsExactly(first));
        AgentOp second = op("r1", DEV1, 2);
        channel.publish(second);
        channel.publish(first);
        channel.publish(op("r1", DEV2, 1));
        await().atMost(deliveryTimeout()).untilAsserted(() -> assertThat(recorder.ops).containsExactly(first, second, first));
    }

    @Test
    void aClosedWatchHearsNothing() {
        Recorder recorder = new Recorder();
        RolloutAgentChannel.Subscription sub = channel.watch(DEV1, recorder);
        sub.close();
        sub.close();
        channel.publish(op("r1", DEV1, 1));
        Recorder control = new Recorder();
        channel.watch(DEV1, control);
        await().atMost(deliveryTimeout()).untilAsserted(() -> assertThat(control.ops).hasSize(1));
        assertThat(recorder.ops).isEmpty();
    }

    @Test
    void aReportRemovesTheOpAndReachesListenersOfItsRolloutOnly() {
        AgentOp op = op("r1", DEV1, 1);
        channel.publish(op);
        List<OpReport> r1 = new CopyOnWriteArrayList<>();
        List<OpReport> r2 = new CopyOnWriteArrayList<>();
        channel.onReport("r1", r1::add);
        channel.onReport("r2", r2::add);
        OpReport report = OpReport.of(op, OpStatus.SUCCEEDED, "done");
        channel.report(report);
        await().atMost(deliveryTimeout()).untilAsserted(() -> {
            assertThat(r1).containsExactly(report);
            assertThat(channel.pending(DEV1)).isEmpty();
        });
        assertThat(r2).isEmpty();
    }

    @Test
    void aReportForAnOpNotPendingIsStillDelivered() {
        List<OpReport> reports = new CopyOnWriteArrayList<>();
        channel.onReport("r1", reports::add);
        OpReport report = OpReport.of(op("r1", DEV1, 3), OpStatus.FAILED, "late");
        channel.report(report);
        channel.report(report);
        await().atMost(deliveryTimeout()).untilAsserted(() -> assertThat(reports).containsExactly(report, report));
    }

    @Test
    void cancelWithdrawsTheOpAndTellsTheWatcher() {
        AgentOp op = op("r1", DEV1, 1);
        Recorder recorder = new Recorder();
        channel.watch(DEV1, recorder);
        channel.publish(op);
        channel.cancel("r1", DEV1, op.opId());
        channel.cancel("r1", DEV1, "unknown");
        await().atMost(deliveryTimeout()).untilAsserted(() -> {
            assertThat(recorder.cancels).containsExactly(op);
            assertThat(channel.pending(DEV1)).isEmpty();
        });
    }

    @Test
    void theSameOpIdInTwoRolloutsIsTwoOps() {
        AgentOp a = new AgentOp("r1", DEV1, "same", OpKind.PRECHECK, 1, "2.0");
        AgentOp b = new AgentOp("r2", DEV1, "same", OpKind.PRECHECK, 1, "2.0");
        channel.publish(a);
        channel.publish(b);
        channel.report(OpReport.of(a, OpStatus.SUCCEEDED, ""));
        await().atMost(deliveryTimeout()).untilAsserted(() -> assertThat(channel.pending(DEV1)).containsExactly(b));
    }
}
