-- hotspare schema, version 2: when a claim's member was handed over.
-- A claim now records the three moments of its life: created_at, assigned_at and ready_at (the pool controller
-- confirmed the assignment on both the member and the claim). Claims already in the table keep ready_at empty;
-- the controller records it on its next pass for every assigned claim both records agree on.

ALTER TABLE claims ADD COLUMN ready_at timestamptz;

ALTER TABLE claims ADD CONSTRAINT claims_ready_after_assignment
    CHECK (ready_at IS NULL OR (assigned_at IS NOT NULL AND ready_at >= assigned_at));
