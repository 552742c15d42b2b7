-- hotspare schema, version 1.
-- Flyway runs this with search_path set to the schema passed to PostgresSchema.migrate, so names are
-- unqualified here; the stores qualify every table with that (validated) schema name.
-- Timestamps are timestamptz (microsecond precision); ordering by name uses COLLATE "C" in the stores so
-- it matches Java's String order.

-- Scheduler desired state (PostgresSchedulerStore) --------------------------------------------------------

CREATE TABLE schedulers (
    name                  text        PRIMARY KEY,
    version_major         integer     NOT NULL,
    version_minor         integer     NOT NULL,
    config_submitted      text        NOT NULL,
    config                jsonb       NOT NULL,
    state                 text        NOT NULL,
    state_last_changed_at timestamptz NOT NULL,
    last_scale_at         timestamptz,
    created_at            timestamptz NOT NULL
);

CREATE TABLE scheduler_releases (
    scheduler        text        NOT NULL REFERENCES schedulers (name) ON DELETE CASCADE,
    version_major    integer     NOT NULL,
    version_minor    integer     NOT NULL,
    created_at       timestamptz NOT NULL,
    config_submitted text        NOT NULL,
    config           jsonb       NOT NULL,
    status           text        NOT NULL
        CHECK (status IN ('IN_PROGRESS', 'DEPLOYED', 'CANCELED', 'ERROR', 'TIMEDOUT')),
    PRIMARY KEY (scheduler, version_major, version_minor)
);

-- The newest fencing token accepted per lock key: a fenced write with an older token is rejected.
CREATE TABLE fences (
    lock_key     text   PRIMARY KEY,
    newest_token bigint NOT NULL
);

-- Claims (PostgresClaimStore) --------------------------------------------------------------------------------

-- Live claims only: a released claim's row is deleted.
CREATE TABLE claims (
    id               bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    pool             text        NOT NULL,
    name             text        NOT NULL,
    created_at       timestamptz NOT NULL,
    lifetime_seconds bigint,
    lifetime_nanos   integer,
    member_id        text,
    assigned_at      timestamptz,
    CONSTRAINT claims_live_name_unique UNIQUE (pool, name),
    -- The guarantee: one member can never hold two live claims (NULLs, i.e. pending claims, are distinct).
    CONSTRAINT claims_one_claim_per_member UNIQUE (pool, member_id),
    CONSTRAINT claims_member_with_time CHECK ((member_id IS NULL) = (assigned_at IS NULL)),
    CONSTRAINT claims_lifetime_whole CHECK ((lifetime_seconds IS NULL) = (lifetime_nanos IS NULL))
);

-- FIFO: the oldest pending claim of a pool.
CREATE INDEX claims_pending_fifo ON claims (pool, created_at, name COLLATE "C") WHERE member_id IS NULL;

-- Free members a pool offers for store-side FIFO assignment (PostgresClaimStore.offerMember / assignOldest).
-- A row means "free": assigning the member deletes its row in the same transaction (a member serves one claim).
CREATE TABLE pool_members (
    pool        text        NOT NULL,
    member_id   text        NOT NULL,
    ready_since timestamptz NOT NULL,
    PRIMARY KEY (pool, member_id)
);

-- FIFO: the oldest free member of a pool.
CREATE INDEX pool_members_fifo ON pool_members (pool, ready_since, member_id COLLATE "C");

-- Rollout state (PostgresRolloutStore) --------------------------------------------------------------------

CREATE TABLE rollouts (
    name    text   PRIMARY KEY,
    state   jsonb  NOT NULL,
    version bigint NOT NULL CHECK (version >= 1)
);

-- Leases (PostgresLockStore) ----------------------------------------------------------------------------------

-- Fencing tokens come from one durable sequence: strictly increasing across keys, acquisitions and restarts.
CREATE SEQUENCE lease_fencing_tokens;

-- One row per key ever acquired; a released or force-released lease is kept with expires_at moved to the
-- release time, so the row always carries the key's newest fencing token.
CREATE TABLE leases (
    key           text        PRIMARY KEY,
    owner_token   text        NOT NULL,
    fencing_token bigint      NOT NULL,
    acquired_at   timestamptz NOT NULL,
    expires_at    timestamptz NOT NULL
);
