package dev.hotspare.rollout.spi;

import java.util.Optional;
import java.util.function.Consumer;

/**
 * One leader among candidates (workers, control-plane nodes). The rollout controller uses it to send the
 * services op to the leader's agent; a Kubernetes implementation runs on a {@code Lease}.
 *
 * <p>Contract (checked by {@code LeaderElectionContract} in hotspare-testkit):
 * <ul>
 *   <li>At most one candidate is leading at a time; when candidates exist, one of them eventually leads.</li>
 *   <li>A candidate that closes its {@link Candidacy} stops leading ({@code revoked} is called if it led) and
 *       another candidate is eventually elected.</li>
 *   <li>Observers are told the leader right away and then every change; "no leader" is {@code Optional.empty()}.</li>
 * </ul>
 * Callbacks may run on any thread (with a real backend, the elector's thread) and must not block.
 */
public interface LeaderElection {

    /**
     * Joins the election as {@code identity} (a node or worker name, unique among candidates).
     *
     * @param identity the candidate's name
     * @param listener told when it gains or loses leadership
     * @return the candidacy; close it to resign
     */
    Candidacy campaign(String identity, LeadershipListener listener);

    /**
     * Follows the leader: called with the current leader, then on every change.
     *
     * @param listener receives the leader, empty for none
     * @return the subscription
     */
    Subscription observe(Consumer<Optional<String>> listener);

    /**
     * The leader as currently known.
     *
     * @return its identity, empty for none
     */
    Optional<String> currentLeader();

    /** Told when this candidate gains or loses leadership. */
    interface LeadershipListener {
        /** This candidate now leads. */
        void elected();

        /** This candidate no longer leads. */
        void revoked();
    }

    /** A candidate's participation; closing it resigns (and withdraws). */
    interface Candidacy extends AutoCloseable {
        /**
         * The candidate's identity.
         *
         * @return the name it campaigns under
         */
        String identity();

        /**
         * Whether this candidate leads right now.
         */
        boolean leading();

        @Override
        void close();
    }

    /** Stops observing; closing twice does nothing. */
    @FunctionalInterface
    interface Subscription extends AutoCloseable {
        @Override
        void close();
    }
}
