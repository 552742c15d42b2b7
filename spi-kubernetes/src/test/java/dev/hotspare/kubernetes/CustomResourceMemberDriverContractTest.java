package dev.hotspare.kubernetes;

import dev.hotspare.spi.MemberDriver;
import dev.hotspare.testkit.spi.MemberDriverContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

import java.util.concurrent.atomic.AtomicInteger;

/** The member driver contract on ClusterDeployment custom resources in the fabric8 mock API server. */
class CustomResourceMemberDriverContractTest extends MemberDriverContract {

    private static MockKube kube;
    private static final AtomicInteger POOLS = new AtomicInteger();
    private CustomResourceMemberDriver driver;

    @BeforeAll
    static void startServer() {
        kube = new MockKube();
    }

    @AfterAll
    static void stopServer() {
        RbacCoverage.check(kube.all());
        kube.close();
    }

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
