package dev.hotspare.kubernetes;

import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.testkit.pool.MemberDriverContract;
import dev.hotspare.testkit.servers.MockKubernetes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.concurrent.atomic.AtomicInteger;

/** The member driver contract on ClusterDeployment custom resources in the fabric8 mock API server. */
class CustomResourceMemberDriverContractTest extends MemberDriverContract {

    /** Started with the class; checks every request against the RBAC file and stops after the last test. */
    @RegisterExtension
    static final MockKubernetes kube = MockKubernetes.checkingRbac(RbacFile.SHIPPED);
    private static final AtomicInteger POOLS = new AtomicInteger();
    private CustomResourceMemberDriver driver;

    @AfterEach
    void closeDriver() {
        if (driver != null) {
            driver.close();
        }
    }

    @Override
    protected MemberDriver driver() {
        driver = ClusterDeployments.driver(kube).build();
        return driver;
    }

    @Override
    protected String freshPool() {
        return "clusters-" + POOLS.incrementAndGet();
    }
}
