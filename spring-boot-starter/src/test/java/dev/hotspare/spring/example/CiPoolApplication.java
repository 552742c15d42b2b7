package dev.hotspare.spring.example;

import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * The example application of docs/spring-boot.md, with {@code ci-pool.yaml} as its configuration; the region
 * below is the doc's snippet, line for line ({@code DocSnippetsTest} in examples checks it).
 */
// snippet: docs/spring-boot.md
@SpringBootApplication
public class CiPoolApplication {
    public static void main(String[] args) { SpringApplication.run(CiPoolApplication.class, args); }

    @Bean
    ApplicationRunner claimOne(@Qualifier("hotspare.pools.ci") PoolController ci) {
        return args -> {
            ClaimHandle claim = ci.claim("pr-1234");                  // returns at once
            System.out.println("got " + claim.member().get().id());   // completes when a running member is assigned
            ci.release(claim);                                        // the member is deleted, the pool refills
        };
    }
}
// end snippet
