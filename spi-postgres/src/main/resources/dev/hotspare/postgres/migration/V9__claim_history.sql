-- hotspare schema, version 9: the claim history a pool's sizer learns from, kept across restarts.
-- (Version 8 is left to another change made at the same time; Flyway applies 9 after 7 as usual.)
-- A released claim's row leaves `claims`; its arrival (and, once it was handed its member, its ready time) stays
-- here for the sizer's daily and weekly profile and its error budget. PostgresClaimStore writes a row in the same
-- statement that submits the claim and sets its ready time in the statement that marks the claim ready, and
-- deletes rows older than the 14 days a sizer keeps. Claims submitted before this version have no row.

CREATE TABLE claim_history (
    pool       text        NOT NULL,
    name       text        NOT NULL,
    created_at timestamptz NOT NULL,
    ready_at   timestamptz,
    PRIMARY KEY (pool, created_at, name),
    CONSTRAINT claim_history_ready_after_creation CHECK (ready_at IS NULL OR ready_at >= created_at)
);

-- When a controller's sizer first watched each pool: the first record stays, so a restarted controller's profile
-- has as many days as its predecessor's.
CREATE TABLE claim_history_since (
    pool  text        PRIMARY KEY,
    since timestamptz NOT NULL
);
