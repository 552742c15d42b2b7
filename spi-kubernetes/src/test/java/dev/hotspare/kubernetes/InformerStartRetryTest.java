package dev.hotspare.kubernetes;

import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.spi.StoreUnavailableException;
import dev.hotspare.testkit.servers.MockKubernetes;
import dev.hotspare.validation.ValidationException;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A pool's first list-and-watch that fails is tried once more on a fresh informer before calls fail: one lost
 * answer does not fail the caller, a server that keeps failing does, naming the attempts and the cause.
 */
class InformerStartRetryTest {

    @RegisterExtension
    static final MockKubernetes kube = new MockKubernetes();

    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : opened) {
            c.close();
        }
    }

    /** Sends the first {@code failures} list requests of {@code pool} to a path the server answers with 500. */
    private CustomResourceMemberDriver driverWhoseFirstListsFail(String pool, int failures, AtomicInteger failed) {
        kube.server.expect().get().withPath("/broken").andReturn(500, "{}").always();
        Interceptor failing = new Interceptor() {
            @Override
            public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
                String uri = URLDecoder.decode(request.uri().toString(), StandardCharsets.UTF_8);
                boolean listOfPool = request.method().equals("GET") && uri.contains("/clusterdeployments?")
                        && uri.contains("pool=" + pool) && !uri.contains("watch=true");
                if (listOfPool && failed.getAndIncrement() < failures) {
                    builder.uri(URI.create(kube.client.getMasterUrl().toString().replaceAll("/$", "") + "/broken"));
                }
            }
        };
        ClusterDeployments.driver(kube);
        KubernetesClient client = kube.server.createClient(b -> b.withHttpClientFactory(new JdkHttpClientFactory())
                .withHttpClientBuilderConsumer(h -> h.addOrReplaceInterceptor("fail-first-lists", failing))
                .editOrNewConfig().withRequestRetryBackoffLimit(0).endConfig());
        opened.add(client);
        CustomResourceMemberDriver driver = CustomResourceMemberDriver.builder(client, ClusterDeployments.CONTEXT,
                ClusterDeployments.NAMESPACE).template("v1", ClusterDeployments.template()).build();
        opened.add(driver);
        return driver;
    }

    @Test
    void aFirstListThatFailsIsTriedOnceMoreAndTheCallSucceeds() {
        AtomicInteger lists = new AtomicInteger();
        CustomResourceMemberDriver driver = driverWhoseFirstListsFail("flaky", 1, lists);

        Member created = driver.create("flaky", "v1", DesiredPower.HIBERNATING);

        assertThat(lists).as("list requests of the pool: the failed one and the retry").hasValue(2);
        assertThat(driver.list("flaky")).extracting(Member::id).contains(created.id());
    }

    @Test
    void aPoolWhoseListKeepsFailingIsUnavailableNamingTheAttemptsAndTheCause() {
        AtomicInteger lists = new AtomicInteger();
        CustomResourceMemberDriver driver = driverWhoseFirstListsFail("down", Integer.MAX_VALUE, lists);

        assertThatThrownBy(() -> driver.create("down", "v1", DesiredPower.HIBERNATING))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("could not list and watch pool down in 2 attempts")
                .hasMessageContaining("500");
        assertThat(lists).hasValue(AbstractKubernetesMemberDriver.START_ATTEMPTS);
    }

    @Test
    void aTimeoutOrPeriodThatCannotWorkIsRefusedNamingIt() {
        CustomResourceMemberDriver.Builder builder = ClusterDeployments.driver(kube);
        assertThatThrownBy(() -> builder.syncTimeout(Duration.ZERO)).isInstanceOf(ValidationException.class)
                .hasMessageContaining("syncTimeout: bad value 'PT0S': must be positive");
        assertThatThrownBy(() -> builder.resyncPeriod(Duration.ofSeconds(-1))).isInstanceOf(ValidationException.class)
                .hasMessageContaining("resyncPeriod: bad value 'PT-1S': must not be negative");
    }
}
