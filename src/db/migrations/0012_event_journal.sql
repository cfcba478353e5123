-- The event journal: every event a record change produces, written in the change's own transaction
-- (so a change and its events commit or vanish together), kept for the retention period whether or
-- not any webhook subscribes. Record pages read a record's history from it; the change feed
-- (GET /api/v1/events) reads it in `seq` order.
CREATE TABLE events (
  org_id       uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  -- UUIDv7 of the change's time: the order of one record's events.
  id           uuid NOT NULL,
  -- The organization's position of the event, 1, 2, 3, ...: assigned AFTER the writing transaction
  -- committed, by the sequencer (src/events/sequencer.ts), one organization at a time, so that the
  -- numbered events always form a gapless prefix a reader can poll with `seq > last seen`.
  -- NULL until then.
  seq          bigint,
  type         text NOT NULL,
  record_id    uuid NOT NULL,
  occurred_at  timestamptz NOT NULL,
  -- The webhook body as written (all fields); readers shape it for their scopes.
  body         text NOT NULL,
  PRIMARY KEY (org_id, id)
);
CREATE UNIQUE INDEX events_seq_idx ON events (org_id, seq);
CREATE INDEX events_record_idx ON events (org_id, record_id, id);
-- What the sequencer still has to number: small, as rows leave it within moments.
CREATE INDEX events_unsequenced_idx ON events (org_id, id) WHERE seq IS NULL;
CREATE INDEX events_occurred_idx ON events (occurred_at);
