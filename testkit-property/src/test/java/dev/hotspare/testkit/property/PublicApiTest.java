package dev.hotspare.testkit.property;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

/** The public types of hotspare-testkit-property are the ones listed in src/test/resources/public-api.txt (see PublicApiCheck). */
class PublicApiTest {

    @Test
    void publicTypesAreTheListedOnes() {
        PublicApiCheck.check("testkit-property", Path.of("target", "classes"));
    }
}
