package dev.hotspare.kubernetes;

import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfig.Autoscaling;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.testkit.pool.MemberDriverContract;
import dev.hotspare.testkit.servers.MockKubernetes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/** The member driver contract on room pods in the fabric8 mock API server (CRUD mode). */
class PodMemberDriverContractTest extends MemberDriverContract {

    /** Started with the class; checks every request against the RBAC file and stops after the last test. */
    @RegisterExtension
    static final MockKubernetes kube = MockKubernetes.checkingRbac(RbacFile.SHIPPED);
    private static final AtomicInteger POOLS = new AtomicInteger();
    private PodMemberDriver driver;

    private final java.util.List<PodMemberDriver> reopened = new java.util.ArrayList<>();

    @AfterEach
    void closeDriver() {
        if (driver != null) {
            driver.close();
        }
        reopened.forEach(PodMemberDriver::close);
    }

    /** A fresh driver on the same API server: what it reads was written to Kubernetes, not kept in a cache. */
    @Override
    protected MemberDriver reopen(MemberDriver first) {
        PodMemberDriver again = PodMemberDriver.builder(kube.client,
                (scheduler, version) -> Optional.of(SchedulerConfig.of(scheduler, "game", "rooms:1", Autoscaling.NONE))).build();
        reopened.add(again);
        return again;
    }

    @Override
    protected MemberDriver driver() {
        driver = PodMemberDriver.builder(kube.client,
                (scheduler, version) -> Optional.of(SchedulerConfig.of(scheduler, "game", "rooms:1", Autoscaling.NONE))).build();
        return driver;
    }

    @Override
    protected String freshPool() {
        return "rooms-" + POOLS.incrementAndGet();
    }
}
