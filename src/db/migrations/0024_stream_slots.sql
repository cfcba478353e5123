-- Long-lived responses (the change feed's stream, migration progress, CSV downloads) each hold a
-- slot while open, so the per-organization and per-client caps (docs/api.md, Long-lived responses)
-- hold across every service process on one PostgreSQL. A process renews its slots while their
-- connections stay open; a slot whose process died lapses at `expires_at` and stops counting.
--
-- Unlogged, as the rate-limit leases (0010): after a crash every connection is gone anyway.
CREATE UNLOGGED TABLE stream_slots (
  org_id      uuid NOT NULL,
  id          uuid NOT NULL,
  -- Who holds it: the API client (`client:<client_id>`) or the person of a browser session (`user:<id>`).
  holder      text NOT NULL,
  -- What it streams (events, migration_progress, export, ...), for operators reading the table.
  kind        text NOT NULL,
  opened_at   timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  PRIMARY KEY (org_id, id)
);
CREATE INDEX stream_slots_holder_idx ON stream_slots (org_id, holder);
