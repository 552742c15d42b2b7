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

    private final java.util.List<CustomResourceMemberDriver> reopened = new java.util.ArrayList<>();

    @AfterEach
    void closeDriver() {
        if (driver != null) {
            driver.close();
        }
        reopened.forEach(CustomResourceMemberDriver::close);
    }

    /** A fresh driver on the same API server: what it reads was written to Kubernetes, not kept in a cache. */
    @Override
    protected MemberDriver reopen(MemberDriver first) {
        CustomResourceMemberDriver again = ClusterDeployments.driver(kube).build();
        reopened.add(again);
        return again;
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
