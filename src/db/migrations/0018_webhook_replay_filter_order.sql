-- Webhooks that integrators can trust (issue 20): replaying the journal to an endpoint, a filter on
-- the record, and delivery in order per record (docs/webhooks.md, Replay / Filters / Order).

-- The filter (the grammar of src/webhooks/filter/) and the ordering an endpoint asked for.
ALTER TABLE webhooks ADD COLUMN filter jsonb;
ALTER TABLE webhooks ADD COLUMN ordering text NOT NULL DEFAULT 'none' CHECK (ordering IN ('none', 'per_record'));

-- A replay: walks the journal in seq order from `from_seq` through `through_seq` (the newest seq when
-- it was asked for), queuing a delivery per event the endpoint subscribes to and its filter accepts.
-- Background work claims a running replay with FOR UPDATE SKIP LOCKED and advances `position` in
-- the transaction that queues a chunk's deliveries, so a crash resumes from the stored position and
-- no event is queued twice by one replay.
CREATE TABLE webhook_replays (
  org_id        uuid NOT NULL,
  id            uuid NOT NULL,
  webhook_id    uuid NOT NULL,
  -- What was asked for: a seq (inclusive) or a time (events that occurred at or after it).
  since_seq     bigint,
  since_time    timestamptz,
  from_seq      bigint NOT NULL,
  through_seq   bigint NOT NULL,
  -- The last seq examined; from_seq - 1 before the first chunk.
  position      bigint NOT NULL,
  examined      integer NOT NULL DEFAULT 0,
  queued        integer NOT NULL DEFAULT 0,
  status        text NOT NULL CHECK (status IN ('running', 'completed', 'canceled')),
  status_reason text,
  created_by    uuid,
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL,
  finished_at   timestamptz,
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, webhook_id) REFERENCES webhooks (org_id, id) ON DELETE CASCADE
);
-- One running replay per endpoint (a second request answers 409).
CREATE UNIQUE INDEX webhook_replays_running_idx ON webhook_replays (org_id, webhook_id) WHERE status = 'running';
-- The endpoint page shows its latest replay.
CREATE INDEX webhook_replays_latest_idx ON webhook_replays (org_id, webhook_id, id DESC);

-- `filtered`: the endpoint's filter did not accept the event when it was about to be sent.
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_status_check;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_status_check CHECK (status IN ('pending', 'succeeded', 'failed', 'filtered'));
-- The replay that queued this delivery (NULL: queued by the change itself, or a test event).
ALTER TABLE webhook_deliveries ADD COLUMN replay_id uuid;
-- Set only for deliveries to an endpoint with ordering = 'per_record': the record whose events are
-- sent one after another, in event id order. NULL for every other delivery, so the index below
-- (and its upkeep) holds only ordered deliveries and unordered endpoints pay nothing for it.
ALTER TABLE webhook_deliveries ADD COLUMN record_id uuid;
-- "Is an earlier delivery of this endpoint and record still pending?": one index probe per candidate.
CREATE INDEX webhook_deliveries_record_order_idx ON webhook_deliveries (org_id, webhook_id, record_id, event_id, id)
  WHERE status = 'pending' AND record_id IS NOT NULL;
-- A replay's progress counts its deliveries.
CREATE INDEX webhook_deliveries_replay_idx ON webhook_deliveries (org_id, replay_id) WHERE replay_id IS NOT NULL;
