package dev.hotspare.architecture;

import dev.hotspare.testkit.property.PublicApi;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

/** The public types of hotspare-core are the ones listed in src/test/resources/public-api.txt (see PublicApi). */
class PublicApiTest {

    @Test
    void publicTypesAreTheListedOnes() {
        PublicApi.check("core", Path.of("target", "classes"));
    }
}
