package dev.hotspare.spring.example;

import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The example application of docs/spring-boot.md, with {@code ci-pool.yaml} as its configuration. */
@SpringBootApplication
public class CiPoolApplication {

    /** What the runner printed, for the test to read. */
    public static final List<String> PRINTED = new CopyOnWriteArrayList<>();

    public static void main(String[] args) {
        SpringApplication.run(CiPoolApplication.class, args);
    }

    @Bean
    ApplicationRunner claimOne(@Qualifier("hotspare.pools.ci") PoolController ci) {
        return args -> {
            ClaimHandle claim = ci.claim("pr-1234");                  // returns at once
            PRINTED.add("got " + claim.member().get().id());          // completes when a running member is assigned
            ci.release(claim);                                        // the member is deleted, the pool refills
        };
    }
}
