package dev.hotspare.spring;

import dev.hotspare.pool.Member;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.postgres.PostgresClaimStore;
import dev.hotspare.postgres.PostgresSchema;
import dev.hotspare.testkit.servers.TestPostgres;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring Boot application on the embedded PostgreSQL with {@code hotspare.store=postgres}: the starter migrates
 * its own schema in the application's DataSource, and a claim made through the pool bean is a row there.
 */
@SpringBootTest(classes = PostgresPoolSpringBootTest.Application.class,
        properties = {"hotspare.store=postgres", "hotspare.pools.builds.size=2", "hotspare.pools.builds.running-count=2"})
class PostgresPoolSpringBootTest {

    static final String SCHEMA = Contexts.unique("boot_");

    @DynamicPropertySource
    static void schema(DynamicPropertyRegistry registry) {
        registry.add("hotspare.postgres.schema", () -> SCHEMA);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {
        /** The shared embedded server's pool; not closed with the context, other tests use it too. */
        @Bean(destroyMethod = "")
        DataSource dataSource() {
            return TestPostgres.dataSource();
        }
    }

    @Autowired
    @Qualifier("hotspare.pools.builds")
    PoolController builds;

    @Autowired
    DataSource dataSource;

    @Autowired
    CompositeHealthContributor hotspareHealthContributor;

    @Test
    void aClaimIsServedAndKeptInTheStartersSchemaOfTheApplicationsDataSource() throws Exception {
        try (Connection c = dataSource.getConnection();
             PreparedStatement query = c.prepareStatement(
                     "select count(*) from information_schema.tables where table_schema = ? and table_name = ?")) {
            query.setString(1, SCHEMA);
            query.setString(2, PostgresSchema.HISTORY_TABLE);
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                assertThat(rows.getInt(1)).isEqualTo(1);
            }
        }
        ClaimHandle claim = builds.claim("build-42");
        Member member = claim.member().get(30, TimeUnit.SECONDS);
        assertThat(new PostgresClaimStore(dataSource, SCHEMA).find("builds", "build-42"))
                .hasValueSatisfying(stored -> assertThat(stored.assignedMember()).hasValue(member.id()));
        assertThat(((HealthIndicator) hotspareHealthContributor.getContributor("store")).health().getStatus()).isEqualTo(Status.UP);
        builds.release(claim);
        assertThat(new PostgresClaimStore(dataSource, SCHEMA).find("builds", "build-42")).isEmpty();
    }

    @Test
    void twoPhaseClaimsThroughThePoolBeanAreIdempotentPerKey() throws Exception {
        ClaimHandle reserved = builds.reserve("checkout-7f3a", java.time.Duration.ofMinutes(5));
        Member member = reserved.member().get(30, TimeUnit.SECONDS);
        ClaimHandle retried = builds.reserve("checkout-7f3a", java.time.Duration.ofMinutes(5));
        assertThat(retried.name()).isEqualTo(reserved.name());
        assertThat(retried.member().get(30, TimeUnit.SECONDS).id()).isEqualTo(member.id());
        assertThat(builds.confirm("checkout-7f3a")).hasValueSatisfying(r -> {
            assertThat(r.confirmed()).isTrue();
            assertThat(r.claim().assignedMember()).hasValue(member.id());
        });
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> builds.reserve("bad key!", java.time.Duration.ofMinutes(5)))
                .hasMessageContaining("key").hasMessageContaining("bad key!");
        builds.release(reserved);
        assertThat(builds.confirm("checkout-7f3a")).isEmpty();
    }
}
