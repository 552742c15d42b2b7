package dev.hotspare.kubernetes;

import dev.hotspare.fleet.lock.spi.LockStore;
import dev.hotspare.testkit.lock.LockStoreContract;
import dev.hotspare.testkit.servers.MockKubernetes;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

/** The lock contract on Lease objects in the fabric8 mock API server (CRUD mode). */
class KubernetesLockStoreContractTest extends LockStoreContract {

    /** Started with the class; checks every request against the RBAC file and stops after the last test. */
    @RegisterExtension
    static final MockKubernetes kube = MockKubernetes.checkingRbac(RbacFile.SHIPPED);

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
