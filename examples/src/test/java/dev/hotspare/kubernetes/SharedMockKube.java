package dev.hotspare.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;

/**
 * The examples' door to spi-kubernetes's {@link MockKube} (the fabric8 mock API server in CRUD mode), reused
 * through the module's test-jar.
 */
public final class SharedMockKube implements AutoCloseable {

    private final MockKube kube = new MockKube();

    /** A new client of the server under test (the service closes the one it is given). */
    public KubernetesClient newClient() {
        return kube.server.createClient(b -> b.withHttpClientFactory(new JdkHttpClientFactory()));
    }

    /** The test's own client, for playing the kubelet; its requests are left out of the RBAC check. */
    public KubernetesClient fixture() {
        return kube.fixture;
    }

    /** Checks every request the service sent against docs/kubernetes-rbac.yaml. */
    public void checkRbac() {
        RbacCoverage.check(kube.all().stream().filter(r -> !r.fixture()).toList());
    }

    @Override
    public void close() {
        kube.close();
    }
}
