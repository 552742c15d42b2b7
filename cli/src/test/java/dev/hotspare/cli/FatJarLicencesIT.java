package dev.hotspare.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fat jar ({@code hotspare.jar}, built at {@code package}; run by failsafe at {@code verify}) carries hotspare's
 * LICENSE, the merged NOTICE and the generated list of the third-party dependencies packed into it with their
 * licences (issue 25).
 */
class FatJarLicencesIT {

    @Test
    void theFatJarCarriesItsLicenceNoticeAndThirdPartyList() throws IOException {
        try (JarFile jar = new JarFile(Path.of("target", "hotspare.jar").toFile())) {
            assertThat(jar.getEntry("META-INF/LICENSE")).as("META-INF/LICENSE").isNotNull();
            assertThat(read(jar, "META-INF/NOTICE")).contains("hotspare");
            String thirdParty = read(jar, "META-INF/THIRD-PARTY.txt");
            // Every line names a dependency's licence, its coordinates and version.
            assertThat(thirdParty).contains("third-party dependencies").contains("(tools.jackson.core:jackson-databind:")
                    .doesNotContain("junit").doesNotContain("assertj");
        }
    }

    private static String read(JarFile jar, String name) throws IOException {
        ZipEntry entry = jar.getEntry(name);
        assertThat(entry).as(name).isNotNull();
        return new String(jar.getInputStream(entry).readAllBytes(), StandardCharsets.UTF_8);
    }
}
