package dev.hotspare.memory;

import dev.hotspare.rollout.spi.LeaderElection;
import dev.hotspare.validation.Names;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * In-memory {@link LeaderElection}: the longest-waiting candidate leads; when it resigns the next one in
 * campaign order takes over. Callbacks run synchronously on the thread that caused the change, outside the
 * lock. {@link #resign} lets tests move leadership without closing a candidacy.
 */
public final class MemoryLeaderElection implements LeaderElection {

    private final Map<String, MemoryCandidacy> candidates = new LinkedHashMap<>();
    private final List<Consumer<Optional<String>>> observers = new CopyOnWriteArrayList<>();
    private String leader;

    @Override
    public Candidacy campaign(String identity, LeadershipListener listener) {
        Names.requireDns1123Label("identity", identity);
        MemoryCandidacy c = new MemoryCandidacy(identity, listener);
        synchronized (this) {
            if (candidates.containsKey(identity)) {
                throw new IllegalStateException("identity: '" + identity + "' is already campaigning");
            }
            candidates.put(identity, c);
        }
        reelect();
        return c;
    }

    @Override
    public Subscription observe(Consumer<Optional<String>> listener) {
        observers.add(listener);
        listener.accept(currentLeader());
        return () -> observers.remove(listener);
    }

    @Override
    public synchronized Optional<String> currentLeader() {
        return Optional.ofNullable(leader);
    }

    /** Makes the current leader step down and go to the back of the queue (it stays a candidate). */
    public void resign() {
        synchronized (this) {
            if (leader == null) {
                return;
            }
            MemoryCandidacy c = candidates.remove(leader);
            candidates.put(leader, c);
        }
        reelect(true);
    }

    private void reelect() {
        reelect(false);
    }

    private void reelect(boolean forceChange) {
        MemoryCandidacy revoked = null;
        MemoryCandidacy elected = null;
        String next;
        synchronized (this) {
            String current = leader;
            boolean currentValid = current != null && candidates.containsKey(current) && !forceChange;
            next = currentValid ? current : candidates.keySet().stream().findFirst().orElse(null);
            if (java.util.Objects.equals(next, current)) {
                return;
            }
            if (current != null) {
                revoked = candidates.get(current);
                if (revoked == null) {
                    revoked = departed.remove(current);
                }
            }
            leader = next;
            elected = next == null ? null : candidates.get(next);
        }
        if (revoked != null) {
            revoked.listener.revoked();
        }
        if (elected != null) {
            elected.listener.elected();
        }
        for (Consumer<Optional<String>> o : new ArrayList<>(observers)) {
            o.accept(Optional.ofNullable(next));
        }
    }

    private final Map<String, MemoryCandidacy> departed = new LinkedHashMap<>();

    private final class MemoryCandidacy implements Candidacy {
        private final String identity;
        private final LeadershipListener listener;

        private MemoryCandidacy(String identity, LeadershipListener listener) {
            this.identity = identity;
            this.listener = listener;
        }

        @Override
        public String identity() {
            return identity;
        }

        @Override
        public boolean leading() {
            synchronized (MemoryLeaderElection.this) {
                return identity.equals(leader) && candidates.get(identity) == this;
            }
        }

        @Override
        public void close() {
            synchronized (MemoryLeaderElection.this) {
                if (candidates.get(identity) != this) {
                    return;
                }
                candidates.remove(identity);
                if (identity.equals(leader)) {
                    departed.put(identity, this);
                }
            }
            reelect();
        }
    }
}
