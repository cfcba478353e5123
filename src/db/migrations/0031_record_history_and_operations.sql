-- Record history and operations (docs/api.md, History and Operations; docs/architecture.md).
--
-- The event journal (`events`) is the change feed: kept as long as the feed's retention, in the
-- shape webhooks send, and only for the kinds in the event catalogue. History must answer "who
-- changed what" for a year or more, for every kind, and survive the record's deletion, so it has a
-- table of its own, written by the same journal port in the same transaction as the change and
-- pruned after HISTORY_RETENTION_DAYS (default 400) by housekeeping.
--
-- One row per record change. `changes` holds `{field: [old, new]}` for an update; a delete keeps
-- the whole deleted record in `snapshot` (so undo can restore it with its id); a single create
-- keeps the created values in `snapshot`; a bulk create (an import page, a migration page) keeps
-- neither: the record itself holds its values, and a compact row keeps a million-record load cheap.
CREATE TABLE record_history (
  org_id          uuid NOT NULL,
  -- UUIDv7 of the change's time: newest first is `ORDER BY id DESC`.
  id              uuid NOT NULL,
  kind            text NOT NULL,
  record_id       uuid NOT NULL,
  action          text NOT NULL,
  occurred_at     timestamptz NOT NULL,
  operation_id    uuid NOT NULL,
  actor_user_id   uuid,
  actor_client_id text,
  channel         text NOT NULL,
  changes         jsonb,
  snapshot        jsonb,
  PRIMARY KEY (org_id, id)
);
CREATE INDEX record_history_record_idx ON record_history (org_id, record_id, id);
CREATE INDEX record_history_operation_idx ON record_history (org_id, operation_id, id);
CREATE INDEX record_history_occurred_idx ON record_history (occurred_at);

-- One row per operation (a request, a batch, a CSV import run, an MCP tool call, a migration run,
-- a revert): who, when, how many records of which kinds. Each write of the operation adds to its
-- counts in its own transaction. A revert is an operation too: `reverts` names the operation it
-- undoes, and that operation's `reverted_by` names it; its progress is kept here.
CREATE TABLE operations (
  org_id           uuid NOT NULL,
  id               uuid NOT NULL,
  started_at       timestamptz NOT NULL,
  ended_at         timestamptz NOT NULL,
  actor_user_id    uuid,
  actor_client_id  text,
  channel          text NOT NULL,
  created          integer NOT NULL DEFAULT 0,
  updated          integer NOT NULL DEFAULT 0,
  deleted          integer NOT NULL DEFAULT 0,
  restored         integer NOT NULL DEFAULT 0,
  kinds            text[] NOT NULL DEFAULT '{}',
  reverts          uuid,
  reverted_by      uuid,
  -- A revert's own state (NULL on other operations): running, succeeded, failed.
  revert_state     text,
  revert_force     boolean NOT NULL DEFAULT false,
  revert_total     integer NOT NULL DEFAULT 0,
  revert_done      integer NOT NULL DEFAULT 0,
  revert_reverted  integer NOT NULL DEFAULT 0,
  revert_conflicts jsonb NOT NULL DEFAULT '[]',
  -- Who works on a running revert, until when (a worker that died leaves it to be taken over).
  revert_lease_until timestamptz,
  PRIMARY KEY (org_id, id)
);
CREATE INDEX operations_recent_idx ON operations (org_id, id DESC);
CREATE INDEX operations_client_idx ON operations (org_id, actor_client_id, id DESC) WHERE actor_client_id IS NOT NULL;
CREATE INDEX operations_ended_idx ON operations (ended_at);
