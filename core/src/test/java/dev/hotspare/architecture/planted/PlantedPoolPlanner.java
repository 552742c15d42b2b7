package dev.hotspare.architecture.planted;

import dev.hotspare.kpi.KpiListener;
import dev.hotspare.pool.runtime.PoolController;

import java.time.Instant;

/** A planner that breaks the rules on purpose: it reads the clock, reaches into the runtime and into kpi. */
public final class PlantedPoolPlanner {

    private PlantedPoolPlanner() {
    }

    /** Reads the wall clock and touches a runtime class and the KPI listener. */
    public static Instant plan(PoolController controller, KpiListener kpis) {
        kpis.toString();
        controller.spec();
        return Instant.now();
    }
}
