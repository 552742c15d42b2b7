package dev.hotspare.architecture.planted;

/** Planted violation: a caller outside the appliers creates rooms through the room actions. */
final class PlantedRoomChanges {

    /** Stands in for {@code RoomActions}. */
    static final class Actions {
        void scaleUp(int rooms) {
        }
    }

    /** The one allowed applier. */
    static final class Applier {
        void apply(Actions actions) {
            actions.scaleUp(1);
        }
    }

    /** Not an applier, yet it creates rooms. */
    static final class Bypass {
        void bypass(Actions actions) {
            actions.scaleUp(1);
        }
    }

    private PlantedRoomChanges() {
    }
}
