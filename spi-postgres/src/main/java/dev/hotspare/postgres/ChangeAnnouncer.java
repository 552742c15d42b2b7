package dev.hotspare.postgres;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;

/**
 * The NOTIFY side of the claim path's changes ({@link PostgresClaimStore#submit}, {@link PostgresClaimStore#submitAll},
 * {@link PostgresClaimStore#assignAll}, {@link PostgresClaimStore#release}, and {@link PostgresClaimStore#reserve}'s new
 * claims): once such a change has committed, its pool
 * is announced on the store's channel from one thread of this store, at most one announcement every
 * {@link #SPACING_NANOS} (5 ms), and the pools of changes committed meanwhile go together in the next one.
 *
 * <p>Why not {@code pg_notify} in the change's own transaction: PostgreSQL lets one notifying transaction commit at a
 * time (it takes a database-wide lock from the notification's pre-commit to the end of its commit), and every
 * notification wakes every listener. At 3,000 claims/s, with a submit, an assignment and a release notifying per
 * claim, the claim path's p99 on a 2-core machine was 94–257 ms steady and 75–92 ms Poisson; with these announcements
 * 30–32 ms and 14–15 ms, and a burst was served at 4,400 claims/s instead of 3,500–3,900 (issue 22). Announcing each
 * change from one thread without the spacing gained nothing: it sent as many notifications. The cost: a watcher hears
 * of a change up to 5 ms later, and a process that dies between a commit and its announcement loses that wake-up;
 * watchers hear of the change when they next read the store (a pool controller's resync period).
 */
final class ChangeAnnouncer {

    private static final Logger LOG = LoggerFactory.getLogger(ChangeAnnouncer.class);
    /** The least time between two announcements of one store: a watcher hears of a change at most this much later. */
    static final long SPACING_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** One notification per pool changed, in one statement (and so one transaction). */
    private static final String ANNOUNCE = "SELECT count(pg_notify(?, pool)) FROM unnest(CAST(? AS text[])) AS changed(pool)";

    private final DataSource dataSource;
    private final String channel;
    private final String store;
    /** Pools changed and not yet announced. */
    private final Set<String> pending = ConcurrentHashMap.newKeySet();
    /** Whether an announcing task is queued or running: at most one is. */
    private final AtomicBoolean scheduled = new AtomicBoolean();
    /** Whether the last announcement failed, so a lasting outage is logged once, not per change. */
    private volatile boolean failing;
    /** One daemon thread, started when first needed and ended after a minute with nothing to announce. */
    private final ThreadPoolExecutor thread;

    ChangeAnnouncer(DataSource dataSource, String channel, String store) {
        this.dataSource = dataSource;
        this.channel = channel;
        this.store = store;
        this.thread = new ThreadPoolExecutor(0, 1, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(), task -> {
            Thread t = new Thread(task, "hotspare-claims-announce-" + channel);
            t.setDaemon(true);
            return t;
        });
    }

    /** Announces {@code pool} soon: a change to it has committed. Never blocks on the database. */
    void announce(String pool) {
        pending.add(pool);
        if (scheduled.compareAndSet(false, true)) {
            thread.execute(this::announcePending);
        }
    }

    /** Announces until nothing is pending; a pool added after the last look schedules this again. */
    private void announcePending() {
        while (true) {
            List<String> pools = new ArrayList<>();
            for (Iterator<String> it = pending.iterator(); it.hasNext(); ) {
                pools.add(it.next());
                it.remove();
            }
            if (pools.isEmpty()) {
                scheduled.set(false);
                // Added after the look above, by a thread that saw this task still scheduled: take it on.
                if (pending.isEmpty() || !scheduled.compareAndSet(false, true)) {
                    return;
                }
                continue;
            }
            try {
                send(pools);
            } catch (Error e) {
                // Not left scheduled with no task running: the next change schedules a new one.
                scheduled.set(false);
                throw e;
            }
            // Changes committed meanwhile wait a moment to go together: one announcement a claim would cost as much as
            // the notifications it replaces, on one connection instead of many.
            LockSupport.parkNanos(SPACING_NANOS);
        }
    }

    private void send(List<String> pools) {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            try (PreparedStatement ps = c.prepareStatement(ANNOUNCE)) {
                ps.setString(1, channel);
                ps.setArray(2, c.createArrayOf("text", pools.toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                }
            }
            if (failing) {
                failing = false;
                LOG.info("{}: announcing claim changes again", store);
            }
        } catch (SQLException | RuntimeException e) {
            // The changes are committed; only the wake-up is lost, and watchers read the store again on their own.
            if (!failing) {
                failing = true;
                LOG.warn("{}: announcing changes to pools {} failed; watchers hear of them when they next read: {}", store,
                        pools, e.toString());
            }
        }
    }
}
