-- An object a failed import never reached is `not_run`: `pending` would say it is still to come,
-- but a failed migration never continues (docs/migration.md, States). The CHECK of 0005 was
-- declared inline, so PostgreSQL (and PGlite) named it migration_objects_status_check.
ALTER TABLE migration_objects DROP CONSTRAINT migration_objects_status_check;
ALTER TABLE migration_objects ADD CONSTRAINT migration_objects_status_check
  CHECK (status IN ('pending', 'running', 'completed', 'failed', 'skipped', 'not_run'));
