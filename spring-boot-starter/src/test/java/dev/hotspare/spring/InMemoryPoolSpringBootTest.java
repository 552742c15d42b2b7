package dev.hotspare.spring;

import dev.hotspare.pool.Member;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.micrometer.MicrometerKpis;
import dev.hotspare.spring.example.CiPoolApplication;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The documentation's example application, started as Spring Boot starts it (every auto-configuration on the class
 * path, YAML configuration): its runner claims a member of the in-memory pool and prints it (the output is captured
 * from before the context starts), and the test claims another.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(classes = CiPoolApplication.class, properties = "spring.config.name=ci-pool")
class InMemoryPoolSpringBootTest {

    @Autowired
    @Qualifier("hotspare.pools.ci")
    PoolController ci;

    @Autowired
    Map<String, PoolController> pools;

    @Autowired
    MeterRegistry registry;

    @Autowired
    CompositeHealthContributor hotspareHealthContributor;

    @Test
    void theRunnerAndTheTestEachClaimAMemberOfThePoolTheYamlDescribes(CapturedOutput output) throws Exception {
        assertThat(pools).containsOnlyKeys("hotspare.pools.ci");
        assertThat(ci.spec().size()).isEqualTo(3);
        assertThat(ci.spec().runningCount()).isEqualTo(1);
        assertThat(ci.spec().hibernateAfter()).hasValue(Duration.ofHours(2));
        assertThat(output.getOut().lines().filter(l -> l.startsWith("got ")).toList()).singleElement().asString().startsWith("got ci-");

        ClaimHandle claim = ci.claim("pr-5678");
        Member member = claim.member().get(30, TimeUnit.SECONDS);
        assertThat(member.claimName()).hasValue("pr-5678");
        assertThat(member.id()).startsWith("ci-");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(registry.find(MicrometerKpis.CLAIMS_SERVED).tag("pool", "ci").counters().stream()
                        .mapToDouble(c -> c.count()).sum()).isEqualTo(2.0));
        assertThat(hotspareHealthContributor.getContributor("pools")).isNotNull();
        ci.release(claim);
    }
}
