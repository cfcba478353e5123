-- CSV imports (docs/imports.md): the import job, the uploaded file kept in the database so that any
-- service process can run it, and the per-row issues it ends with.
--
-- Keys lead with org_id like every other key. No foreign key to organizations, for the reason
-- migration 0006 gives for record tables: issues are written with every page of an import.

CREATE TABLE imports (
  org_id          uuid NOT NULL,
  id              uuid NOT NULL,
  kind            text NOT NULL,
  status          text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'completed_with_errors', 'failed')),
  -- Why a failed import failed, in words a person can act on.
  status_reason   text,
  file_name       text,
  file_bytes      bigint NOT NULL,
  -- Data rows in the file (counted when it was uploaded), for the progress bar.
  total_rows      integer NOT NULL,
  -- The header as read at upload, and column -> field (null: the column is not imported).
  columns         jsonb NOT NULL,
  mapping         jsonb NOT NULL,
  dedupe_by       text,
  -- Who started it: the job writes as this caller, with these scopes (never more than the request had).
  created_by      uuid,
  actor_scopes    text[] NOT NULL,
  actor_role      text NOT NULL,
  actor_via       text NOT NULL,
  actor_client_id text,
  -- Data rows read and committed so far: a resumed job skips exactly these.
  processed       integer NOT NULL DEFAULT 0,
  created         integer NOT NULL DEFAULT 0,
  updated         integer NOT NULL DEFAULT 0,
  failed          integer NOT NULL DEFAULT 0,
  issue_count     integer NOT NULL DEFAULT 0,
  -- Claims that ran out before the job finished (a process died on it); too many fail the import.
  attempts        integer NOT NULL DEFAULT 0,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  started_at      timestamptz,
  finished_at     timestamptz,
  lease_owner     text,
  lease_until     timestamptz,
  PRIMARY KEY (org_id, id)
);
CREATE INDEX imports_list_idx ON imports (org_id, id DESC);
-- The runners' claim looks only at imports with work to do.
CREATE INDEX imports_work_idx ON imports (lease_until) WHERE status IN ('queued', 'running');

-- The uploaded file, in pieces of about a megabyte written as the upload streams in (no process
-- holds a whole file in memory). Pieces of an upload that never became an import (refused after
-- the upload, or a process that died during it) are deleted by the runner after an hour.
CREATE TABLE import_file_chunks (
  org_id      uuid NOT NULL,
  import_id   uuid NOT NULL,
  seq         integer NOT NULL,
  data        bytea NOT NULL,
  created_at  timestamptz NOT NULL,
  PRIMARY KEY (org_id, import_id, seq)
);

CREATE TABLE import_issues (
  org_id      uuid NOT NULL,
  import_id   uuid NOT NULL,
  -- The row's line in the file as a spreadsheet numbers it (the header is row 1).
  row_number  integer NOT NULL,
  ordinal     integer NOT NULL,
  column_name text,
  field       text,
  message     text NOT NULL,
  PRIMARY KEY (org_id, import_id, row_number, ordinal)
);

-- Deduplication and references by name (dedupe_by=name, "Acme" in an account_id column) look names
-- up in the normal form accounts already have an index for (migration 0005): one index probe per
-- name instead of a scan of the organization's records for each.
CREATE INDEX opportunities_name_norm_idx ON opportunities (org_id, lower(regexp_replace(btrim(name), '\s+', ' ', 'g')));
CREATE INDEX products_name_norm_idx ON products (org_id, lower(regexp_replace(btrim(name), '\s+', ' ', 'g')));
