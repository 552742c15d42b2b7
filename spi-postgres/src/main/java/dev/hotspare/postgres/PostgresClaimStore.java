package dev.hotspare.postgres;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Claim.ClaimClass;
import dev.hotspare.pool.Claim.ClaimOutcome;
import dev.hotspare.pool.Claim.Reservation;
import dev.hotspare.pool.ClaimRequest;
import dev.hotspare.pool.PoolPlanner;
import dev.hotspare.pool.sizing.SizingHistory;
import dev.hotspare.pool.sizing.SizingHistory.ClaimWait;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.ClaimStore.ClaimExistsException;
import dev.hotspare.spi.StoreUnavailableException;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * {@link ClaimStore} on PostgreSQL: claims survive the process and are shared by every controller and
 * claimer that uses the same database.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>One member, one claim</b> — enforced by the database, not by this class: the unique constraint
 *       {@code claims_one_claim_per_member (pool, member_id)} makes a second live claim on a member impossible
 *       whatever the interleaving of processes. {@link #assign} (the SPI's compare-and-set) reports the
 *       violation as {@link AssignOutcome#MEMBER_TAKEN}.</li>
 *   <li><b>Store-side FIFO</b> — {@link #assignOldest} gives the oldest pending claim the oldest free member
 *       in one statement ({@code SELECT ... FOR UPDATE SKIP LOCKED} on both), so many claimers can assign
 *       concurrently without waiting on each other's rows. Members take part once {@link #offerMember offered};
 *       an offered member's row is deleted when any path gives it a claim (a member serves one claim; offer it
 *       again if your pool reuses members after release).</li>
 *   <li><b>Wake-ups</b> — every change a watcher must hear of sends {@code NOTIFY} on channel {@code <schema>_claims}
 *       with the pool as payload, only once committed: a controller wakes when a claim arrives, is served or ends,
 *       or a member becomes free. {@link #watch} LISTENs on one connection while any watch is open. The claim
 *       path's changes ({@link #submit}, {@link #submitAll}, {@link #assignAll}, {@link #release}) are announced
 *       after their commit by one thread of this store, at most one announcement every 5 ms, the pools changed
 *       meanwhile together in one statement: PostgreSQL lets one notifying transaction commit at a time and every
 *       notification wakes every listener, and at thousands of claims a second a notification in each claim's own
 *       transactions stalled the claim path (issue 22). A watcher hears of such a change up to 5 ms later; a process
 *       that dies between such a commit and its announcement loses that wake-up, and watchers hear of the change
 *       when they next read the store. {@link #assign}, {@link #markReady}, {@link #releasePending},
 *       {@link #releaseExpired}, {@link #offerMember} and the end of lapsed reservations notify in their own
 *       transaction; {@link #reserve}, a submit, is announced after its commit too. {@link #assignOldest} does not notify: its caller has the result, and a transaction that
 *       notifies takes PostgreSQL's global notification lock at commit, which would serialise the claimers
 *       (measured: about a quarter of FIFO throughput).</li>
 *   <li><b>Batches</b> (schema version 8) — {@link #assignAll} writes a pool controller's assignments in one round
 *       trip per batch, ready at once; {@link #submitAll} submits the claims that arrived together in one statement;
 *       {@link #assignOldest(String, Instant, Duration, int)} is the store-side FIFO for up to N claims in one
 *       statement (no {@code NOTIFY}, as above).</li>
 *   <li><b>Incremental reads</b> — {@link #live} reads only what changed since this object's previous read of the
 *       pool (transaction ids on rows, tombstones for deleted claims).</li>
 *   <li><b>Two-phase claims</b> — {@link #reserve}, {@link #confirm}, {@link #findReservation} and
 *       {@link #expireReservations} keep one row per idempotency key in {@code claim_reservations}, deleted with
 *       its claim.</li>
 *   <li>Every claim keeps its created, assigned and ready times ({@code ready_at} since schema version 2).</li>
 *   <li>Released claims are deleted. Releases that arrive together from many threads of one store are deleted
 *       together, in one transaction and one round trip, in (pool, name) order; a release that meets no other goes
 *       alone, at once ({@link #release}).</li>
 * </ul>
 *
 * <p>Why store-side FIFO is a PostgreSQL method and not part of the {@link ClaimStore} SPI: in the core model
 * member readiness belongs to the {@code MemberDriver} and the pure {@code PoolPlanner} already pairs claims
 * and members oldest-first, applying pairs through {@link #assign}. Putting members into the SPI would make
 * every claim store keep a second copy of member state; only a shared database needs the short-cut, to let
 * many claimers assign without a planner round trip.
 *
 * <p>Run {@link PostgresSchema#migrate} first. Thread-safe. Instants and lifetimes are stored with microsecond
 * (instants) and nanosecond (lifetimes) precision. Throws {@link dev.hotspare.spi.StoreUnavailableException}
 * while the database cannot answer — the outcome of a write in flight at that moment is unknown; retry
 * idempotently (a resubmitted name fails with {@link ClaimExistsException} if the first submit committed).
 */
public final class PostgresClaimStore implements ClaimStore {

    private static final String STORE = "postgres claim store";
    private static final String CLAIM_COLUMNS = "name, created_at, lifetime_seconds, lifetime_nanos, member_id, assigned_at, ready_at, "
            + "class_name, class_priority, deadline, outcome";
    private static final int ASSIGN_ATTEMPTS = 5;

    /** Every statement this store runs, over one schema. */
    private record Sql(String submit, String submitAll, String find, String live, String pending, String lockClaim, String lockMember,
                       String setMember, String takeMember, String notifyPool, String release, String assignOldest,
                       String offer, String withdraw, String freeMembers, String releaseExpired, String repairMember,
                       String markReady, String releasePending, String liveFull, String liveDelta,
                       String pruneTombstones, String assignAll, String assignOne, String lockReservation, String findReservation,
                       String insertReservation, String deleteClaim, String confirm, String expireReservations,
                       String historySince, String historyArrivals, String historyStart, String historyTrim) {
        static Sql in(String schema) {
            String c = schema + ".claims";
            String h = schema + ".claim_history";
            String m = schema + ".pool_members";
            String r = schema + ".claim_reservations";
            String fifo = " ORDER BY created_at, name COLLATE \"C\"";
            // The lifetime's end: whole seconds plus the nanoseconds rounded down to PostgreSQL's microseconds.
            String end = "assigned_at + lifetime_seconds * interval '1 second' + (lifetime_nanos / 1000) * interval '1 microsecond'";
            return new Sql(
                    "WITH inserted AS (INSERT INTO " + c + " (pool, name, created_at, lifetime_seconds, lifetime_nanos, "
                            + "class_name, class_priority, deadline) "
                            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (pool, name) DO NOTHING RETURNING pool, name, created_at), "
                            // The sizer's history, in the same statement: an arrival is never lost or half-written.
                            + "kept AS (INSERT INTO " + h + " (pool, name, created_at) SELECT pool, name, created_at FROM inserted "
                            + "ON CONFLICT DO NOTHING) "
                            + "SELECT pool FROM inserted",
                    submitAll(c, h),
                    "SELECT " + CLAIM_COLUMNS + " FROM " + c + " WHERE pool = ? AND name = ?",
                    "SELECT " + CLAIM_COLUMNS + " FROM " + c + " WHERE pool = ?" + fifo,
                    "SELECT " + CLAIM_COLUMNS + " FROM " + c + " WHERE pool = ? AND member_id IS NULL" + fifo,
                    "SELECT id, member_id FROM " + c + " WHERE pool = ? AND name = ? FOR UPDATE",
                    "SELECT member_id FROM " + m + " WHERE pool = ? AND member_id = ? FOR UPDATE",
                    "UPDATE " + c + " SET member_id = ?, assigned_at = ?, outcome = CAST(? AS text) WHERE id = ?",
                    "DELETE FROM " + m + " WHERE pool = ? AND member_id = ?",
                    "SELECT pg_notify(?, ?)",
                    "DELETE FROM " + c + " WHERE pool = ? AND name = ?",
                    assignBatch(c, m),
                    // A member a live claim already holds is not free: it is not offered.
                    "WITH offered AS (INSERT INTO " + m + " (pool, member_id, ready_since) "
                            + "SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM " + c + " WHERE pool = ? AND member_id = ?) "
                            + "ON CONFLICT (pool, member_id) DO NOTHING RETURNING pool) "
                            + "SELECT pg_notify(?, pool) FROM offered",
                    "DELETE FROM " + m + " WHERE pool = ? AND member_id = ?",
                    "SELECT member_id FROM " + m + " WHERE pool = ? ORDER BY ready_since, member_id COLLATE \"C\"",
                    "WITH gone AS (DELETE FROM " + c + " WHERE pool = ? AND lifetime_seconds IS NOT NULL "
                            + "AND assigned_at IS NOT NULL AND " + end + " <= ? RETURNING pool, name) "
                            + "SELECT name, pg_notify(?, pool) FROM gone ORDER BY name COLLATE \"C\"",
                    // A member offered while another path gave it a claim: it is not free, drop its row.
                    "DELETE FROM " + m + " pm USING " + c + " cl "
                            + "WHERE pm.pool = ? AND cl.pool = pm.pool AND cl.member_id = pm.member_id",
                    // Only an assigned claim, only once, never before its assignment.
                    "WITH readied AS (UPDATE " + c + " SET ready_at = ? WHERE pool = ? AND name = ? AND member_id IS NOT NULL "
                            + "AND ready_at IS NULL AND assigned_at <= ? RETURNING pool, name, created_at, ready_at), "
                            + "waited AS (UPDATE " + h + " hs SET ready_at = r.ready_at FROM readied r WHERE hs.pool = r.pool "
                            + "AND hs.name = r.name AND hs.created_at = r.created_at AND hs.ready_at IS NULL AND r.ready_at >= r.created_at) "
                            + "SELECT pg_notify(?, pool) FROM readied",
                    "WITH gone AS (DELETE FROM " + c + " WHERE pool = ? AND name = ? AND member_id IS NULL RETURNING pool) "
                            + "SELECT pg_notify(?, pool) FROM gone",
                    // Everything, with the oldest transaction this snapshot cannot see: the next delta starts there.
                    "SELECT txid_snapshot_xmin(txid_current_snapshot()) AS xmin, d.* FROM (SELECT 1) one LEFT JOIN LATERAL "
                            + "(SELECT true AS present, " + CLAIM_COLUMNS + " FROM " + c + " WHERE pool = ?) d ON true",
                    // Rows and tombstones written by a transaction this reader's last snapshot could not see.
                    "SELECT txid_snapshot_xmin(txid_current_snapshot()) AS xmin, d.* FROM (SELECT 1) one LEFT JOIN LATERAL "
                            + "(SELECT true AS present, " + CLAIM_COLUMNS + " FROM " + c + " WHERE pool = ? AND change_txid >= ? "
                            + "UNION ALL SELECT false, name, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM "
                            + schema + ".claim_tombstones WHERE pool = ? AND change_txid >= ?) d ON true",
                    "DELETE FROM " + schema + ".claim_tombstones WHERE released_at < now() - CAST(? AS interval)",
                    assignAll(c, m, h),
                    assignOne(c, m, h),
                    "SELECT claim_name, expires_at, confirmed_at FROM " + r + " WHERE pool = ? AND idem_key = ? FOR UPDATE",
                    "SELECT r.idem_key, r.expires_at, r.confirmed_at, " + prefixed("cl.", CLAIM_COLUMNS) + " FROM " + r + " r JOIN "
                            + c + " cl ON cl.pool = r.pool AND cl.name = r.claim_name WHERE r.pool = ? AND r.idem_key = ? "
                            + "AND (r.confirmed_at IS NOT NULL OR r.expires_at > ?)",
                    "INSERT INTO " + r + " (pool, idem_key, claim_name, expires_at) VALUES (?, ?, ?, ?)",
                    "WITH gone AS (DELETE FROM " + c + " WHERE pool = ? AND name = ? RETURNING pool) "
                            + "SELECT pg_notify(?, pool) FROM gone",
                    "WITH confirmed AS (UPDATE " + r + " SET confirmed_at = COALESCE(confirmed_at, ?) WHERE pool = ? AND idem_key = ? "
                            + "AND (confirmed_at IS NOT NULL OR expires_at > ?) RETURNING *) "
                            + "SELECT confirmed.idem_key, confirmed.expires_at, confirmed.confirmed_at, " + prefixed("cl.", CLAIM_COLUMNS)
                            + " FROM confirmed JOIN " + c + " cl ON cl.pool = confirmed.pool AND cl.name = confirmed.claim_name",
                    // Locked first, so a confirm in flight either commits before (the row no longer qualifies when
                    // rechecked) or waits and then finds the row gone.
                    "WITH due AS (SELECT pool, idem_key, claim_name, expires_at, confirmed_at FROM " + r
                            + " WHERE pool = ? AND confirmed_at IS NULL AND expires_at <= ? FOR UPDATE SKIP LOCKED), "
                            + "gone AS (DELETE FROM " + c + " cl USING due WHERE cl.pool = due.pool AND cl.name = due.claim_name "
                            + "RETURNING due.idem_key, due.expires_at, due.confirmed_at, " + prefixed("cl.", CLAIM_COLUMNS) + ") "
                            + "SELECT gone.*, pg_notify(?, ?) FROM gone ORDER BY idem_key COLLATE \"C\"",
                    "SELECT since FROM " + h + "_since WHERE pool = ?",
                    "SELECT created_at, ready_at FROM " + h + " WHERE pool = ? AND created_at >= ? ORDER BY created_at",
                    "INSERT INTO " + h + "_since (pool, since) VALUES (?, ?) ON CONFLICT (pool) DO NOTHING",
                    "DELETE FROM " + h + " WHERE pool = ? AND created_at < ?");
        }

        /**
         * Store-side assignment of up to N claims: the first N pending claims in the planner's service order
         * (aging bound and assignment time as parameters) and as many oldest free members, each skipping rows other
         * callers hold, paired k-th with k-th, in one statement.
         */
        private static String assignBatch(String c, String m) {
            // Both rows of each pair are changed through the ctid of the version this statement locked (nobody
            // else can change a row we hold), so neither change repeats an index lookup. The claim is looked up
            // again by its ctid, not just tested for being locked: had a pending claim's row been updated (still
            // pending) by a commit after this statement's snapshot, the lock would be on a version the final
            // UPDATE cannot see, and its member must then stay free instead of being deleted for a claim that is
            // not assigned. This store never updates a pending claim in place; the check keeps that from mattering.
            // Members are only looked for (and locked) once claims are: claim rows first, member rows second, as
            // in assign(), and never more members than claims.
            return "WITH next_claims AS (SELECT claim_row, row_number() OVER (ORDER BY aged DESC, prio DESC, created_at, "
                    + "name COLLATE \"C\") AS k FROM (SELECT ctid AS claim_row, created_at <= ? AS aged, "
                    + "CASE WHEN created_at <= ? THEN 0 ELSE class_priority END AS prio, created_at, name FROM " + c
                    + " WHERE pool = ? AND member_id IS NULL AND (deadline IS NULL OR deadline > ?) "
                    + "ORDER BY 2 DESC, 3 DESC, created_at, name COLLATE \"C\" LIMIT ? FOR UPDATE SKIP LOCKED) locked_claims), "
                    + "free AS (SELECT member_row, member_id, row_number() OVER (ORDER BY ready_since, member_id COLLATE \"C\") AS k "
                    + "FROM (SELECT ctid AS member_row, member_id, ready_since FROM " + m + " WHERE pool = ? "
                    + "ORDER BY ready_since, member_id COLLATE \"C\" LIMIT (SELECT count(*) FROM next_claims) "
                    + "FOR UPDATE SKIP LOCKED) locked_members), "
                    + "pairs AS (SELECT n.claim_row, f.member_row, f.member_id FROM next_claims n JOIN free f ON f.k = n.k "
                    + "WHERE EXISTS (SELECT 1 FROM " + c + " WHERE ctid = n.claim_row)), "
                    + "taken AS (DELETE FROM " + m + " WHERE ctid IN (SELECT member_row FROM pairs) RETURNING member_id) "
                    + "UPDATE " + c + " cl SET member_id = p.member_id, assigned_at = ? FROM pairs p "
                    + "WHERE cl.ctid = p.claim_row AND p.member_id IN (SELECT member_id FROM taken) "
                    + "RETURNING " + prefixed("cl.", CLAIM_COLUMNS);
        }

        /**
         * Claims that arrived together: the requests come as arrays, all created at one time; a name already live
         * (or given twice) is skipped. Answers the names inserted. An insert looks rows up only through the unique
         * index its conflict clause names, so unlike a join its plan cannot scan a pool's claims.
         */
        private static String submitAll(String c, String h) {
            return "WITH inserted AS (INSERT INTO " + c + " (pool, name, created_at, lifetime_seconds, lifetime_nanos, "
                    + "class_name, class_priority, deadline) "
                    + "SELECT CAST(? AS text), r.name, CAST(? AS timestamptz), r.lifetime_seconds, r.lifetime_nanos, "
                    + "r.class_name, r.class_priority, CAST(r.deadline AS timestamptz) "
                    + "FROM unnest(CAST(? AS text[]), CAST(? AS bigint[]), CAST(? AS int[]), CAST(? AS text[]), "
                    + "CAST(? AS int[]), CAST(? AS text[])) WITH ORDINALITY "
                    + "AS r(name, lifetime_seconds, lifetime_nanos, class_name, class_priority, deadline, ord) ORDER BY r.ord "
                    + "ON CONFLICT (pool, name) DO NOTHING RETURNING pool, name, created_at), "
                    + "kept AS (INSERT INTO " + h + " (pool, name, created_at) SELECT pool, name, created_at FROM inserted "
                    + "ON CONFLICT DO NOTHING) "
                    + "SELECT name FROM inserted";
        }

        /**
         * The controller's batch: the pairs come as arrays (claim, member, assignment time, outcome); each pending
         * claim whose member no live claim holds gets it, ready at once (announced after the commit). The
         * main query reads the snapshot before the changes, which tells why a pair was not applied.
         */
        private static String assignAll(String c, String m, String h) {
            return "WITH req AS (SELECT r.claim_name, r.member_id, CAST(r.assigned_at AS timestamptz) AS assigned_at, r.outcome, r.ord "
                    + "FROM unnest(CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[])) "
                    + "WITH ORDINALITY AS r(claim_name, member_id, assigned_at, outcome, ord)), "
                    + "done AS (UPDATE " + c + " cl SET member_id = req.member_id, assigned_at = req.assigned_at, "
                    + "outcome = req.outcome, ready_at = GREATEST(CAST(? AS timestamptz), req.assigned_at) FROM req "
                    + "WHERE cl.pool = ? AND cl.name = req.claim_name AND cl.member_id IS NULL "
                    + "AND NOT EXISTS (SELECT 1 FROM " + c + " o WHERE o.pool = cl.pool AND o.member_id = req.member_id) "
                    + "RETURNING req.ord, req.member_id, cl.pool, cl.name, cl.created_at, cl.ready_at), "
                    // The batch marks its claims ready, so it also records their waits in the sizer's history.
                    + "waited AS (UPDATE " + h + " hs SET ready_at = done.ready_at FROM done WHERE hs.pool = done.pool "
                    + "AND hs.name = done.name AND hs.created_at = done.created_at AND hs.ready_at IS NULL "
                    + "AND done.ready_at >= done.created_at), "
                    + "taken AS (DELETE FROM " + m + " pm USING done WHERE pm.pool = ? AND pm.member_id = done.member_id) "
                    + "SELECT req.ord, done.ord IS NOT NULL AS assigned, cl.name IS NOT NULL AS found, cl.member_id AS held "
                    + "FROM req LEFT JOIN done ON done.ord = req.ord "
                    + "LEFT JOIN " + c + " cl ON cl.pool = ? AND cl.name = req.claim_name ORDER BY req.ord";
        }

        /**
         * The batch of one (a claim handed out at once): the same changes as {@link #assignAll} with plain
         * parameters, so every lookup is by a unique index whatever the tables' statistics say. The array form's
         * generic plan, made while a pool's tables were young, joined the pair against every pending and every live
         * claim of the pool: 1.7 ms of server time for one pair beside 2,000 of each.
         */
        private static String assignOne(String c, String m, String h) {
            return "WITH done AS (UPDATE " + c + " cl SET member_id = ?, assigned_at = ?, outcome = CAST(? AS text), "
                    + "ready_at = GREATEST(CAST(? AS timestamptz), CAST(? AS timestamptz)) "
                    // num_nulls, not IS NULL: the pending claims' partial indexes must not look usable, or a planner
                    // with stale statistics walks every pending claim of the pool to find this one.
                    + "WHERE cl.pool = ? AND cl.name = ? AND num_nulls(cl.member_id) = 1 "
                    + "AND NOT EXISTS (SELECT 1 FROM " + c + " o WHERE o.pool = ? AND o.member_id = ?) "
                    + "RETURNING cl.pool, cl.name, cl.created_at, cl.ready_at, cl.member_id), "
                    + "waited AS (UPDATE " + h + " hs SET ready_at = done.ready_at FROM done WHERE hs.pool = done.pool "
                    + "AND hs.name = done.name AND hs.created_at = done.created_at AND hs.ready_at IS NULL "
                    + "AND done.ready_at >= done.created_at), "
                    + "taken AS (DELETE FROM " + m + " pm USING done WHERE pm.pool = done.pool AND pm.member_id = done.member_id) "
                    + "SELECT (SELECT count(*) FROM done) > 0 AS assigned, cl.name IS NOT NULL AS found, cl.member_id AS held "
                    + "FROM (SELECT 1) one "
                    + "LEFT JOIN " + c + " cl ON cl.pool = ? AND cl.name = ?";
        }

        private static String prefixed(String prefix, String columns) {
            return prefix + String.join(", " + prefix, columns.split(", "));
        }
    }

    /** The history is trimmed once every this many submits of a store (and on each read). */
    static final int HISTORY_TRIM_EVERY = 1024;

    private final DataSource dataSource;
    private final Sql sql;
    private final java.util.concurrent.atomic.AtomicLong submits = new java.util.concurrent.atomic.AtomicLong();
    private final String channel;
    private final ClaimNotifications notifications;
    private final ChangeAnnouncer announcer;
    /** Releases arriving together, deleted together. */
    private final ReleaseBatches releases;
    private final int batchSize;
    private final Map<String, LiveClaims> liveClaims = new ConcurrentHashMap<>();
    private volatile long lastPruneNanos = System.nanoTime();

    /** Seconds a deleted claim's tombstone is kept for incremental readers. */
    static final long TOMBSTONE_SECONDS = 300;
    /** Seconds after which a reader reads a pool's claims whole again instead of incrementally. */
    static final long FULL_READ_AFTER_SECONDS = 120;
    private static final long PRUNE_EVERY_SECONDS = 60;
    /** Default most assignments one {@link #assignAll} statement applies. */
    public static final int DEFAULT_BATCH_SIZE = 500;

    /** A store in schema {@value PostgresSchema#DEFAULT_SCHEMA}. */
    public PostgresClaimStore(DataSource dataSource) {
        this(dataSource, PostgresSchema.DEFAULT_SCHEMA);
    }

    /** A store in {@code schema} (see {@link PostgresSchema#requireValidName}). */
    public PostgresClaimStore(DataSource dataSource, String schema) {
        this(dataSource, schema, DEFAULT_BATCH_SIZE);
    }

    /**
     * A store in {@code schema} whose {@link #assignAll} applies at most {@code batchSize} assignments per statement
     * (larger batches are split). A batch size of 1 applies each assignment in its own transaction followed by its
     * own {@link #markReady}: the path before batches, kept to compare against.
     *
     * @throws ValidationException if {@code batchSize} is not between 1 and 10,000
     */
    public PostgresClaimStore(DataSource dataSource, String schema, int batchSize) {
        if (batchSize < 1 || batchSize > 10_000) {
            throw new ValidationException(Problem.of("batchSize", batchSize, "must be between 1 and 10000"));
        }
        this.batchSize = batchSize;
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.sql = Sql.in(PostgresSchema.requireValidName(schema));
        this.smallBatches = new BatchTexts(sql.assignOne(), SMALL_BATCH);
        this.releaseBatches = new BatchTexts(sql.release(), ReleaseBatches.MOST_PER_ROUND_TRIP);
        this.channel = schema + "_claims";
        this.notifications = new ClaimNotifications(dataSource, channel, STORE);
        this.announcer = new ChangeAnnouncer(dataSource, channel, STORE);
        this.releases = new ReleaseBatches(new ReleaseBatches.Deletes() {
            @Override
            public boolean one(String pool, String claimName) {
                return releaseAlone(pool, claimName);
            }

            @Override
            public List<Boolean> together(List<ReleaseBatches.Release> inOrder) {
                return releaseTogether(inOrder);
            }

            @Override
            public boolean unavailable(RuntimeException failure) {
                return failure instanceof StoreUnavailableException;
            }
        });
    }

    @Override
    public Claim submit(String pool, String claimName, Optional<Duration> lifetime, Instant now) {
        Names.requireDns1123Label("claimName", claimName);
        Objects.requireNonNull(lifetime, "lifetime");
        return submit(pool, new ClaimRequest(claimName, lifetime, ClaimClass.DEFAULT, Optional.empty()), now);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Class and deadline are kept in columns {@code class_name}, {@code class_priority} and {@code deadline}
     * (schema version 6).
     */
    @Override
    public Claim submit(String pool, ClaimRequest request, Instant now) {
        Names.requireDns1123Label("pool", pool);
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(now, "now");
        String claimName = request.name();
        Optional<Duration> lifetime = request.lifetime();
        Claim claim = request.toClaim(now);
        boolean inserted = Jdbc.autoCommit(dataSource, STORE, "submitting claim " + claimName + " of pool " + pool, c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.submit())) {
                Jdbc.bind(ps, pool, claimName, now);
                if (lifetime.isPresent()) {
                    ps.setLong(4, lifetime.get().getSeconds());
                    ps.setInt(5, lifetime.get().getNano());
                } else {
                    ps.setNull(4, Types.BIGINT);
                    ps.setNull(5, Types.INTEGER);
                }
                ps.setString(6, request.claimClass().name());
                ps.setInt(7, request.claimClass().priority());
                if (request.deadline().isPresent()) {
                    ps.setObject(8, Jdbc.toDb(request.deadline().get()));
                } else {
                    ps.setNull(8, Types.TIMESTAMP_WITH_TIMEZONE);
                }
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next();
                }
            }
        });
        if (inserted) {
            announcer.announce(pool);
        }
        countSubmits(pool, inserted ? 1 : 0, now);
        if (!inserted) {
            throw new ClaimExistsException(pool, claimName);
        }
        return claim;
    }

    /**
     * {@inheritDoc}
     *
     * <p>One statement for all of them: the claims and the sizer's history rows; it commits or fails as a whole, and
     * the pool is announced once it has committed.
     */
    @Override
    public List<Optional<Claim>> submitAll(String pool, List<ClaimRequest> requests, Instant now) {
        Names.requireDns1123Label("pool", pool);
        Objects.requireNonNull(requests, "requests");
        Objects.requireNonNull(now, "now");
        if (requests.isEmpty()) {
            return List.of();
        }
        int n = requests.size();
        String[] names = new String[n];
        Long[] seconds = new Long[n];
        Integer[] nanos = new Integer[n];
        String[] classes = new String[n];
        Integer[] priorities = new Integer[n];
        String[] deadlines = new String[n];
        for (int i = 0; i < n; i++) {
            ClaimRequest r = Objects.requireNonNull(requests.get(i), "requests[" + i + "]");
            names[i] = r.name();
            seconds[i] = r.lifetime().map(Duration::getSeconds).orElse(null);
            nanos[i] = r.lifetime().map(Duration::getNano).orElse(null);
            classes[i] = r.claimClass().name();
            priorities[i] = r.claimClass().priority();
            deadlines[i] = r.deadline().map(d -> Jdbc.toDb(d).toString()).orElse(null);
        }
        Set<String> inserted = Jdbc.autoCommit(dataSource, STORE, "submitting " + n + " claims of pool " + pool, c -> {
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.submitAll()), pool, now,
                    c.createArrayOf("text", names), c.createArrayOf("int8", seconds), c.createArrayOf("int4", nanos),
                    c.createArrayOf("text", classes), c.createArrayOf("int4", priorities), c.createArrayOf("text", deadlines));
                 ResultSet rs = ps.executeQuery()) {
                Set<String> out = new HashSet<>();
                while (rs.next()) {
                    out.add(rs.getString("name"));
                }
                return out;
            }
        });
        if (!inserted.isEmpty()) {
            announcer.announce(pool);
        }
        countSubmits(pool, inserted.size(), now);
        List<Optional<Claim>> out = new ArrayList<>(n);
        for (ClaimRequest r : requests) {
            // A name given twice was inserted once, for its first request.
            out.add(inserted.remove(r.name()) ? Optional.of(r.toClaim(now)) : Optional.empty());
        }
        return List.copyOf(out);
    }

    /** Counts {@code inserted} submits: the sizer's history is trimmed each {@value #HISTORY_TRIM_EVERY} of them. */
    private void countSubmits(String pool, int inserted, Instant now) {
        long before = submits.getAndAdd(inserted);
        if (before / HISTORY_TRIM_EVERY != (before + inserted) / HISTORY_TRIM_EVERY) {
            trimHistory(pool, now.minus(SizingHistory.KEPT));
        }
    }

    @Override
    public Optional<Claim> find(String pool, String claimName) {
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(claimName, "claimName");
        return Jdbc.autoCommit(dataSource, STORE, "reading claim " + claimName + " of pool " + pool, c -> {
            List<Claim> found = claims(Jdbc.bind(c.prepareStatement(sql.find()), pool, claimName));
            return found.stream().findFirst();
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>Incremental: the first read of a pool reads every claim; later reads ask only for what changed since
     * (rows and tombstones written by transactions the previous read's snapshot could not see, schema version 8) and
     * apply it to the claims this store object keeps of the pool — so a pass costs what changed, not the pool's
     * size. A read more than {@value #FULL_READ_AFTER_SECONDS} s after the previous one reads everything again
     * (tombstones are kept for {@value #TOMBSTONE_SECONDS} s).
     */
    @Override
    public List<Claim> live(String pool) {
        Objects.requireNonNull(pool, "pool");
        LiveClaims cache = liveClaims.computeIfAbsent(pool, p -> new LiveClaims());
        synchronized (cache) {
            long nowNanos = System.nanoTime();
            boolean full = cache.xmin < 0 || nowNanos - cache.readAtNanos > TimeUnit.SECONDS.toNanos(FULL_READ_AFTER_SECONDS);
            Jdbc.autoCommit(dataSource, STORE, "listing claims of pool " + pool, c -> {
                try (PreparedStatement ps = full ? Jdbc.bind(c.prepareStatement(sql.liveFull()), pool)
                        : Jdbc.bind(c.prepareStatement(sql.liveDelta()), pool, cache.xmin, pool, cache.xmin);
                     ResultSet rs = ps.executeQuery()) {
                    Map<String, Claim> present = new HashMap<>();
                    List<String> gone = new ArrayList<>();
                    long xmin = -1;
                    while (rs.next()) {
                        xmin = rs.getLong("xmin");
                        boolean isPresent = rs.getBoolean("present");
                        if (rs.wasNull()) {
                            continue;
                        }
                        if (isPresent) {
                            Claim claim = decode(rs);
                            present.put(claim.name(), claim);
                        } else {
                            gone.add(rs.getString("name"));
                        }
                    }
                    if (full) {
                        cache.byName.clear();
                    }
                    // One snapshot: a row present in it is live now; a tombstone of a name without a row is gone.
                    gone.forEach(cache.byName::remove);
                    cache.byName.putAll(present);
                    cache.xmin = xmin;
                    cache.readAtNanos = nowNanos;
                }
                return null;
            });
            if (nowNanos - lastPruneNanos > TimeUnit.SECONDS.toNanos(PRUNE_EVERY_SECONDS)) {
                lastPruneNanos = nowNanos;
                Jdbc.autoCommit(dataSource, STORE, "pruning claim tombstones", c -> {
                    try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.pruneTombstones()), TOMBSTONE_SECONDS + " seconds")) {
                        return ps.executeUpdate();
                    }
                });
            }
            List<Claim> out = new ArrayList<>(cache.byName.values());
            out.sort(Claim.TOTAL_ORDER);
            return out;
        }
    }

    /** What this store object knows of one pool's live claims, and where the next incremental read starts. */
    private static final class LiveClaims {
        final Map<String, Claim> byName = new HashMap<>();
        /** The previous read's snapshot xmin; -1 before the first read. */
        long xmin = -1;
        long readAtNanos;
    }

    @Override
    public List<Claim> pending(String pool) {
        Objects.requireNonNull(pool, "pool");
        return Jdbc.autoCommit(dataSource, STORE, "listing pending claims of pool " + pool,
                c -> claims(Jdbc.bind(c.prepareStatement(sql.pending()), pool)));
    }

    /**
     * {@inheritDoc}
     *
     * <p>One transaction: lock the claim row, lock the member's row if it was {@link #offerMember offered},
     * then set the member on the claim — which the unique constraint refuses if another live claim holds it.
     */
    @Override
    public AssignOutcome assign(String pool, String claimName, String memberId, Instant at) {
        return assign(pool, claimName, memberId, at, Optional.empty());
    }

    /**
     * {@inheritDoc}
     *
     * <p>The outcome is kept in column {@code outcome} (schema version 6), written with the assignment.
     */
    @Override
    public AssignOutcome assign(String pool, String claimName, String memberId, Instant at, Optional<ClaimOutcome> outcome) {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(claimName, "claimName");
        Objects.requireNonNull(memberId, "memberId");
        Objects.requireNonNull(at, "at");
        return Jdbc.inTransaction(dataSource, STORE, "assigning member " + memberId + " to claim " + claimName, c -> {
            long claimId;
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.lockClaim()), pool, claimName); ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return AssignOutcome.CLAIM_NOT_FOUND;
                }
                String held = rs.getString("member_id");
                if (held != null) {
                    return held.equals(memberId) ? AssignOutcome.ALREADY_ASSIGNED : AssignOutcome.CLAIM_ALREADY_ASSIGNED;
                }
                claimId = rs.getLong("id");
            }
            // Same lock order as assignOldest (claim row, then member row), so the two never deadlock.
            // Waits if a concurrent assignOldest holds the row; it is gone afterwards if that call took it.
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.lockMember()), pool, memberId); ResultSet rs = ps.executeQuery()) {
                rs.next();
            }
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.setMember()), memberId, at,
                    outcome.map(Enum::name).orElse(null), claimId)) {
                ps.executeUpdate();
            } catch (SQLException e) {
                if (Jdbc.isUniqueViolation(e)) {
                    c.rollback();
                    return AssignOutcome.MEMBER_TAKEN;
                }
                throw e;
            }
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.takeMember()), pool, memberId)) {
                ps.executeUpdate();
            }
            notify(c, pool);
            return AssignOutcome.ASSIGNED;
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>One statement: sets {@code ready_at} on the assigned claim if it has none yet and the time is not before
     * its assignment, and notifies in the same transaction.
     */
    @Override
    public boolean markReady(String pool, String claimName, Instant readyAt) {
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(claimName, "claimName");
        Objects.requireNonNull(readyAt, "readyAt");
        return Jdbc.autoCommit(dataSource, STORE, "marking claim " + claimName + " of pool " + pool + " ready", c -> {
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.markReady()), readyAt, pool, claimName, readyAt, channel);
                 ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>From table {@code claim_history} (schema version 9): a row per submitted claim, written by the statement
     * that submits it, its ready time set by {@link #markReady}; rows older than {@link SizingHistory#KEPT} are
     * deleted here and every {@value #HISTORY_TRIM_EVERY} submits. Empty until a controller recorded its start
     * ({@link #recordSizingStart}).
     */
    @Override
    public Optional<SizingHistory> sizingHistory(String pool, Instant from) {
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(from, "from");
        trimHistory(pool, from);
        return Jdbc.inTransaction(dataSource, STORE, "reading the sizer's history of pool " + pool, c -> {
            Instant since;
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.historySince()), pool);
                 ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.<SizingHistory>empty();
                }
                since = Jdbc.instant(rs, "since");
            }
            List<Instant> arrivals = new ArrayList<>();
            List<ClaimWait> waits = new ArrayList<>();
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.historyArrivals()), pool, from);
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Instant created = Jdbc.instant(rs, "created_at");
                    arrivals.add(created);
                    Optional<Instant> ready = Jdbc.optionalInstant(rs, "ready_at");
                    ready.ifPresent(r -> waits.add(new ClaimWait(created, Duration.between(created, r))));
                }
            }
            return Optional.of(new SizingHistory(Optional.of(since), arrivals, waits));
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>In table {@code claim_history_since} (schema version 9); an existing row stays.
     */
    @Override
    public void recordSizingStart(String pool, Instant since) {
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(since, "since");
        Jdbc.autoCommit(dataSource, STORE, "recording the sizer's start on pool " + pool, c -> {
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.historyStart()), pool, since)) {
                return ps.executeUpdate();
            }
        });
    }

    /** Deletes the pool's history rows older than {@code before}: a sizer never reads them. */
    private void trimHistory(String pool, Instant before) {
        Jdbc.autoCommit(dataSource, STORE, "trimming the sizer's history of pool " + pool, c -> {
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.historyTrim()), pool, before)) {
                return ps.executeUpdate();
            }
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>Releases that arrive together from many threads of this store are deleted together, in one transaction and one
     * round trip ({@link ReleaseBatches}); a release that meets no other goes alone, at once. Announced after the commit.
     */
    @Override
    public boolean release(String pool, String claimName) {
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(claimName, "claimName");
        boolean released = releases.release(pool, claimName);
        if (released) {
            announcer.announce(pool);
        }
        return released;
    }

    /** Round trips this store's releases have made (for tests and benchmarks). */
    long releaseRoundTrips() {
        return releases.roundTrips();
    }

    /** Releases waiting for the one in flight (for tests). */
    int releasesQueued() {
        return releases.queued();
    }

    /** One release, one statement. */
    private boolean releaseAlone(String pool, String claimName) {
        return Jdbc.autoCommit(dataSource, STORE, "releasing claim " + claimName + " of pool " + pool, c -> {
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.release()), pool, claimName)) {
                return ps.executeUpdate() > 0;
            }
        });
    }

    /** The text of {@code k} release statements sent together in one transaction, by {@code k}. */
    private final BatchTexts releaseBatches;

    /**
     * Releases deleted in order, one statement each, all between {@code BEGIN} and {@code COMMIT} in one round trip
     * (as {@link #assignSmallBatchOnce} sends its pairs: each lookup is by the unique index whatever the statistics).
     */
    private List<Boolean> releaseTogether(List<ReleaseBatches.Release> inOrder) {
        int k = inOrder.size();
        // ReleaseBatches sends a lone release through releaseAlone: k is at least 2, so BEGIN and COMMIT are there.
        String statement = releaseBatches.of(k);
        return Jdbc.autoCommit(dataSource, STORE, "releasing " + k + " claims", c -> {
            Object[] values = new Object[2 * k];
            for (int i = 0; i < k; i++) {
                values[2 * i] = inOrder.get(i).pool;
                values[2 * i + 1] = inOrder.get(i).claimName;
            }
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(statement), values)) {
                List<Boolean> out = new ArrayList<>(k);
                // BEGIN and COMMIT answer update counts too: the k in between are the deletes, in order.
                List<Integer> counts = new ArrayList<>(k + 2);
                for (boolean isRows = ps.execute(); isRows || ps.getUpdateCount() != -1; isRows = ps.getMoreResults()) {
                    if (!isRows) {
                        counts.add(ps.getUpdateCount());
                    }
                }
                if (counts.size() != k + 2) {
                    throw new SQLException(k + " release statements answered " + counts.size() + " update counts");
                }
                for (int i = 1; i <= k; i++) {
                    out.add(counts.get(i) > 0);
                }
                return List.copyOf(out);
            } catch (SQLException e) {
                abortBatch(c, e);
                throw e;
            }
        });
    }

    /**
     * The texts of {@code k} copies of one statement sent in one round trip, by {@code k}, built when first used (a
     * benign race: two threads may build the same immutable string). In auto-commit mode PostgreSQL would commit each
     * statement of such a message on its own; {@code BEGIN} and {@code COMMIT} around them make it all or nothing. One
     * statement is atomic by itself and goes alone.
     */
    private static final class BatchTexts {
        private final String statement;
        private final String[] byCount;

        BatchTexts(String statement, int most) {
            this.statement = statement;
            this.byCount = new String[most + 1];
        }

        String of(int k) {
            String text = byCount[k];
            if (text == null) {
                text = k == 1 ? statement : "BEGIN;\n" + String.join(";\n", Collections.nCopies(k, statement)) + ";\nCOMMIT";
                byCount[k] = text;
            }
            return text;
        }
    }

    /**
     * Ends the transaction a failed statement of a {@link BatchTexts} batch left aborted, on an auto-commit
     * connection the pool expects idle; a failure to do so is added to {@code cause}.
     */
    private static void abortBatch(java.sql.Connection c, SQLException cause) {
        try (java.sql.Statement rollback = c.createStatement()) {
            rollback.execute("ROLLBACK");
        } catch (SQLException lost) {
            cause.addSuppressed(lost);
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>One statement: deletes the row only while it has no member, and notifies in the same transaction.
     */
    @Override
    public boolean releasePending(String pool, String claimName) {
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(claimName, "claimName");
        return Jdbc.autoCommit(dataSource, STORE, "expiring claim " + claimName + " of pool " + pool, c -> {
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.releasePending()), pool, claimName, channel);
                 ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>The first watch takes one connection from the data source and keeps it (LISTEN) until the last watch
     * is closed. Callbacks run on that listener thread; keep them short (wake your controller). After the
     * listening connection is lost and re-established every watcher is called once, since notifications sent
     * meanwhile are lost.
     *
     * @throws dev.hotspare.spi.StoreUnavailableException if the LISTEN cannot be set up
     */
    @Override
    public AutoCloseable watch(String pool, Runnable onChange) {
        Names.requireDns1123Label("pool", pool);
        Objects.requireNonNull(onChange, "onChange");
        return notifications.watch(pool, onChange);
    }

    // --- PostgreSQL-specific: members and store-side FIFO ---------------------------------------------------

    /**
     * Offers member {@code memberId} for {@link #assignOldest}: it is free until a claim takes it. Members are
     * served in ({@code readySince}, id) order. Offering an offered member, or one a live claim holds,
     * changes nothing.
     *
     * @return whether the member was newly offered
     */
    public boolean offerMember(String pool, String memberId, Instant readySince) {
        Names.requireDns1123Label("pool", pool);
        Objects.requireNonNull(memberId, "memberId");
        Objects.requireNonNull(readySince, "readySince");
        return Jdbc.autoCommit(dataSource, STORE, "offering member " + memberId + " of pool " + pool, c -> {
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.offer()), pool, memberId, readySince, pool, memberId, channel);
                 ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        });
    }

    /**
     * Withdraws an offered member (it is being deleted or hibernated). A claim that already holds it keeps it.
     *
     * @return whether it was offered
     */
    public boolean withdrawMember(String pool, String memberId) {
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(memberId, "memberId");
        return Jdbc.autoCommit(dataSource, STORE, "withdrawing member " + memberId + " of pool " + pool, c -> {
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.withdraw()), pool, memberId)) {
                return ps.executeUpdate() == 1;
            }
        });
    }

    /** Offered members no live claim holds, in the order {@link #assignOldest} serves them. */
    public List<String> freeMembers(String pool) {
        Objects.requireNonNull(pool, "pool");
        return Jdbc.autoCommit(dataSource, STORE, "listing free members of pool " + pool, c -> {
            List<String> out = new ArrayList<>();
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.freeMembers()), pool); ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
            return List.copyOf(out);
        });
    }

    /**
     * Gives the first pending claim of {@code pool} in store-side service order — higher class priority first,
     * then oldest first ({@code created_at}, then name) — the oldest free offered member, in one statement and one
     * transaction. It records no outcome: the store cannot tell how the offered member came to be free, and the
     * claim was not judged by a pool controller. A claim whose deadline is not after {@code at} is skipped (the
     * controller expires it). This form applies no aging — it is {@link PoolPlanner#serviceOrder} with an aging
     * limit longer than any claim's wait — so a steady stream of higher-class claims can hold lower ones back;
     * {@link #assignOldest(String, Instant, Duration)} adds the planner's aging. With a single class both are plain
     * FIFO. Claims and members another caller is assigning right now are skipped ({@code SKIP LOCKED}), so
     * concurrent callers each take the next pair instead of queueing; a claim is only ever passed over while an
     * older one is being assigned.
     *
     * @return the claim as assigned, or empty if no claim is pending or no member is free — or, under
     *         contention, if every pending claim or every free member was being assigned by another caller at
     *         that instant; a caller that must drain the queue loops until {@link #pending} is empty (or waits
     *         for a {@link #watch} wake-up)
     */
    public Optional<Claim> assignOldest(String pool, Instant at) {
        Names.requireDns1123Label("pool", pool);
        Objects.requireNonNull(at, "at");
        return assignBatch(pool, at, NO_AGING, 1).stream().findFirst();
    }

    /**
     * As {@link #assignOldest(String, Instant)}, but in the pool planner's service order with aging: a pending claim
     * created at least {@code agingLimit} before {@code at} goes before every younger claim (oldest first), the
     * others follow higher class first and oldest first within a class. Once a claim has waited
     * {@code agingLimit}, only claims older than it are assigned before it (see the pools documentation).
     *
     * @param agingLimit the pool's {@code agingLimit}; zero or more
     * @return the claim as assigned, or empty as for {@link #assignOldest(String, Instant)}
     */
    public Optional<Claim> assignOldest(String pool, Instant at, Duration agingLimit) {
        return assignOldest(pool, at, agingLimit, 1).stream().findFirst();
    }

    /**
     * As {@link #assignOldest(String, Instant, Duration)} for up to {@code max} claims in one statement: the first
     * {@code max} pending claims in {@link PoolPlanner#serviceOrder} and as many oldest free members, paired in
     * order (the k-th claim gets the k-th member), all in one transaction and one round trip.
     *
     * @param agingLimit the pool's {@code agingLimit}; zero or more
     * @param max        the most claims to assign; 1 to 10,000
     * @return the claims assigned, in service order; fewer than {@code max} (or none) when fewer claims are pending,
     *         fewer members are free, or other callers hold some of them at that instant
     */
    public List<Claim> assignOldest(String pool, Instant at, Duration agingLimit, int max) {
        Names.requireDns1123Label("pool", pool);
        Objects.requireNonNull(at, "at");
        if (agingLimit.isNegative()) {
            throw new ValidationException(Problem.of("agingLimit", agingLimit, "must not be negative"));
        }
        Instant agedBy = at.minus(agingLimit);
        return assignBatch(pool, at, agedBy.isBefore(NO_AGING) ? NO_AGING : agedBy, max);
    }

    /** An aging bound before any claim's creation: no claim counts as aged. */
    private static final Instant NO_AGING = Instant.parse("0001-01-01T00:00:00Z");

    private List<Claim> assignBatch(String pool, Instant at, Instant agedBy, int max) {
        if (max < 1 || max > 10_000) {
            throw new ValidationException(Problem.of("max", max, "must be between 1 and 10000"));
        }
        for (int attempt = 1; ; attempt++) {
            try {
                List<Claim> assigned = Jdbc.autoCommit(dataSource, STORE, "assigning the oldest claims of pool " + pool, c -> {
                    try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.assignOldest()), agedBy, agedBy, pool, at, max,
                            pool, at)) {
                        return claims(ps);
                    } catch (SQLException e) {
                        if (!Jdbc.isUniqueViolation(e)) {
                            throw e;
                        }
                        // A member was given to a claim through assign() after it was offered without that claim
                        // recorded on its row: record it, then try again with the next member.
                        try (PreparedStatement repair = Jdbc.bind(c.prepareStatement(sql.repairMember()), pool)) {
                            repair.executeUpdate();
                        }
                        throw new RetryAssign(e);
                    }
                });
                if (assigned.size() < 2) {
                    return assigned;
                }
                List<Claim> ordered = new ArrayList<>(assigned);
                // RETURNING has no order; NO_AGING stands for "no aging" in the planner's order too.
                ordered.sort(PoolPlanner.serviceOrder(Duration.between(agedBy, at), at));
                return List.copyOf(ordered);
            } catch (RetryAssign retry) {
                if (attempt == ASSIGN_ATTEMPTS) {
                    throw new PostgresStoreException(STORE + ": assigning the oldest claims of pool " + pool
                            + " kept hitting members held by other claims", retry.getCause());
                }
            }
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>One statement per {@code batchSize} assignments (see the constructor): every pending claim whose member no
     * live claim holds gets it, with its outcome, and is marked ready; a member {@link #offerMember offered} for
     * store-side assignment leaves the free list; the pool is announced once a batch has committed. If two pairs of a batch
     * collide with each other or with a concurrent writer on one member (the unique constraint), that batch is
     * applied one by one instead, each as {@link #assign}; so is a batch PostgreSQL aborts to break a deadlock with
     * another writer. A batch of up to {@value #SMALL_BATCH} pairs (a claim the controller serves at once, a pass on
     * a steady pool) goes as one single-pair statement per pair with plain parameters, in one round trip, so its every
     * lookup is by a unique index whatever the tables' statistics say. With batch size 1 every assignment is its own
     * transaction, followed by its own {@link #markReady}.
     */
    @Override
    public List<AssignOutcome> assignAll(String pool, List<Assignment> assignments, Instant readyAt) {
        Names.requireDns1123Label("pool", pool);
        Objects.requireNonNull(assignments, "assignments");
        Objects.requireNonNull(readyAt, "readyAt");
        if (batchSize == 1) {
            return ClaimStore.super.assignAll(pool, assignments, readyAt);
        }
        List<AssignOutcome> out = new ArrayList<>(assignments.size());
        for (int from = 0; from < assignments.size(); from += batchSize) {
            List<Assignment> batch = assignments.subList(from, Math.min(assignments.size(), from + batchSize));
            List<AssignOutcome> outcomes = batch.size() <= SMALL_BATCH ? assignSmallBatchOnce(pool, batch, readyAt)
                    : assignBatchOnce(pool, batch, readyAt);
            if (outcomes != null && outcomes.contains(AssignOutcome.ASSIGNED)) {
                announcer.announce(pool);
            }
            // One by one, each assignment notifies in its own transaction as assign() does.
            out.addAll(outcomes == null ? ClaimStore.super.assignAll(pool, batch, readyAt) : outcomes);
        }
        return List.copyOf(out);
    }

    /**
     * Most pairs written as {@link Sql#assignOne} statements, one per pair, sent together; larger batches take the
     * array statement. A claim handed out at once and a pass on a steady pool write a few pairs at a time.
     */
    static final int SMALL_BATCH = 32;

    /** The text of {@code k} single-pair statements sent together, by {@code k}. */
    private final BatchTexts smallBatches;

    /**
     * A small batch as one single-pair statement per pair, all sent in one round trip between {@code BEGIN} and
     * {@code COMMIT}: each pair's every lookup is by a unique index, whatever the tables' statistics say (the array
     * statement's generic plan, made while a pool's tables were young, joined each pair against every pending and
     * every live claim of the pool). Each statement sees the ones before it, so a member named twice is answered as
     * {@link #assign} would answer the second claim. Null when a member collided with another writer: the
     * transaction is rolled back and the batch must go one by one.
     */
    private List<AssignOutcome> assignSmallBatchOnce(String pool, List<Assignment> batch, Instant readyAt) {
        int k = batch.size();
        String statement = smallBatches.of(k);
        return Jdbc.autoCommit(dataSource, STORE, "assigning " + k + " claims of pool " + pool, c -> {
            List<Object> values = new ArrayList<>(11 * k);
            for (Assignment a : batch) {
                values.addAll(Arrays.asList(a.memberId(), a.at(), a.outcome().map(Enum::name).orElse(null), readyAt, a.at(),
                        pool, a.claimName(), pool, a.memberId(), pool, a.claimName()));
            }
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(statement), values.toArray())) {
                List<AssignOutcome> out = new ArrayList<>(k);
                // BEGIN and COMMIT answer update counts; each pair's statement answers one row.
                for (boolean isRows = ps.execute(); isRows || ps.getUpdateCount() != -1; isRows = ps.getMoreResults()) {
                    if (isRows) {
                        try (ResultSet rs = ps.getResultSet()) {
                            rs.next();
                            out.add(outcome(batch.get(out.size()), rs));
                        }
                    }
                }
                if (out.size() != k) {
                    throw new SQLException(k + " single-pair statements answered " + out.size() + " rows");
                }
                return List.copyOf(out);
            } catch (SQLException e) {
                if (k > 1) {
                    abortBatch(c, e);
                }
                if (Jdbc.isUniqueViolation(e) || DEADLOCK.equals(e.getSQLState())) {
                    return null;
                }
                throw e;
            }
        });
    }

    /** What a batch's answer row (assigned, found, held) says of one assignment. */
    private static AssignOutcome outcome(Assignment a, ResultSet rs) throws SQLException {
        String held = rs.getString("held");
        return rs.getBoolean("assigned") ? AssignOutcome.ASSIGNED
                : !rs.getBoolean("found") ? AssignOutcome.CLAIM_NOT_FOUND
                : a.memberId().equals(held) ? AssignOutcome.ALREADY_ASSIGNED
                : held != null ? AssignOutcome.CLAIM_ALREADY_ASSIGNED
                : AssignOutcome.MEMBER_TAKEN;
    }

    /** One batch in one statement; null when a member collided and the batch must go one by one. */
    private List<AssignOutcome> assignBatchOnce(String pool, List<Assignment> batch, Instant readyAt) {
        return Jdbc.autoCommit(dataSource, STORE, "assigning " + batch.size() + " claims of pool " + pool, c -> {
            String[] names = new String[batch.size()];
            String[] members = new String[batch.size()];
            String[] times = new String[batch.size()];
            String[] outcomes = new String[batch.size()];
            for (int i = 0; i < batch.size(); i++) {
                Assignment a = batch.get(i);
                names[i] = a.claimName();
                members[i] = a.memberId();
                times[i] = Jdbc.toDb(a.at()).toString();
                outcomes[i] = a.outcome().map(Enum::name).orElse(null);
            }
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.assignAll()), c.createArrayOf("text", names),
                    c.createArrayOf("text", members), c.createArrayOf("text", times), c.createArrayOf("text", outcomes),
                    readyAt, pool, pool, pool);
                 ResultSet rs = ps.executeQuery()) {
                List<AssignOutcome> out = new ArrayList<>(batch.size());
                while (rs.next()) {
                    out.add(outcome(batch.get(out.size()), rs));
                }
                return List.copyOf(out);
            } catch (SQLException e) {
                // Two batches can each wait on a member the other has just given (the unique index), or a batch
                // can meet a concurrent one-by-one assignment: PostgreSQL then aborts one side. The statement rolled
                // back as a whole, so applying the batch one by one loses and repeats nothing.
                if (Jdbc.isUniqueViolation(e) || DEADLOCK.equals(e.getSQLState())) {
                    return null;
                }
                throw e;
            }
        });
    }

    private static final String DEADLOCK = "40P01";

    // --- Two-phase claims ---------------------------------------------------------------------------------------

    /**
     * {@inheritDoc}
     *
     * <p>One transaction: the key's row in {@code claim_reservations} (schema version 8) is locked; a live one is
     * returned with its claim; an expired one is ended with its claim; otherwise the claim is submitted and the
     * reservation recorded. Two concurrent first reserves of one key: the second waits on the key, fails on it,
     * and is retried, finding the first's reservation.
     */
    @Override
    public Reservation reserve(String pool, String key, ClaimRequest request, Duration ttl, Instant now) {
        Names.requireDns1123Label("pool", pool);
        Reservation.requireValidKey(key);
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(ttl, "ttl");
        Objects.requireNonNull(now, "now");
        if (ttl.isNegative() || ttl.isZero()) {
            throw new ValidationException(Problem.of("ttl", ttl, "must be positive"));
        }
        for (int attempt = 1; ; attempt++) {
            try {
                Reserved reserved = Jdbc.inTransaction(dataSource, STORE, "reserving under key " + key + " in pool " + pool,
                        c -> reserveOnce(c, pool, key, request, ttl, now));
                if (reserved.submitted()) {
                    // A new claim, announced once committed like any other submit.
                    announcer.announce(pool);
                }
                return reserved.reservation();
            } catch (RetryAssign raced) {
                if (attempt == ASSIGN_ATTEMPTS) {
                    throw new PostgresStoreException(STORE + ": reserving under key " + key + " in pool " + pool
                            + " kept racing other reserves", raced.getCause());
                }
            }
        }
    }

    /** What one attempt of {@link #reserve} answers, and whether it submitted a new claim. */
    private record Reserved(Reservation reservation, boolean submitted) {
    }

    private Reserved reserveOnce(java.sql.Connection c, String pool, String key, ClaimRequest request, Duration ttl,
                                 Instant now) throws SQLException {
        try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.lockReservation()), pool, key); ResultSet rs = ps.executeQuery()) {
            if (rs.next()) {
                Optional<Reservation> live = findReservation(c, pool, key, now);
                if (live.isPresent()) {
                    return new Reserved(live.get(), false);
                }
                // Expired, not yet swept: it ends now with its claim (the trigger drops the row), and the key starts afresh.
                try (PreparedStatement delete = Jdbc.bind(c.prepareStatement(sql.deleteClaim()), pool, rs.getString("claim_name"), channel);
                     ResultSet deleted = delete.executeQuery()) {
                    deleted.next();
                }
            }
        }
        Claim claim = request.toClaim(now);
        try (PreparedStatement ps = c.prepareStatement(sql.submit())) {
            Jdbc.bind(ps, pool, request.name(), now);
            if (request.lifetime().isPresent()) {
                ps.setLong(4, request.lifetime().get().getSeconds());
                ps.setInt(5, request.lifetime().get().getNano());
            } else {
                ps.setNull(4, Types.BIGINT);
                ps.setNull(5, Types.INTEGER);
            }
            ps.setString(6, request.claimClass().name());
            ps.setInt(7, request.claimClass().priority());
            if (request.deadline().isPresent()) {
                ps.setObject(8, Jdbc.toDb(request.deadline().get()));
            } else {
                ps.setNull(8, Types.TIMESTAMP_WITH_TIMEZONE);
            }
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new ClaimExistsException(pool, request.name());
                }
            }
        }
        Instant expiresAt = now.plus(ttl);
        try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.insertReservation()), pool, key, request.name(), expiresAt)) {
            ps.executeUpdate();
        } catch (SQLException e) {
            if (Jdbc.isUniqueViolation(e)) {
                // Another reserve of this key committed first: roll back ours and read theirs.
                throw new RetryAssign(e);
            }
            throw e;
        }
        return new Reserved(new Reservation(key, claim, expiresAt.truncatedTo(java.time.temporal.ChronoUnit.MICROS),
                Optional.empty()), true);
    }

    @Override
    public Optional<Reservation> confirm(String pool, String key, Instant now) {
        Objects.requireNonNull(pool, "pool");
        Reservation.requireValidKey(key);
        Objects.requireNonNull(now, "now");
        return Jdbc.autoCommit(dataSource, STORE, "confirming key " + key + " in pool " + pool, c -> {
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.confirm()), now, pool, key, now); ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(reservation(rs)) : Optional.<Reservation>empty();
            }
        });
    }

    @Override
    public Optional<Reservation> findReservation(String pool, String key, Instant now) {
        Objects.requireNonNull(pool, "pool");
        Reservation.requireValidKey(key);
        Objects.requireNonNull(now, "now");
        return Jdbc.autoCommit(dataSource, STORE, "reading key " + key + " in pool " + pool, c -> findReservation(c, pool, key, now));
    }

    private Optional<Reservation> findReservation(java.sql.Connection c, String pool, String key, Instant now) throws SQLException {
        try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.findReservation()), pool, key, now); ResultSet rs = ps.executeQuery()) {
            return rs.next() ? Optional.of(reservation(rs)) : Optional.empty();
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>One statement: due reservations are locked (skipping any a confirm holds), their claims deleted with them,
     * and a notification sent, in one transaction.
     */
    @Override
    public List<Reservation> expireReservations(String pool, Instant now) {
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(now, "now");
        return Jdbc.autoCommit(dataSource, STORE, "expiring reservations of pool " + pool, c -> {
            List<Reservation> out = new ArrayList<>();
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.expireReservations()), pool, now, channel, pool);
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(reservation(rs));
                }
            }
            return List.copyOf(out);
        });
    }

    /**
     * Releases every assigned claim of {@code pool} whose own lifetime has passed at {@code now} (measured
     * from its assignment, like the pool planner). Pool-level defaults and maxima are the planner's business.
     *
     * @return the names of the claims released, sorted
     */
    public List<String> releaseExpired(String pool, Instant now) {
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(now, "now");
        return Jdbc.autoCommit(dataSource, STORE, "releasing expired claims of pool " + pool, c -> {
            List<String> out = new ArrayList<>();
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.releaseExpired()), pool, now, channel);
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
            return List.copyOf(out);
        });
    }

    private void notify(java.sql.Connection c, String pool) throws SQLException {
        try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.notifyPool()), channel, pool); ResultSet rs = ps.executeQuery()) {
            rs.next();
        }
    }

    private static List<Claim> claims(PreparedStatement ps) throws SQLException {
        try (ps; ResultSet rs = ps.executeQuery()) {
            List<Claim> out = new ArrayList<>();
            while (rs.next()) {
                out.add(decode(rs));
            }
            return List.copyOf(out);
        }
    }

    private static Claim decode(ResultSet rs) throws SQLException {
        long seconds = rs.getLong("lifetime_seconds");
        Optional<Duration> lifetime = rs.wasNull() ? Optional.empty()
                : Optional.of(Duration.ofSeconds(seconds, rs.getInt("lifetime_nanos")));
        String member = rs.getString("member_id");
        String outcome = rs.getString("outcome");
        return new Claim(rs.getString("name"), Jdbc.instant(rs, "created_at"), lifetime,
                Optional.ofNullable(member), Jdbc.optionalInstant(rs, "assigned_at"), Jdbc.optionalInstant(rs, "ready_at"),
                new ClaimClass(rs.getString("class_name"), rs.getInt("class_priority")),
                Jdbc.optionalInstant(rs, "deadline"), Optional.ofNullable(outcome).map(ClaimOutcome::valueOf));
    }

    private static Reservation reservation(ResultSet rs) throws SQLException {
        return new Reservation(rs.getString("idem_key"), decode(rs), Jdbc.instant(rs, "expires_at"),
                Jdbc.optionalInstant(rs, "confirmed_at"));
    }

    /** Internal signal: the FIFO statement hit a member held through another path; try again. */
    private static final class RetryAssign extends RuntimeException {
        RetryAssign(SQLException cause) {
            super(cause);
        }
    }
}
