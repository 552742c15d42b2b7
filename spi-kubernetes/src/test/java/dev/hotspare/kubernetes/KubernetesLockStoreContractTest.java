package dev.hotspare.kubernetes;

import dev.hotspare.spi.LockStore;
import dev.hotspare.testkit.lock.LockStoreContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.time.Duration;

/** The lock contract on Lease objects in the fabric8 mock API server (CRUD mode). */
class KubernetesLockStoreContractTest extends LockStoreContract {

    private static MockKube kube;

    @BeforeAll
    static void startServer() {
        kube = new MockKube();
    }

    @AfterAll
    static void stopServer() {
        RbacCoverage.check(kube.all());
        kube.close();
    }

    @Override
    protected LockStore createStore() {
        return KubernetesLockStore.create(kube.client, "locks");
    }

    /** Lease durations are whole seconds. */
    @Override
    protected Duration ttl() {
        return Duration.ofSeconds(1);
    }
}
