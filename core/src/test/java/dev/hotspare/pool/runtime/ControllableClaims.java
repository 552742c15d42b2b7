package dev.hotspare.pool.runtime;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.ClaimRequest;
import dev.hotspare.pool.spi.ClaimStore;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A claim store that tells lies on purpose: it can hide claims from {@code live} (as a lagging replica or a bad
 * query would), answer {@code live} with nothing at all, and hide from {@code find} too. Everything else goes to
 * the real store.
 */
public final class ControllableClaims implements ClaimStore {

    private final ClaimStore delegate;
    /** Claim names left out of {@code live}. */
    public final Set<String> hiddenFromLive = ConcurrentHashMap.newKeySet();
    /** Claim names {@code find} says do not exist. */
    public final Set<String> hiddenFromFind = ConcurrentHashMap.newKeySet();
    /** When set, {@code live} answers an empty list. */
    public volatile boolean emptyLive;
    /** Runs before each {@code assign} reaches the real store (e.g. to end the claim in between). */
    public volatile Consumer<String> beforeAssign = name -> { };
    /** Runs before each {@code release} reaches the real store. */
    public volatile Consumer<String> beforeRelease = name -> { };
    /** Runs before each {@code submit} reaches the real store (e.g. to hold it, or to throw). */
    public volatile Consumer<String> beforeSubmit = name -> { };
    /** How many times {@code find} was asked. */
    public final AtomicInteger finds = new AtomicInteger();
    /** Runs with the names of each {@code submitAll} before the store submits them one by one. */
    public volatile Consumer<List<String>> beforeSubmitAll = names -> { };

    public ControllableClaims(ClaimStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public Claim submit(String pool, String claimName, Optional<Duration> lifetime, Instant now) {
        beforeSubmit.accept(claimName);
        return delegate.submit(pool, claimName, lifetime, now);
    }

    @Override
    public List<Optional<Claim>> submitAll(String pool, List<ClaimRequest> requests, Instant now) {
        beforeSubmitAll.accept(requests.stream().map(ClaimRequest::name).toList());
        return ClaimStore.super.submitAll(pool, requests, now);
    }

    @Override
    public Optional<Claim> find(String pool, String claimName) {
        finds.incrementAndGet();
        return hiddenFromFind.contains(claimName) ? Optional.empty() : delegate.find(pool, claimName);
    }

    @Override
    public List<Claim> live(String pool) {
        if (emptyLive) {
            return List.of();
        }
        return delegate.live(pool).stream().filter(c -> !hiddenFromLive.contains(c.name())).toList();
    }

    @Override
    public AssignOutcome assign(String pool, String claimName, String memberId, Instant at) {
        beforeAssign.accept(claimName);
        return delegate.assign(pool, claimName, memberId, at);
    }

    @Override
    public boolean markReady(String pool, String claimName, Instant readyAt) {
        return delegate.markReady(pool, claimName, readyAt);
    }

    @Override
    public boolean release(String pool, String claimName) {
        beforeRelease.accept(claimName);
        return delegate.release(pool, claimName);
    }

    @Override
    public AutoCloseable watch(String pool, Runnable onChange) {
        return delegate.watch(pool, onChange);
    }
}
