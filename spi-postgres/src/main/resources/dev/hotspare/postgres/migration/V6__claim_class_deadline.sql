-- hotspare schema, version 6: claim classes, deadlines and served outcomes.
-- A claim may carry a priority class (name and priority; higher priority is served first) and a deadline (a claim
-- still pending at its deadline expires and its row is deleted). An assigned claim records how it was served.
-- Claims already in the table join the default class (priority 0) with no deadline and no outcome, so a pool that
-- never names a class is served exactly as before.

ALTER TABLE claims ADD COLUMN class_name text NOT NULL DEFAULT 'default';
ALTER TABLE claims ADD COLUMN class_priority integer NOT NULL DEFAULT 0;
ALTER TABLE claims ADD COLUMN deadline timestamptz;
ALTER TABLE claims ADD COLUMN outcome text;

ALTER TABLE claims ADD CONSTRAINT claims_class_name_label CHECK (length(class_name) BETWEEN 1 AND 63);
-- A live claim's outcome is one of the served kinds, and only an assigned claim has one: withdrawn and expired
-- claims are deleted, their outcome goes to the controller's listeners.
ALTER TABLE claims ADD CONSTRAINT claims_outcome_served
    CHECK (outcome IS NULL OR (member_id IS NOT NULL AND outcome IN ('SERVED_HOT', 'SERVED_WARM', 'SERVED_COLD')));

-- Store-side service order (PostgresClaimStore.assignOldest): higher class first, then oldest first.
CREATE INDEX claims_pending_class_fifo ON claims (pool, class_priority DESC, created_at, name COLLATE "C")
    WHERE member_id IS NULL;
