package dev.hotspare.rollout.runtime.agents;

import dev.hotspare.memory.MemoryRolloutAgentChannel;
import dev.hotspare.rollout.RolloutState.OpKind;
import dev.hotspare.rollout.RolloutState.OpStatus;
import dev.hotspare.rollout.TargetRef;
import dev.hotspare.rollout.runtime.Rig;
import dev.hotspare.rollout.runtime.RolloutAgent;
import dev.hotspare.rollout.spi.RolloutAgentChannel.AgentOp;
import dev.hotspare.rollout.spi.RolloutAgentChannel.OpReport;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** RolloutAgent: each op id executed at most once, repeats answered from the journal. */
class AgentJournalTest {

    private final Rig rig = new Rig();
    private final MemoryRolloutAgentChannel channel = rig.channel;

    @Test
    void theAgentHelperExecutesEachOpIdOnceAndAnswersRepeatsFromItsJournal() {
        List<CompletableFuture<RolloutAgent.Result>> running = new ArrayList<>();
        List<OpReport> reports = new ArrayList<>();
        channel.onReport("r1", reports::add);
        RolloutAgent agent = RolloutAgent.start(channel, TargetRef.device("dev-1"), op -> {
            CompletableFuture<RolloutAgent.Result> f = new CompletableFuture<>();
            running.add(f);
            return f;
        }, RolloutAgent.CompletedOps.inMemory());
        AgentOp op = new AgentOp("r1", TargetRef.device("dev-1"), "r1:upgrade:device:dev-1:1", OpKind.UPGRADE, 1, "2.0");
        channel.publish(op);
        channel.publish(op);
        assertThat(running).hasSize(1);
        running.get(0).complete(RolloutAgent.Result.failed("no space"));
        channel.publish(op);
        assertThat(running).hasSize(1);
        assertThat(reports).hasSize(2).allSatisfy(r -> {
            assertThat(r.status()).isEqualTo(OpStatus.FAILED);
            assertThat(r.message()).isEqualTo("no space");
        });
        assertThat(agent.executions()).isEqualTo(1);
        assertThat(agent.replayedReports()).isEqualTo(1);
        agent.close();
        channel.publish(new AgentOp("r1", TargetRef.device("dev-1"), "other", OpKind.UPGRADE, 2, "2.0"));
        assertThat(running).hasSize(1);
    }
}
