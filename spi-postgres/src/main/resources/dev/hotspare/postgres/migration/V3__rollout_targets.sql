-- hotspare schema, version 3: one rollout at a time per target (PostgresRolloutStore).
-- Runs with search_path set to hotspare's schema, like V1.

-- Whether the rollout is in progress (not SUCCEEDED, FAILED, ABORTED or DEADLINE_EXCEEDED): only those hold
-- targets, and only finished ones may be deleted.
ALTER TABLE rollouts ADD COLUMN in_progress boolean NOT NULL DEFAULT true;

UPDATE rollouts
SET in_progress = (state -> 'state' ->> 'phase') NOT IN ('SUCCEEDED', 'FAILED', 'ABORTED', 'DEADLINE_EXCEEDED');

-- The targets each rollout in progress holds, as '<kind>/<name>' (e.g. 'device/nic-07', 'services/services').
-- The primary key is the guarantee: a target belongs to one rollout at a time, whatever the interleaving.
CREATE TABLE rollout_targets (
    target  text PRIMARY KEY,
    rollout text NOT NULL REFERENCES rollouts (name) ON DELETE CASCADE
);

CREATE INDEX rollout_targets_by_rollout ON rollout_targets (rollout);

-- Rollouts stored before this version: each in-progress rollout holds the targets it has not skipped or lost;
-- where two of them cover the same target, the first by name keeps it.
INSERT INTO rollout_targets (target, rollout)
SELECT lower(t -> 'target' ->> 'kind') || '/' || (t -> 'target' ->> 'name'), r.name
FROM rollouts r
CROSS JOIN LATERAL jsonb_array_elements(r.state -> 'state' -> 'targets') AS t
WHERE r.in_progress
  AND (t ->> 'status') NOT IN ('SKIPPED', 'REMOVED')
ORDER BY r.name COLLATE "C"
ON CONFLICT (target) DO NOTHING;
