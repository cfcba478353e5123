-- Webhooks: endpoints, the delivery outbox (one row per event and subscribed endpoint, written in
-- the transaction of the change that caused it) and the log of every attempt.

-- A UUIDv7 minted inside PostgreSQL (RFC 9562 §5.7), so the outbox fan-out is one INSERT ... SELECT
-- and deliveries still page newest first by id like every other list.
CREATE FUNCTION cairn_uuidv7(at timestamptz) RETURNS uuid
LANGUAGE sql VOLATILE AS $$
  SELECT encode(
    set_bit(set_bit(
      overlay(uuid_send(gen_random_uuid())
              placing substring(int8send(floor(extract(epoch FROM at) * 1000)::bigint) FROM 3)
              FROM 1 FOR 6),
      52, 1), 53, 1),
    'hex')::uuid
$$;

-- Keys the service generates for itself when the operator sets none (see config ENCRYPTION_KEY).
CREATE TABLE service_keys (
  name        text PRIMARY KEY,
  key         bytea NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE webhooks (
  org_id            uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  id                uuid NOT NULL,
  url               text NOT NULL,
  events            text[] NOT NULL,
  description       text,
  -- AES-256-GCM sealed (shared/secret-box.ts): signing needs the secret itself, so it cannot be a hash.
  secret_sealed     text,
  -- Opportunity amounts go only to endpoints registered by someone who may read them (erp:read).
  include_amounts   boolean NOT NULL,
  status            text NOT NULL CHECK (status IN ('active', 'disabled')),
  disabled_reason   text,
  disabled_at       timestamptz,
  -- Start of the current run of failed attempts; an endpoint failing for a day is disabled.
  failing_since     timestamptz,
  created_by        uuid,
  created_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL,
  PRIMARY KEY (org_id, id)
);
-- The outbox fan-out looks up the active endpoints of an organization on every write.
CREATE INDEX webhooks_active_idx ON webhooks (org_id) WHERE status = 'active';

CREATE TABLE webhook_deliveries (
  org_id            uuid NOT NULL,
  id                uuid NOT NULL,
  webhook_id        uuid NOT NULL,
  -- The `webhook-id` header: the same for every attempt, so receivers can de-duplicate.
  event_id          uuid NOT NULL,
  event_type        text NOT NULL,
  body              text NOT NULL,
  status            text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempt_count     integer NOT NULL DEFAULT 0,
  -- When it is due; a worker that claims it pushes this forward by its lease, so a crashed worker's
  -- delivery comes due again (at-least-once).
  next_attempt_at   timestamptz NOT NULL,
  last_status_code  integer,
  last_error        text,
  created_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL,
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, webhook_id) REFERENCES webhooks (org_id, id) ON DELETE CASCADE
);
-- A queue table: every delivery is updated two or three times within a second, and claims scan the
-- due index from its oldest end, where those dead versions pile up. Vacuum it early and without
-- throttling, or claims slow down as the dead entries grow.
ALTER TABLE webhook_deliveries SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 1000,
                                    autovacuum_vacuum_cost_delay = 0, autovacuum_analyze_scale_factor = 0.05);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_log_idx ON webhook_deliveries (org_id, webhook_id, id DESC);

CREATE TABLE webhook_attempts (
  org_id        uuid NOT NULL,
  delivery_id   uuid NOT NULL,
  attempt       integer NOT NULL,
  started_at    timestamptz NOT NULL,
  status_code   integer,
  latency_ms    integer NOT NULL,
  error         text,
  response_body text,
  PRIMARY KEY (org_id, delivery_id, attempt),
  FOREIGN KEY (org_id, delivery_id) REFERENCES webhook_deliveries (org_id, id) ON DELETE CASCADE
);
