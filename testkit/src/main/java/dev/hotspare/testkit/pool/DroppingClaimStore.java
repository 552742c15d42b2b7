package dev.hotspare.testkit.pool;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.validation.Problems;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;

/**
 * A claim store whose reads lie the way a lagging replica or a bad query does: each read ({@code live},
 * {@code pending}, {@code find}) leaves out claims at random, and a whole {@code live} read may come back empty.
 * Writes go to the real store untouched. No claim is left out of reads for longer than {@code longestAbsence} at a
 * stretch (measured on {@code clock}): a read after that always shows it. For properties such as "no member whose
 * claim still exists is ever deleted", with a pool whose {@code orphanGracePeriod} is longer than that.
 *
 * <p>Thread-safe; the random choices come from the {@link Random} given, so a seed replays a run.
 */
public final class DroppingClaimStore implements ClaimStore {

    private final ClaimStore delegate;
    private final Random random;
    private final Clock clock;
    private final double dropChance;
    private final double emptyChance;
    private final Duration longestAbsence;
    /** (pool, claim) → since when reads have left it out. */
    private final Map<List<String>, Instant> absentSince = new HashMap<>();

    /**
     * A store in front of {@code delegate} whose reads drop claims as described above.
     *
     * @param delegate       the real store
     * @param random         the source of every random choice
     * @param clock          the clock absences are measured on (the pool's scheduler clock)
     * @param dropChance     chance that a read leaves out a given claim, 0..1
     * @param emptyChance    chance that a {@code live} read lists nothing at all, 0..1
     * @param longestAbsence the longest stretch a claim may be left out of reads
     * @throws dev.hotspare.validation.ValidationException naming a chance outside 0..1 or a negative duration
     */
    public DroppingClaimStore(ClaimStore delegate, Random random, Clock clock, double dropChance, double emptyChance,
                              Duration longestAbsence) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.random = Objects.requireNonNull(random, "random");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.longestAbsence = Objects.requireNonNull(longestAbsence, "longestAbsence");
        new Problems().require(dropChance >= 0 && dropChance <= 1, "dropChance", dropChance, "must be between 0 and 1")
                .require(emptyChance >= 0 && emptyChance <= 1, "emptyChance", emptyChance, "must be between 0 and 1")
                .require(!longestAbsence.isNegative(), "longestAbsence", longestAbsence, "must not be negative")
                .throwIfAny();
        this.dropChance = dropChance;
        this.emptyChance = emptyChance;
    }

    @Override
    public Claim submit(String pool, String claimName, Optional<Duration> lifetime, Instant now) {
        return delegate.submit(pool, claimName, lifetime, now);
    }

    @Override
    public Optional<Claim> find(String pool, String claimName) {
        Optional<Claim> found = delegate.find(pool, claimName);
        synchronized (this) {
            return found.filter(claim -> shows(pool, claim, clock.instant(), random.nextDouble() >= dropChance));
        }
    }

    @Override
    public List<Claim> live(String pool) {
        List<Claim> all = delegate.live(pool);
        Instant now = clock.instant();
        synchronized (this) {
            if (random.nextDouble() < emptyChance && all.stream().allMatch(c -> mayBeLeftOut(pool, c, now))) {
                all.forEach(c -> shows(pool, c, now, false));
                return List.of();
            }
            List<Claim> shown = new ArrayList<>(all.size());
            for (Claim claim : all) {
                if (shows(pool, claim, now, random.nextDouble() >= dropChance)) {
                    shown.add(claim);
                }
            }
            return shown;
        }
    }

    @Override
    public List<Claim> pending(String pool) {
        return live(pool).stream().filter(c -> !c.isAssigned()).toList();
    }

    @Override
    public AssignOutcome assign(String pool, String claimName, String memberId, Instant at) {
        return delegate.assign(pool, claimName, memberId, at);
    }

    @Override
    public boolean markReady(String pool, String claimName, Instant readyAt) {
        return delegate.markReady(pool, claimName, readyAt);
    }

    @Override
    public boolean release(String pool, String claimName) {
        synchronized (this) {
            absentSince.remove(List.of(pool, claimName));
        }
        return delegate.release(pool, claimName);
    }

    @Override
    public AutoCloseable watch(String pool, Runnable onChange) {
        return delegate.watch(pool, onChange);
    }

    /** Whether {@code claim} may be left out of a read at {@code now} without passing the longest absence. */
    private boolean mayBeLeftOut(String pool, Claim claim, Instant now) {
        Instant since = absentSince.get(List.of(pool, claim.name()));
        return since == null ? !longestAbsence.isZero() : Duration.between(since, now).compareTo(longestAbsence) < 0;
    }

    /** Decides whether a read shows {@code claim}, keeping its absence within bounds. Caller holds the lock. */
    private boolean shows(String pool, Claim claim, Instant now, boolean wanted) {
        List<String> key = List.of(pool, claim.name());
        if (wanted || !mayBeLeftOut(pool, claim, now)) {
            absentSince.remove(key);
            return true;
        }
        absentSince.putIfAbsent(key, now);
        return false;
    }
}
