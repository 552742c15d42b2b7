package dev.hotspare.testkit.rollout;

import dev.hotspare.memory.MemoryRolloutAgentChannel;
import dev.hotspare.rollout.spi.RolloutAgentChannel;

class MemoryRolloutAgentChannelContractTest extends RolloutAgentChannelContract {
    @Override
    protected RolloutAgentChannel newChannel() {
        return new MemoryRolloutAgentChannel();
    }
}
