package dev.hotspare.fleet.lock;

import dev.hotspare.fleet.lock.spi.Lease;
import dev.hotspare.fleet.lock.spi.LockStore;
import dev.hotspare.spi.StoreUnavailableException;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A store wrapper that can be made unavailable (a partition, or a process that died and renews nothing), and can run a
 * hook just before granting.
 */
public final class ToggleableLockStore implements LockStore {

    private final LockStore delegate;
    volatile boolean down;
    volatile Runnable beforeAcquire = () -> { };

    public ToggleableLockStore(LockStore delegate) {
        this.delegate = delegate;
    }

    /**
     * Cuts the store off (every call throws {@link StoreUnavailableException}) or brings it back.
     *
     * @param down true to cut it off
     */
    public void down(boolean down) {
        this.down = down;
    }

    private void check() {
        if (down) {
            throw new StoreUnavailableException("test store", "switched off");
        }
    }

    @Override
    public Optional<Lease> tryAcquire(String key, Duration ttl) {
        check();
        beforeAcquire.run();
        return delegate.tryAcquire(key, ttl);
    }

    @Override
    public Optional<Lease> renew(Lease lease, Duration ttl) {
        check();
        return delegate.renew(lease, ttl);
    }

    @Override
    public boolean release(Lease lease) {
        check();
        return delegate.release(lease);
    }

    @Override
    public Optional<Lease> inspect(String key) {
        return delegate.inspect(key);
    }

    @Override
    public List<Lease> list(String prefix) {
        return delegate.list(prefix);
    }

    @Override
    public boolean forceRelease(String key) {
        return delegate.forceRelease(key);
    }
}
