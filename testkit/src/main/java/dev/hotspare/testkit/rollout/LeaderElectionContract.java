package dev.hotspare.testkit.rollout;

import dev.hotspare.rollout.spi.LeaderElection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@link LeaderElection} contract; subclass and return a fresh election (for a real backend: a fresh
 * lease name). Elections may take time, so every expectation is awaited up to {@link #electionTimeout()}.
 */
public abstract class LeaderElectionContract {

    /**
     * A fresh election nobody campaigns in yet.
     */
    protected abstract LeaderElection newElection();

    /**
     * How long an election or hand-over may take.
     */
    protected Duration electionTimeout() {
        return Duration.ofSeconds(60);
    }

    private LeaderElection election;
    private final List<LeaderElection.Candidacy> candidacies = new ArrayList<>();

    @BeforeEach
    void createElection() {
        election = newElection();
    }

    @AfterEach
    void resignAll() {
        candidacies.forEach(LeaderElection.Candidacy::close);
    }

    /** Counts elected/revoked callbacks of one candidate. */
    protected static final class Counting implements LeaderElection.LeadershipListener {
        final AtomicInteger elected = new AtomicInteger();
        final AtomicInteger revoked = new AtomicInteger();

        @Override
        public void elected() {
            elected.incrementAndGet();
        }

        @Override
        public void revoked() {
            revoked.incrementAndGet();
        }
    }

    private LeaderElection.Candidacy campaign(String identity, Counting listener) {
        LeaderElection.Candidacy c = election.campaign(identity, listener);
        candidacies.add(c);
        return c;
    }

    @Test
    void aLoneCandidateIsElected() {
        Counting listener = new Counting();
        LeaderElection.Candidacy a = campaign("node-a", listener);
        await().atMost(electionTimeout()).untilAsserted(() -> {
            assertThat(a.leading()).isTrue();
            assertThat(listener.elected).hasValue(1);
            assertThat(election.currentLeader()).contains("node-a");
        });
        assertThat(a.identity()).isEqualTo("node-a");
    }

    @Test
    void exactlyOneOfSeveralCandidatesLeads() {
        List<LeaderElection.Candidacy> all = List.of(campaign("node-a", new Counting()), campaign("node-b", new Counting()),
                campaign("node-c", new Counting()));
        await().atMost(electionTimeout()).untilAsserted(() -> {
            assertThat(all.stream().filter(LeaderElection.Candidacy::leading)).hasSize(1);
            String leader = all.stream().filter(LeaderElection.Candidacy::leading).findFirst().orElseThrow().identity();
            assertThat(election.currentLeader()).contains(leader);
        });
    }

    @Test
    void whenTheLeaderResignsAnotherCandidateTakesOver() {
        Counting la = new Counting();
        Counting lb = new Counting();
        LeaderElection.Candidacy a = campaign("node-a", la);
        await().atMost(electionTimeout()).until(a::leading);
        LeaderElection.Candidacy b = campaign("node-b", lb);
        a.close();
        await().atMost(electionTimeout()).untilAsserted(() -> {
            assertThat(la.revoked).hasValue(1);
            assertThat(b.leading()).isTrue();
            assertThat(lb.elected).hasValue(1);
            assertThat(election.currentLeader()).contains("node-b");
        });
        assertThat(a.leading()).isFalse();
    }

    @Test
    void observersSeeTheLeaderAndEveryChangeIncludingNone() {
        List<Optional<String>> seen = new CopyOnWriteArrayList<>();
        election.observe(seen::add);
        LeaderElection.Candidacy a = campaign("node-a", new Counting());
        await().atMost(electionTimeout()).untilAsserted(() -> assertThat(seen).last().isEqualTo(Optional.of("node-a")));
        a.close();
        await().atMost(electionTimeout()).untilAsserted(() -> assertThat(seen).last().isEqualTo(Optional.<String>empty()));
        assertThat(seen).contains(Optional.of("node-a"));
    }

    @Test
    void aClosedObserverHearsNoMore() {
        List<Optional<String>> seen = new CopyOnWriteArrayList<>();
        LeaderElection.Subscription sub = election.observe(seen::add);
        sub.close();
        int before = seen.size();
        LeaderElection.Candidacy a = campaign("node-a", new Counting());
        await().atMost(electionTimeout()).until(a::leading);
        assertThat(seen).hasSize(before);
    }

    @Test
    void aResignedCandidateNeverLeadsAgain() {
        Counting la = new Counting();
        LeaderElection.Candidacy a = campaign("node-a", la);
        await().atMost(electionTimeout()).until(a::leading);
        a.close();
        a.close();
        LeaderElection.Candidacy b = campaign("node-b", new Counting());
        await().atMost(electionTimeout()).until(b::leading);
        assertThat(a.leading()).isFalse();
        assertThat(la.elected).hasValue(1);
    }
}
