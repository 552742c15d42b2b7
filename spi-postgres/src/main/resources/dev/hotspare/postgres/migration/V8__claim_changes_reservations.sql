-- hotspare schema, version 8: incremental claim reads and two-phase (reserved, then confirmed) claims.
--
-- Incremental reads (PostgresClaimStore.live): every claim row carries the id of the transaction that last wrote
-- it (change_txid, 64-bit txid_current()), and a deleted claim leaves a tombstone with the deleting transaction's
-- id. A reader remembers the oldest transaction its snapshot could not see (txid_snapshot_xmin) and next time
-- reads only rows and tombstones written by that transaction or later: whatever committed since is among them,
-- in whatever order the writers committed. Tombstones are pruned after a few minutes; a reader that has not read
-- for longer reads everything again.

ALTER TABLE claims ADD COLUMN change_txid bigint NOT NULL DEFAULT txid_current();
CREATE INDEX claims_changes ON claims (pool, change_txid);

CREATE TABLE claim_tombstones (
    pool        text        NOT NULL,
    name        text        NOT NULL,
    change_txid bigint      NOT NULL DEFAULT txid_current(),
    released_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX claim_tombstones_changes ON claim_tombstones (pool, change_txid);
CREATE INDEX claim_tombstones_age ON claim_tombstones (released_at);

-- Two-phase claims (PostgresClaimStore.reserve / confirm / expireReservations): one row per idempotency key while
-- its claim is live; an unconfirmed row whose expires_at has passed is ended with its claim.
CREATE TABLE claim_reservations (
    pool         text        NOT NULL,
    idem_key     text        NOT NULL,
    claim_name   text        NOT NULL,
    expires_at   timestamptz NOT NULL,
    confirmed_at timestamptz,
    PRIMARY KEY (pool, idem_key),
    CONSTRAINT claim_reservations_one_per_claim UNIQUE (pool, claim_name),
    CONSTRAINT claim_reservations_key CHECK (length(idem_key) BETWEEN 1 AND 128)
);
CREATE INDEX claim_reservations_unconfirmed ON claim_reservations (pool, expires_at) WHERE confirmed_at IS NULL;

-- The functions run with the search_path of this migration (the hotspare schema), whatever the caller's.
CREATE FUNCTION claims_touch() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    NEW.change_txid := txid_current();
    RETURN NEW;
END
$$;

CREATE FUNCTION claims_gone() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    INSERT INTO claim_tombstones (pool, name) VALUES (OLD.pool, OLD.name);
    -- A reservation lives exactly as long as its claim, whichever path ends the claim.
    DELETE FROM claim_reservations WHERE pool = OLD.pool AND claim_name = OLD.name;
    RETURN OLD;
END
$$;

CREATE TRIGGER claims_touch BEFORE UPDATE ON claims FOR EACH ROW EXECUTE FUNCTION claims_touch();
CREATE TRIGGER claims_gone AFTER DELETE ON claims FOR EACH ROW EXECUTE FUNCTION claims_gone();
