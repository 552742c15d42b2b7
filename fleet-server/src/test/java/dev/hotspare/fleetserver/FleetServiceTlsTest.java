package dev.hotspare.fleetserver;

import dev.hotspare.fleetserver.FleetServiceSettings.Option;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** HTTPS from PEM files ({@code --tls-cert}, {@code --tls-key}) through Jetty, with a certificate made by keytool. */
class FleetServiceTlsTest {

    private static final String ADMIN = "tls-admin-token-0123456789";

    /** A self-signed EC certificate for 127.0.0.1 and its key, written as PEM files; the key store for the client. */
    private static KeyStore certificate(Path dir) throws Exception {
        Path store = dir.resolve("server.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
                "-ext", "san=ip:127.0.0.1,dns:localhost", "-validity", "2", "-keystore", store.toString(), "-storetype", "PKCS12",
                "-storepass", "changeit", "-keypass", "changeit").redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(keytool.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(keytool.exitValue()).as(output).isZero();
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, "changeit".toCharArray());
        }
        Certificate cert = keys.getCertificate("server");
        Key key = keys.getKey("server", "changeit".toCharArray());
        Base64.Encoder pem = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII));
        Files.writeString(dir.resolve("tls.crt"), "-----BEGIN CERTIFICATE-----\n" + pem.encodeToString(cert.getEncoded())
                + "\n-----END CERTIFICATE-----\n");
        Files.writeString(dir.resolve("tls.key"), "-----BEGIN PRIVATE KEY-----\n" + pem.encodeToString(key.getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("server", cert);
        return trust;
    }

    @Test
    void theServiceSpeaksHttpsWithThePemCertificateAndKey(@TempDir Path dir) throws Exception {
        KeyStore trust = certificate(dir);
        FleetServiceSettings settings = FleetServiceSettings.parse(Map.of(Option.PORT, "0",
                Option.TLS_CERT, dir.resolve("tls.crt").toString(), Option.TLS_KEY, dir.resolve("tls.key").toString()),
                Map.of("HOTSPARE_ADMIN_TOKENS", ADMIN));
        try (FleetService service = settings.open().start()) {
            assertThat(service.scheme()).isEqualTo("https");
            TrustManagerFactory trusted = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trusted.init(trust);
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, trusted.getTrustManagers(), null);
            HttpClient client = HttpClient.newBuilder().sslContext(tls).connectTimeout(Duration.ofSeconds(10)).build();
            String base = "https://127.0.0.1:" + service.port();
            HttpResponse<String> health = client.send(HttpRequest.newBuilder(URI.create(base + "/healthcheck")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);
            HttpResponse<String> anonymous = client.send(HttpRequest.newBuilder(URI.create(base + "/scheduler/pong")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(anonymous.statusCode()).isEqualTo(401);
            HttpResponse<String> admin = client.send(HttpRequest.newBuilder(URI.create(base + "/scheduler/pong"))
                    .header("Authorization", "Bearer " + ADMIN).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(admin.statusCode()).as(admin.body()).isEqualTo(404);
        }
    }

    @Test
    void badPemFilesAreNamedWithWhatIsWrong(@TempDir Path dir) throws Exception {
        Path key = Files.writeString(dir.resolve("pkcs1.key"), "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n");
        Path notACert = Files.writeString(dir.resolve("cert.pem"), "hello\n");
        Map<String, String> env = Map.of("HOTSPARE_ADMIN_TOKENS", ADMIN);
        assertThatThrownBy(() -> FleetServiceSettings.parse(Map.of(Option.TLS_CERT, notACert.toString()), env))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.problems()).extracting(Problem::describe)
                        .containsExactly("--tls-key: bad value '<missing>': --tls-cert and --tls-key go together"));
        assertThatThrownBy(() -> FleetServiceSettings.parse(Map.of(Option.TLS_CERT, notACert.toString(), Option.TLS_KEY, key.toString()), env))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.problems()).extracting(Problem::describe)
                        .containsExactly("--tls-cert: bad value '" + notACert + "': holds no PEM certificate (-----BEGIN CERTIFICATE-----)"));
        certificate(dir);
        assertThatThrownBy(() -> FleetServiceSettings.parse(Map.of(Option.TLS_CERT, dir.resolve("tls.crt").toString(),
                Option.TLS_KEY, key.toString()), env))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.problems()).singleElement()
                        .satisfies(p -> assertThat(p.describe()).startsWith("--tls-key: bad value '" + key + "': holds a PKCS#1")));
    }
}
