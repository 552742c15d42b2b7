package dev.hotspare.micrometer;

import dev.hotspare.testkit.property.PublicApi;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

/** The public types of hotspare-micrometer are the ones listed in src/test/resources/public-api.txt (see PublicApi). */
class PublicApiTest {

    @Test
    void publicTypesAreTheListedOnes() {
        PublicApi.check("micrometer", Path.of("target", "classes"));
    }
}
