package dev.hotspare.spring;

import dev.hotspare.testkit.property.PublicApi;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

/** The public types of hotspare-spring-boot-starter are the ones listed in src/test/resources/public-api.txt (see PublicApi). */
class PublicApiTest {

    @Test
    void publicTypesAreTheListedOnes() {
        PublicApi.check("spring-boot-starter", Path.of("target", "classes"));
    }
}
