-- The event journal: every event a record change produces, written in the change's own transaction
-- (so a change and its events commit or vanish together), kept for the retention period whether or
-- not any webhook subscribes. Record pages read a record's history from it; the change feed
-- (GET /api/v1/events) will number it per organization after commit.
CREATE TABLE events (
  org_id       uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  -- UUIDv7 of the change's time: the order of one record's events.
  id           uuid NOT NULL,
  type         text NOT NULL,
  record_id    uuid NOT NULL,
  occurred_at  timestamptz NOT NULL,
  -- The webhook body as written (all fields); readers shape it for their scopes.
  body         text NOT NULL,
  PRIMARY KEY (org_id, id)
);
CREATE INDEX events_record_idx ON events (org_id, record_id, id);
CREATE INDEX events_occurred_idx ON events (occurred_at);
