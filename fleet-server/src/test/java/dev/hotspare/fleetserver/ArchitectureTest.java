package dev.hotspare.fleetserver;

import dev.hotspare.testkit.architecture.ModuleArchitecture;
import org.junit.jupiter.api.Test;

/**
 * This module's layering: no package cycles. Unlike a library module or user code (the examples), the fleet server is
 * one of hotspare's own products and runs on hotspare-core's {@code …internal} packages (the fleet's worker and
 * watcher, build information, file formats), which carry no compatibility promise to anyone else.
 */
class ArchitectureTest {

    @Test
    void noPackageCycles() {
        ModuleArchitecture.noPackageCycles("dev.hotspare.fleetserver").check(ModuleArchitecture.classesOf("dev.hotspare.fleetserver"));
    }
}
