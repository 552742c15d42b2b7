package dev.hotspare.testkit.property;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

/** The public types of hotspare-testkit-property are the ones listed in src/test/resources/public-api.txt (see PublicApi). */
class PublicApiTest {

    @Test
    void publicTypesAreTheListedOnes() {
        PublicApi.check("testkit-property", Path.of("target", "classes"));
    }
}
