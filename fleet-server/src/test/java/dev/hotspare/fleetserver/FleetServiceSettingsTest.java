package dev.hotspare.fleetserver;

import dev.hotspare.fleetserver.FleetServiceSettings.Option;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Flags over environment variables over defaults; bad values name where they came from. */
class FleetServiceSettingsTest {

    @Test
    void withNothingGivenEverythingIsInMemoryOnLocalhost8080() {
        FleetServiceSettings settings = FleetServiceSettings.parse(Map.of(), Map.of("HOTSPARE_ADMIN_TOKENS", "0123456789abcdef0123"));
        assertThat(settings.bindHost()).isEqualTo("127.0.0.1");
        assertThat(settings.port()).isEqualTo(8080);
        assertThat(settings.redisUri()).isEmpty();
        assertThat(settings.jdbcUrl()).isEmpty();
        assertThat(settings.kubernetes()).isFalse();
        assertThat(settings.describeStores())
                .isEqualTo("schedulers=memory locks=memory room-statuses=memory usage-history=memory rooms=memory ownership=off");
    }

    @Test
    void environmentVariablesApplyAndFlagsWinOverThem() {
        Map<String, String> env = Map.of("HOTSPARE_PORT", "9000", "HOTSPARE_REDIS_URI", "redis://cache:6379/0",
                "HOTSPARE_JDBC_URL", "jdbc:postgresql://db:5432/fleet", "HOTSPARE_JDBC_USER", "fleet", "HOTSPARE_JDBC_PASSWORD", "pw",
                "HOTSPARE_KUBERNETES", "true", "HOTSPARE_INSECURE_NO_AUTH", "true");
        FleetServiceSettings settings = FleetServiceSettings.parse(Map.of(Option.PORT, "9100"), env);
        assertThat(settings.port()).isEqualTo(9100);
        assertThat(settings.redisUri()).contains("redis://cache:6379/0");
        assertThat(settings.jdbcUrl()).contains("jdbc:postgresql://db:5432/fleet");
        assertThat(settings.jdbcUser()).contains("fleet");
        assertThat(settings.jdbcPassword()).isEqualTo(Optional.of("pw"));
        assertThat(settings.kubernetes()).isTrue();
        assertThat(settings.describeStores())
                .isEqualTo("schedulers=postgres locks=redis room-statuses=redis usage-history=redis rooms=kubernetes ownership=on");
    }

    @Test
    void aBadEnvironmentValueNamesTheVariable() {
        assertThatThrownBy(() -> FleetServiceSettings.parse(Map.of(), Map.of("HOTSPARE_PORT", "-1", "HOTSPARE_KUBERNETES", "yes", "HOTSPARE_INSECURE_NO_AUTH", "true")))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.problems())
                        .extracting(p -> p.describe())
                        .containsExactly("HOTSPARE_PORT: bad value '-1': must be an integer in 0..65535",
                                "HOTSPARE_KUBERNETES: bad value 'yes': must be true or false"));
    }

    @Test
    void theAutoscaleIntervalIsMaestrosTenSecondsUnlessGivenAndReachesTheAutoscaler() {
        Map<String, String> noAuth = Map.of("HOTSPARE_INSECURE_NO_AUTH", "true");
        assertThat(FleetServiceSettings.parse(Map.of(), noAuth).autoscaleInterval()).isEqualTo(Duration.ofSeconds(10));
        Map<String, String> env = Map.of("HOTSPARE_INSECURE_NO_AUTH", "true", "HOTSPARE_AUTOSCALE_INTERVAL", "3");
        assertThat(FleetServiceSettings.parse(Map.of(), env).autoscaleInterval()).isEqualTo(Duration.ofSeconds(3));
        FleetServiceSettings flagged = FleetServiceSettings.parse(Map.of(Option.AUTOSCALE_INTERVAL, "2"), env);
        assertThat(flagged.autoscaleInterval()).isEqualTo(Duration.ofSeconds(2));
        try (FleetService service = flagged.open(() -> {
            throw new AssertionError("no Kubernetes client without --kubernetes");
        }, b -> { })) {
            assertThat(service.autoscalePeriod()).isEqualTo(Duration.ofSeconds(2));
        }
        assertThatThrownBy(() -> FleetServiceSettings.parse(Map.of(Option.AUTOSCALE_INTERVAL, "0"), noAuth))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.problems()).extracting(p -> p.describe())
                        .containsExactly("--autoscale-interval: bad value '0': must be an integer in 1..3600"));
        assertThatThrownBy(() -> FleetServiceSettings.parse(Map.of(), Map.of("HOTSPARE_INSECURE_NO_AUTH", "true",
                "HOTSPARE_AUTOSCALE_INTERVAL", "soon")))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.problems()).extracting(p -> p.describe())
                        .containsExactly("HOTSPARE_AUTOSCALE_INTERVAL: bad value 'soon': must be an integer in 1..3600"));
    }

    @Test
    void authenticationIsOnByDefaultAndTokensComeFromTheVariableOrAFileNeverShown() {
        assertThatThrownBy(() -> FleetServiceSettings.parse(Map.of(), Map.of()))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.problems()).extracting(p -> p.describe())
                        .containsExactly("--admin-token-file: bad value '<missing>': authentication is on by default: give admin "
                                + "tokens in a file (--admin-token-file, one per line) or in HOTSPARE_ADMIN_TOKENS (comma-separated), "
                                + "or turn authentication off with --insecure-no-auth"));
        FleetServiceSettings settings = FleetServiceSettings.parse(Map.of(),
                Map.of("HOTSPARE_ADMIN_TOKENS", "first-token-0123456789, second-token-0123456789"));
        assertThat(settings.security().adminTokens()).containsExactly("first-token-0123456789", "second-token-0123456789");
        assertThat(settings.security().insecureNoAuth()).isFalse();
        assertThat(settings.toString()).doesNotContain("first-token").contains("2 redacted");
        assertThatThrownBy(() -> FleetServiceSettings.parse(Map.of(Option.INSECURE_NO_AUTH, "true"),
                Map.of("HOTSPARE_ADMIN_TOKENS", "first-token-0123456789")))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.problems()).extracting(p -> p.describe())
                        .containsExactly("--insecure-no-auth: bad value 'true': contradicts the admin tokens or room-token key also "
                                + "given: turn authentication off, or give tokens, not both"));
        assertThatThrownBy(() -> FleetServiceSettings.parse(Map.of(Option.ADMIN_TOKEN_FILE, "/no/such/tokens"), Map.of()))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.problems()).extracting(p -> p.describe())
                        .containsExactly("--admin-token-file: bad value '/no/such/tokens': no such file"));
        assertThatThrownBy(() -> FleetServiceSettings.parse(Map.of(), Map.of("HOTSPARE_ADMIN_TOKENS", "tiny")))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.problems()).extracting(p -> p.describe())
                        .containsExactly("HOTSPARE_ADMIN_TOKENS: bad value '<redacted, 4 characters>': an admin token must be at least "
                                + "16 characters with no white space"));
    }
}
