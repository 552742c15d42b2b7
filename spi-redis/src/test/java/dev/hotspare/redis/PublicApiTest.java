package dev.hotspare.redis;

import dev.hotspare.testkit.property.PublicApi;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

/** The public types of hotspare-spi-redis are the ones listed in src/test/resources/public-api.txt (see PublicApi). */
class PublicApiTest {

    @Test
    void publicTypesAreTheListedOnes() {
        PublicApi.check("spi-redis", Path.of("target", "classes"));
    }
}
