-- hotspare schema, version 7: the release in flight of each scheduler, persisted as the ReleaseMachine decided it
-- (the JSON of ReleaseStateJson) with a version for optimistic saves, so that another instance resumes it after a
-- crash or a change of owner. One row per scheduler (its latest release, finished or not); deleted with it.

CREATE TABLE scheduler_release_state (
    scheduler text   NOT NULL PRIMARY KEY REFERENCES schedulers (name) ON DELETE CASCADE,
    version   bigint NOT NULL CHECK (version >= 1),
    state     jsonb  NOT NULL
);
