package dev.hotspare.testkit;

import dev.hotspare.testkit.architecture.PublicApi;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

/** The public types of hotspare-testkit are the ones listed in src/test/resources/public-api.txt (see PublicApi). */
class PublicApiTest {

    @Test
    void publicTypesAreTheListedOnes() {
        PublicApi.check("testkit", Path.of("target", "classes"));
    }
}
