package dev.hotspare.spring;

import dev.hotspare.testkit.architecture.ModuleArchitecture;
import org.junit.jupiter.api.Test;

/** This module's layering: no package cycles, and only public packages of the rest of hotspare. */
class ArchitectureTest {

    @Test
    void noPackageCyclesAndOnlyPublicPackagesOfOthers() {
        ModuleArchitecture.check("dev.hotspare.spring");
    }
}
