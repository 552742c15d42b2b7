package dev.hotspare.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The version of hotspare on the class path, as the build stamped it: what {@code hotspare --version} prints and
 * what the fleet service sends as {@code X-Hotspare-Version}.
 */
public final class HotspareVersion {

    private static final String CURRENT = read();

    private HotspareVersion() {
    }

    /**
     * The version, e.g. {@code 0.1.0} or {@code 0.2.0-SNAPSHOT}; {@code unknown} if the build left no record.
     */
    public static String current() {
        return CURRENT;
    }

    private static String read() {
        try (InputStream in = HotspareVersion.class.getResourceAsStream("/dev/hotspare/hotspare-version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            String version = properties.getProperty("version", "").strip();
            // Unfiltered (a build that skipped resource processing) reads as the placeholder itself.
            return version.isEmpty() || version.startsWith("${") ? "unknown" : version;
        } catch (IOException e) {
            return "unknown";
        }
    }
}
