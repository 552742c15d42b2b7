package dev.hotspare.pool.runtime;

import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.spi.StoreUnavailableException;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A member driver that fails or misbehaves on purpose: release marks that cannot be written, a list that names a
 * member twice, a change made right after a list, and a log of the calls that reached the real driver.
 */
public final class ControllableDriver implements MemberDriver {

    private final MemberDriver delegate;
    /** When set, {@code markReleased} fails as an unreachable backend would. */
    public volatile boolean failReleaseMarks;
    /** When set, {@code list} names every member twice. */
    public volatile boolean listTwice;
    /** When set, runs once right after the next {@code list} has read the members (a change the read cannot see). */
    public volatile Runnable afterNextList;
    /** Calls that reached the real driver, e.g. {@code markReleased m-1}. */
    public final List<String> calls = new CopyOnWriteArrayList<>();

    public ControllableDriver(MemberDriver delegate) {
        this.delegate = delegate;
    }

    @Override
    public Member create(String pool, String templateVersion, DesiredPower power) {
        calls.add("create");
        return delegate.create(pool, templateVersion, power);
    }

    @Override
    public void delete(String pool, String memberId) {
        calls.add("delete " + memberId);
        delegate.delete(pool, memberId);
    }

    @Override
    public void setDesiredPower(String pool, String memberId, DesiredPower power) {
        calls.add("power " + memberId + " " + power);
        delegate.setDesiredPower(pool, memberId, power);
    }

    @Override
    public void assign(String pool, String memberId, String claimName, Instant claimedAt) {
        calls.add("assign " + memberId + " " + claimName);
        delegate.assign(pool, memberId, claimName, claimedAt);
    }

    @Override
    public void markReleased(String pool, String memberId, Instant releasedAt) {
        if (failReleaseMarks) {
            throw new StoreUnavailableException("test driver", "writing the release mark of " + memberId);
        }
        calls.add("markReleased " + memberId);
        delegate.markReleased(pool, memberId, releasedAt);
    }

    @Override
    public void markOrphaned(String pool, String memberId, Optional<Instant> since) {
        calls.add("markOrphaned " + memberId + " " + since.map(Object::toString).orElse("-"));
        delegate.markOrphaned(pool, memberId, since);
    }

    @Override
    public List<Member> list(String pool) {
        List<Member> members = delegate.list(pool);
        Runnable hook = afterNextList;
        if (hook != null) {
            afterNextList = null;
            hook.run();
        }
        if (!listTwice) {
            return members;
        }
        List<Member> twice = new ArrayList<>(members);
        twice.addAll(members);
        return twice;
    }

    @Override
    public Optional<Member> find(String pool, String memberId) {
        return delegate.find(pool, memberId);
    }

    @Override
    public AutoCloseable watch(String pool, MemberListener listener) {
        return delegate.watch(pool, listener);
    }
}
