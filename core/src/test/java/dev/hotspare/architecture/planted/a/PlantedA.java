package dev.hotspare.architecture.planted.a;

import dev.hotspare.architecture.planted.b.PlantedB;

/** One half of a planted package cycle. */
public final class PlantedA {

    /** Depends on the other half. */
    public PlantedB other() {
        return new PlantedB();
    }
}
