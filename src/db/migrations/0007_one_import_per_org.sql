-- At most one migration of an organization imports at a time: running, or paused until the
-- source's API allowance returns. Two imports into one organization at once could each create a
-- record the other has just created, since deduplication and source-id lookups see only committed
-- records. startRun looks first, to name the other migration in its answer; this index decides
-- between two runs started at the same moment (docs/migration.md, Migrate).
CREATE UNIQUE INDEX migrations_one_import_per_org ON migrations (org_id) WHERE status IN ('running', 'paused');
