package dev.hotspare.kubernetes;

import dev.hotspare.spi.StoreUnavailableException;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.UnknownHostException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A Kubernetes failure says what it was: a refused connection, an unknown host, refused credentials, a permission. */
class KubernetesErrorsTest {

    @Test
    void aRefusedConnectionToARealPortIsNamedAsSuch() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        Config config = new ConfigBuilder().withMasterUrl("http://127.0.0.1:" + closedPort).withRequestRetryBackoffLimit(0)
                .withConnectionTimeout(5_000).build();
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config)
                .withHttpClientFactory(new JdkHttpClientFactory()).build()) {
            assertThatThrownBy(() -> KubernetesErrors.check(client))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("kubernetes unavailable: read the server version: the connection to the API server was refused");
        }
    }

    @Test
    void eachCauseIsNamedInAnOperatorsWords() {
        assertThat(KubernetesErrors.describe(new KubernetesClientException("Operation failed",
                new UnknownHostException("api.cluster.example: Name or service not known"))))
                .isEqualTo("the API server's host cannot be resolved (api.cluster.example: Name or service not known); "
                        + "check the kubeconfig's server URL and DNS");
        assertThat(KubernetesErrors.describe(new KubernetesClientException("Operation failed", new ConnectException("refused"))))
                .startsWith("the connection to the API server was refused");
        assertThat(KubernetesErrors.describe(new KubernetesClientException("Unauthorized", 401, new StatusBuilder().build())))
                .startsWith("401 Unauthorized: the API server refused the credentials");
        assertThat(KubernetesErrors.describe(new KubernetesClientException("Forbidden", 403, new StatusBuilder()
                .withMessage("pods is forbidden: User \"system:serviceaccount:games:hotspare\" cannot create resource \"pods\"")
                .build())))
                .isEqualTo("403 Forbidden: the service account lacks a permission: pods is forbidden: User "
                        + "\"system:serviceaccount:games:hotspare\" cannot create resource \"pods\" (docs/kubernetes.md lists the RBAC rules)");
        assertThat(KubernetesErrors.describe(new KubernetesClientException("Gone", 503, new StatusBuilder().withMessage("etcd down").build())))
                .isEqualTo("503 from the API server: etcd down");
    }
}
