package dev.hotspare.architecture.planted.b;

import dev.hotspare.architecture.planted.a.PlantedA;

/** The other half of a planted package cycle. */
public final class PlantedB {

    /** Depends on the first half. */
    public PlantedA other() {
        return new PlantedA();
    }
}
