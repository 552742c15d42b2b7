-- A release whose operation's owner stopped (crashed, or shut down before it finished) is marked INTERRUPTED by
-- the next holder of the scheduler's CONFIG lock, instead of staying IN_PROGRESS forever.
ALTER TABLE scheduler_releases DROP CONSTRAINT scheduler_releases_status_check;
ALTER TABLE scheduler_releases ADD CONSTRAINT scheduler_releases_status_check
    CHECK (status IN ('IN_PROGRESS', 'DEPLOYED', 'CANCELED', 'ERROR', 'TIMEDOUT', 'INTERRUPTED'));
