package dev.hotspare.kubernetes;

import dev.hotspare.kubernetes.internal.Kube;
import dev.hotspare.spi.StoreUnavailableException;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * Kubernetes failures in an operator's words, for programs that talk to the API server beside hotspare's adapters
 * (a health check, a start-up probe): an unresolvable host, a refused or timed-out connection, a failed TLS
 * handshake, refused credentials (401) or a missing permission (403), rather than the client's exception chain.
 */
public final class KubernetesErrors {

    private KubernetesErrors() {
    }

    /**
     * One line naming what went wrong.
     *
     * @param e the client's exception
     * @return the cause, in words
     */
    public static String describe(KubernetesClientException e) {
        return Kube.describe(e);
    }

    /**
     * Reads the API server's version, the cheapest authenticated request: a health check.
     *
     * @param client the client to check
     * @throws StoreUnavailableException naming the cause when the server cannot be reached or refuses the client
     */
    public static void check(KubernetesClient client) {
        try {
            client.getKubernetesVersion();
        } catch (KubernetesClientException e) {
            throw new StoreUnavailableException("kubernetes", "read the server version: " + Kube.describe(e), e);
        }
    }
}
