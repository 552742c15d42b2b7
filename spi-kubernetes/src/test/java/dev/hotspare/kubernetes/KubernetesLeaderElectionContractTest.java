package dev.hotspare.kubernetes;

import dev.hotspare.rollout.spi.LeaderElection;
import dev.hotspare.testkit.rollout.LeaderElectionContract;
import dev.hotspare.testkit.servers.MockKubernetes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/** The leader election contract on a Lease in the fabric8 mock API server, with short timings. */
class KubernetesLeaderElectionContractTest extends LeaderElectionContract {

    /** Started with the class; checks every request against the RBAC file and stops after the last test. */
    @RegisterExtension
    static final MockKubernetes kube = MockKubernetes.checkingRbac(RbacFile.SHIPPED);
    private static final AtomicInteger ELECTIONS = new AtomicInteger();
    private KubernetesLeaderElection election;

    @AfterEach
    void closeElection() {
        election.close();
    }

    @Override
    protected LeaderElection newElection() {
        election = KubernetesLeaderElection.builder(kube.client, "locks", "leader-" + ELECTIONS.incrementAndGet())
                // A lease and renew deadline no busy machine outlasts between two renewals, so a leader never loses the
                // lease to slowness mid-test (a resigning candidate releases it at once: releaseOnCancel).
                .timing(Duration.ofSeconds(30), Duration.ofSeconds(20), Duration.ofMillis(200)).build();
        return election;
    }
}
