package dev.hotspare.spring;

import tools.jackson.databind.JsonNode;
import dev.hotspare.fleet.RoomProtocol.DeadRoomRules;
import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.json.Documents;
import dev.hotspare.postgres.PostgresSchema;
import dev.hotspare.redis.RedisKeys;
import dev.hotspare.spring.internal.HotspareFailureAnalyzer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.io.ClassPathResource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What IDEs and a failed startup show: the generated configuration metadata, and the failure analysis. */
class ConfigurationMetadataTest {

    private static JsonNode metadata() throws IOException {
        try (InputStream in = new ClassPathResource("META-INF/spring-configuration-metadata.json").getInputStream()) {
            return Documents.jsonReader().readTree(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void everyPropertyIsDescribedAndTheStoreValuesAreHinted() throws IOException {
        JsonNode metadata = metadata();
        List<String> names = new ArrayList<>();
        for (JsonNode property : metadata.get("properties")) {
            names.add(property.get("name").asString());
            assertThat(property.path("description").asString()).as(property.get("name").asString()).isNotBlank();
        }
        assertThat(names).contains("hotspare.store", "hotspare.pools", "hotspare.threads", "hotspare.resync-period", "hotspare.pass-spacing",
                "hotspare.fleet.enabled", "hotspare.postgres.schema", "hotspare.redis.key-prefix",
                "hotspare.kubernetes.members.templates", "management.health.hotspare.enabled");
        List<String> stores = new ArrayList<>();
        for (JsonNode hint : metadata.get("hints")) {
            if (hint.get("name").asString().equals("hotspare.store")) {
                hint.get("values").forEach(v -> stores.add(v.get("value").asString()));
            }
        }
        assertThat(stores).containsExactly("memory", "postgres", "redis", "kubernetes");
    }

    /** The pools' description lists the spec's fields, so an IDE shows them where it cannot complete them. */
    @Test
    void thePoolsDescriptionNamesEveryPoolSpecField() throws IOException {
        String description = "";
        for (JsonNode property : metadata().get("properties")) {
            if (property.get("name").asString().equals("hotspare.pools")) {
                description = property.get("description").asString();
            }
        }
        for (var component : dev.hotspare.pool.PoolSpec.class.getRecordComponents()) {
            if (!component.getName().equals("name")) {
                assertThat(description).contains(component.getName().replaceAll("([A-Z])", "-$1").toLowerCase(java.util.Locale.ROOT));
            }
        }
    }

    @Test
    void defaultsAreTheLibrarysDefaults() {
        HotspareProperties defaults = new HotspareProperties();
        assertThat(defaults.getStore()).isEqualTo(HotspareProperties.Store.MEMORY);
        assertThat(defaults.getFleet().getLockTtl()).isEqualTo(LockManager.DEFAULT_TTL);
        assertThat(defaults.getFleet().getPingTimeout()).isEqualTo(DeadRoomRules.DEFAULT_PING_TIMEOUT);
        assertThat(defaults.getPostgres().getSchema()).isEqualTo(PostgresSchema.DEFAULT_SCHEMA);
        assertThat(defaults.getPostgres().getClaimBatchSize()).isEqualTo(dev.hotspare.postgres.PostgresClaimStore.DEFAULT_BATCH_SIZE);
        assertThat(defaults.getRedis().getKeyPrefix()).isEqualTo(RedisKeys.DEFAULT_PREFIX);
    }

    @Test
    void aFailedStartupIsReportedAsOneLinePerProblemWithoutAStackTrace() {
        FailureAnalysis analysis = new HotspareFailureAnalyzer().analyze(new IllegalStateException("wrapped",
                new HotspareConfigurationException(List.of(
                        dev.hotspare.validation.Problem.of("hotspare.pools.ci.size", "<missing>", "required"),
                        dev.hotspare.validation.Problem.of("hotspare.store", "mongo", "names no store")))));
        assertThat(analysis.getDescription()).isEqualTo("hotspare cannot start with this configuration:" + System.lineSeparator()
                + "    hotspare.pools.ci.size: bad value '<missing>': required" + System.lineSeparator()
                + "    hotspare.store: bad value 'mongo': names no store");
        assertThat(analysis.getAction()).startsWith("Fix the hotspare.* properties named above");
    }
}
