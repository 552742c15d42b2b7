package dev.hotspare.architecture;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

/** The public types of hotspare-core are the ones listed in src/test/resources/public-api.txt (see PublicApiCheck). */
class PublicApiTest {

    @Test
    void publicTypesAreTheListedOnes() {
        PublicApiCheck.check("core", Path.of("target", "classes"));
    }
}
