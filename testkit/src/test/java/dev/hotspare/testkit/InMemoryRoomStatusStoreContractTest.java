package dev.hotspare.testkit;

import dev.hotspare.memory.InMemoryRoomStatusStore;
import dev.hotspare.spi.RoomStatusStore;

class InMemoryRoomStatusStoreContractTest extends RoomStatusStoreContract {
    @Override
    protected RoomStatusStore newStore() {
        return new InMemoryRoomStatusStore();
    }
}
