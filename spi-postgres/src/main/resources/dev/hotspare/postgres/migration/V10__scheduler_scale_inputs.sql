-- hotspare schema, version 10: a scheduler's scale inputs (manual scale requests waiting for the watcher, the one
-- being applied with the planner's decision, recent outcomes, the panic input of a room report), the JSON of
-- ScaleInputs.toJson, with a version for optimistic saves, so that whichever instance owns the scheduler next reads
-- and resumes them. One row per scheduler; deleted with it.

CREATE TABLE scheduler_scale_inputs (
    scheduler text   NOT NULL PRIMARY KEY REFERENCES schedulers (name) ON DELETE CASCADE,
    version   bigint NOT NULL CHECK (version >= 1),
    inputs    jsonb  NOT NULL
);
