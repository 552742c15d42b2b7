package dev.hotspare.postgres;

import dev.hotspare.spi.StoreUnavailableException;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;

/**
 * The LISTEN side of {@link PostgresClaimStore#watch}: while at least one watch is open, one daemon thread
 * holds one connection from the data source, LISTENs on the store's channel and calls the watchers of the
 * pool named in each notification's payload. If the connection breaks it reconnects, then calls every
 * watcher once, because notifications sent while it was gone are lost (watchers re-read the store, so an
 * extra wake-up is harmless and a missed one is not).
 */
final class ClaimNotifications {

    private static final Logger LOG = LoggerFactory.getLogger(ClaimNotifications.class);
    private static final int POLL_MILLIS = 500;
    private static final long RECONNECT_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final DataSource dataSource;
    private final String channel;
    private final String store;
    private final Map<String, List<Runnable>> watchers = new ConcurrentHashMap<>();
    private int open;
    private Thread listener;

    ClaimNotifications(DataSource dataSource, String channel, String store) {
        this.dataSource = dataSource;
        this.channel = channel;
        this.store = store;
    }

    /** Registers {@code onChange} for {@code pool}; returns once the LISTEN is in place. */
    AutoCloseable watch(String pool, Runnable onChange) {
        synchronized (this) {
            if (open == 0) {
                Connection listening;
                try {
                    listening = listen();
                } catch (SQLException e) {
                    throw Jdbc.translate(store, "listening for claim changes", e);
                }
                listener = new Thread(() -> run(listening), "hotspare-claims-listen-" + channel);
                listener.setDaemon(true);
                listener.start();
            }
            open++;
            watchers.computeIfAbsent(pool, p -> new CopyOnWriteArrayList<>()).add(onChange);
        }
        return new AutoCloseable() {
            private boolean closed;

            @Override
            public void close() {
                synchronized (ClaimNotifications.this) {
                    if (closed) {
                        return;
                    }
                    closed = true;
                    watchers.getOrDefault(pool, List.of()).remove(onChange);
                    if (--open == 0) {
                        listener.interrupt();
                        listener = null;
                    }
                }
            }
        };
    }

    private Connection listen() throws SQLException {
        Connection c = dataSource.getConnection();
        try {
            c.setAutoCommit(true);
            try (Statement s = c.createStatement()) {
                // LISTEN takes an identifier, not a parameter; the channel is built from a validated schema name.
                s.execute("LISTEN " + channel);
            }
            return c;
        } catch (SQLException | RuntimeException e) {
            closeQuietly(c);
            throw e;
        }
    }

    private void run(Connection listening) {
        Thread self = Thread.currentThread();
        Connection c = listening;
        while (!self.isInterrupted()) {
            try {
                if (c == null) {
                    c = listen();
                    // Whatever was notified while we were disconnected is lost: wake everyone once.
                    watchers.values().forEach(list -> list.forEach(ClaimNotifications::call));
                }
                PGNotification[] notifications = c.unwrap(PGConnection.class).getNotifications(POLL_MILLIS);
                if (notifications != null) {
                    for (PGNotification n : notifications) {
                        watchers.getOrDefault(n.getParameter(), List.of()).forEach(ClaimNotifications::call);
                    }
                }
            } catch (SQLException | StoreUnavailableException e) {
                if (self.isInterrupted()) {
                    break;
                }
                LOG.warn("{}: listening connection lost, reconnecting: {}", store, e.getMessage());
                closeQuietly(c);
                c = null;
                LockSupport.parkNanos(RECONNECT_NANOS);
            }
        }
        closeQuietly(c);
    }

    private static void call(Runnable watcher) {
        try {
            watcher.run();
        } catch (RuntimeException e) {
            LOG.warn("claim watcher failed", e);
        }
    }

    private static void closeQuietly(Connection c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (SQLException ignored) {
            // Closing a broken connection can fail; there is nothing to release beyond what the pool does.
        }
    }
}
