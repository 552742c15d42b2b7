-- hotspare schema, version 4: a release recorded by a rollback says which version's config it restored
-- (Maestro: "rollback" releases). Both columns are NULL for every other release.

ALTER TABLE scheduler_releases
    ADD COLUMN rolled_back_to_major integer,
    ADD COLUMN rolled_back_to_minor integer,
    ADD CONSTRAINT scheduler_releases_rolled_back_to_whole
        CHECK ((rolled_back_to_major IS NULL) = (rolled_back_to_minor IS NULL));
