package dev.hotspare.testkit.fleet;

import dev.hotspare.fleet.spi.RoomStatusStore;
import dev.hotspare.memory.InMemoryRoomStatusStore;

class InMemoryRoomStatusStoreContractTest extends RoomStatusStoreContract {
    @Override
    protected RoomStatusStore newStore() {
        return new InMemoryRoomStatusStore();
    }
}
