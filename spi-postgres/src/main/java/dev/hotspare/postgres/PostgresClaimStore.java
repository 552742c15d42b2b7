package dev.hotspare.postgres;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.ClaimClass;
import dev.hotspare.pool.ClaimOutcome;
import dev.hotspare.pool.ClaimRequest;
import dev.hotspare.pool.spi.ClaimExistsException;
import dev.hotspare.pool.spi.ClaimStore;
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
import java.util.List;
import java.util.Objects;
import java.util.Optional;
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
 *   <li><b>Wake-ups</b> — {@link #submit}, {@link #assign}, {@link #markReady}, {@link #release},
 *       {@link #releaseExpired} and {@link #offerMember} send {@code NOTIFY} on channel {@code <schema>_claims} with the pool as payload,
 *       in the same transaction (so only committed changes are announced): a controller wakes when a claim
 *       arrives or a member becomes free. {@link #watch} LISTENs on one connection while any watch is open.
 *       {@link #assignOldest} does not notify: its caller has the result, and a transaction that notifies
 *       takes PostgreSQL's global notification-queue lock at commit, which would serialise the claimers
 *       (measured: about a quarter of FIFO throughput).</li>
 *   <li>Every claim keeps its created, assigned and ready times ({@code ready_at} since schema version 2).</li>
 *   <li>Released claims are deleted.</li>
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
    private record Sql(String submit, String find, String live, String pending, String lockClaim, String lockMember,
                       String setMember, String takeMember, String notifyPool, String release, String assignOldest,
                       String offer, String withdraw, String freeMembers, String releaseExpired, String repairMember,
                       String markReady, String releasePending, String assignAged) {
        static Sql in(String schema) {
            String c = schema + ".claims";
            String m = schema + ".pool_members";
            String fifo = " ORDER BY created_at, name COLLATE \"C\"";
            // Store-side service order: higher class first, FIFO within a class.
            String byClass = " ORDER BY class_priority DESC, created_at, name COLLATE \"C\"";
            // The pool planner's service order: claims created at or before the bound (aged) first, oldest first;
            // then higher class first, oldest first within a class.
            String aged = " ORDER BY (created_at <= ?) DESC, CASE WHEN created_at <= ? THEN 0 ELSE class_priority END DESC,"
                    + " created_at, name COLLATE \"C\"";
            // The lifetime's end: whole seconds plus the nanoseconds rounded down to PostgreSQL's microseconds.
            String end = "assigned_at + lifetime_seconds * interval '1 second' + (lifetime_nanos / 1000) * interval '1 microsecond'";
            return new Sql(
                    "WITH inserted AS (INSERT INTO " + c + " (pool, name, created_at, lifetime_seconds, lifetime_nanos, "
                            + "class_name, class_priority, deadline) "
                            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (pool, name) DO NOTHING RETURNING pool) "
                            + "SELECT pg_notify(?, pool) FROM inserted",
                    "SELECT " + CLAIM_COLUMNS + " FROM " + c + " WHERE pool = ? AND name = ?",
                    "SELECT " + CLAIM_COLUMNS + " FROM " + c + " WHERE pool = ?" + fifo,
                    "SELECT " + CLAIM_COLUMNS + " FROM " + c + " WHERE pool = ? AND member_id IS NULL" + fifo,
                    "SELECT id, member_id FROM " + c + " WHERE pool = ? AND name = ? FOR UPDATE",
                    "SELECT member_id FROM " + m + " WHERE pool = ? AND member_id = ? FOR UPDATE",
                    "UPDATE " + c + " SET member_id = ?, assigned_at = ?, outcome = CAST(? AS text) WHERE id = ?",
                    "DELETE FROM " + m + " WHERE pool = ? AND member_id = ?",
                    "SELECT pg_notify(?, ?)",
                    "WITH gone AS (DELETE FROM " + c + " WHERE pool = ? AND name = ? RETURNING pool) "
                            + "SELECT pg_notify(?, pool) FROM gone",
                    assignNext(c, m, byClass),
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
                            + "AND ready_at IS NULL AND assigned_at <= ? RETURNING pool) "
                            + "SELECT pg_notify(?, pool) FROM readied",
                    "WITH gone AS (DELETE FROM " + c + " WHERE pool = ? AND name = ? AND member_id IS NULL RETURNING pool) "
                            + "SELECT pg_notify(?, pool) FROM gone",
                    assignNext(c, m, aged));
        }

        /** The store-side assignment statement, taking the first pending claim in {@code order}. */
        private static String assignNext(String c, String m, String order) {
            // The oldest pending claim and the oldest free member, each skipping rows other claimers hold:
            // one statement, one round trip, and no claimer waits on another's row. Both rows are then
            // changed through the ctid of the version this statement locked (nobody else can change a
            // row we hold), so neither change repeats an index lookup or needs a join.
            return "WITH next_claim AS (SELECT ctid AS claim_row FROM " + c + " WHERE pool = ? AND member_id IS NULL"
                        + " AND (deadline IS NULL OR deadline > ?)" + order
                        + " LIMIT 1 FOR UPDATE SKIP LOCKED), "
                        // Only look for (and lock) a member once a claim is locked: claim row first, member
                        // row second, as in assign(), and no member is held by a statement without a claim.
                        // The claim is looked up again by its ctid, not just tested for being locked: had a
                        // pending claim's row been updated (still pending) by a commit after this statement's
                        // snapshot, the lock would be on a version the final UPDATE cannot see, and the member
                        // must then stay free instead of being deleted for a claim that is not assigned. This
                        // store never updates a pending claim in place; the check keeps that from mattering.
                        + "taken AS (DELETE FROM " + m + " WHERE ctid = (SELECT ctid FROM " + m + " WHERE pool = ? "
                        + "AND EXISTS (SELECT 1 FROM " + c + " WHERE ctid = (SELECT claim_row FROM next_claim)) "
                        + "ORDER BY ready_since, member_id COLLATE \"C\" LIMIT 1 FOR UPDATE SKIP LOCKED) "
                        + "RETURNING member_id) "
                        + "UPDATE " + c + " cl SET member_id = taken.member_id, assigned_at = ? FROM taken "
                        + "WHERE cl.ctid = (SELECT claim_row FROM next_claim) RETURNING " + prefixed("cl.", CLAIM_COLUMNS);
        }

        private static String prefixed(String prefix, String columns) {
            return prefix + String.join(", " + prefix, columns.split(", "));
        }
    }

    private final DataSource dataSource;
    private final Sql sql;
    private final String channel;
    private final ClaimNotifications notifications;

    /** A store in schema {@value PostgresSchema#DEFAULT_SCHEMA}. */
    public PostgresClaimStore(DataSource dataSource) {
        this(dataSource, PostgresSchema.DEFAULT_SCHEMA);
    }

    /** A store in {@code schema} (see {@link PostgresSchema#requireValidName}). */
    public PostgresClaimStore(DataSource dataSource, String schema) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.sql = Sql.in(PostgresSchema.requireValidName(schema));
        this.channel = schema + "_claims";
        this.notifications = new ClaimNotifications(dataSource, channel, STORE);
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
                ps.setString(9, channel);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next();
                }
            }
        });
        if (!inserted) {
            throw new ClaimExistsException(pool, claimName);
        }
        return claim;
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

    @Override
    public List<Claim> live(String pool) {
        Objects.requireNonNull(pool, "pool");
        return Jdbc.autoCommit(dataSource, STORE, "listing claims of pool " + pool,
                c -> claims(Jdbc.bind(c.prepareStatement(sql.live()), pool)));
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

    @Override
    public boolean release(String pool, String claimName) {
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(claimName, "claimName");
        return Jdbc.autoCommit(dataSource, STORE, "releasing claim " + claimName + " of pool " + pool, c -> {
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.release()), pool, claimName, channel);
                 ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        });
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
     * claim was not judged by a pool controller. A claim whose
     * deadline is not after {@code at} is skipped (the controller expires it). This form applies no aging, so a
     * steady stream of higher-class claims can hold lower ones back; {@link #assignOldest(String, Instant, Duration)}
     * adds the planner's aging. With a single class both are plain FIFO, as before. Claims and members another caller is assigning right now are skipped ({@code SKIP LOCKED}),
     * so concurrent callers each take the next pair instead of queueing; a claim is only ever passed over
     * while an older one is being assigned.
     *
     * @return the claim as assigned, or empty if no claim is pending or no member is free — or, under
     *         contention, if every pending claim or every free member was being assigned by another caller at
     *         that instant; a caller that must drain the queue loops until {@link #pending} is empty (or waits
     *         for a {@link #watch} wake-up)
     */
    public Optional<Claim> assignOldest(String pool, Instant at) {
        Names.requireDns1123Label("pool", pool);
        Objects.requireNonNull(at, "at");
        return assignNext(pool, sql.assignOldest(), pool, at, pool, at);
    }

    /**
     * As {@link #assignOldest(String, Instant)}, but in the pool planner's service order with aging: a pending claim
     * created at least {@code agingLimit} before {@code at} goes before every younger claim (oldest first), the
     * others follow higher class first and oldest first within a class. Once a claim has waited
     * {@code agingLimit}, only claims older than it are assigned before it (see the pools documentation).
     *
     * @param at         the assignment time
     * @param agingLimit the pool's {@code agingLimit}; zero or more
     * @return the claim as assigned, or empty as for {@link #assignOldest(String, Instant)}
     */
    public Optional<Claim> assignOldest(String pool, Instant at, Duration agingLimit) {
        Names.requireDns1123Label("pool", pool);
        Objects.requireNonNull(at, "at");
        if (agingLimit.isNegative()) {
            throw new ValidationException(Problem.of("agingLimit", agingLimit, "must not be negative"));
        }
        Instant agedBy = at.minus(agingLimit);
        return assignNext(pool, sql.assignAged(), pool, at, agedBy, agedBy, pool, at);
    }

    private Optional<Claim> assignNext(String pool, String statement, Object... parameters) {
        for (int attempt = 1; ; attempt++) {
            try {
                return Jdbc.autoCommit(dataSource, STORE, "assigning the oldest claim of pool " + pool, c -> {
                    try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(statement), parameters)) {
                        return claims(ps).stream().findFirst();
                    } catch (SQLException e) {
                        if (!Jdbc.isUniqueViolation(e)) {
                            throw e;
                        }
                        // The member was given to a claim through assign() after it was offered without that
                        // claim recorded on its row: record it, then try again with the next member.
                        try (PreparedStatement repair = Jdbc.bind(c.prepareStatement(sql.repairMember()), pool)) {
                            repair.executeUpdate();
                        }
                        throw new RetryAssign(e);
                    }
                });
            } catch (RetryAssign retry) {
                if (attempt == ASSIGN_ATTEMPTS) {
                    throw new PostgresStoreException(STORE + ": assigning the oldest claim of pool " + pool
                            + " kept hitting members held by other claims", retry.getCause());
                }
            }
        }
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
                long seconds = rs.getLong("lifetime_seconds");
                Optional<Duration> lifetime = rs.wasNull() ? Optional.empty()
                        : Optional.of(Duration.ofSeconds(seconds, rs.getInt("lifetime_nanos")));
                String member = rs.getString("member_id");
                String outcome = rs.getString("outcome");
                out.add(new Claim(rs.getString("name"), Jdbc.instant(rs, "created_at"), lifetime,
                        Optional.ofNullable(member), Jdbc.optionalInstant(rs, "assigned_at"), Jdbc.optionalInstant(rs, "ready_at"),
                        new ClaimClass(rs.getString("class_name"), rs.getInt("class_priority")),
                        Jdbc.optionalInstant(rs, "deadline"), Optional.ofNullable(outcome).map(ClaimOutcome::valueOf)));
            }
            return List.copyOf(out);
        }
    }

    /** Internal signal: the FIFO statement hit a member held through another path; try again. */
    private static final class RetryAssign extends RuntimeException {
        RetryAssign(SQLException cause) {
            super(cause);
        }
    }
}
