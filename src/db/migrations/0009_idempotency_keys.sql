-- Idempotent retries (docs/api.md, Idempotent retries): one row per organization, caller and
-- Idempotency-Key. A row is first a claim (response_status NULL) held by one request until
-- locked_until, a lease its process renews while the request runs, so a key held by a crashed
-- process is free again shortly instead of answering 409 for a day. Once the request has answered,
-- the row keeps that answer until expires_at (24 hours after the claim); housekeeping deletes it.
--
-- The key leads with org_id like every other key. No foreign key to organizations, for the reason
-- migration 0006 gives for record tables: a row is written with every keyed write, and the
-- foreign key would lock the organization's one row for each of them.
CREATE TABLE idempotency_keys (
  org_id            uuid NOT NULL,
  -- Who sent the key: the person of a session, or the OAuth client and the person it acts for.
  principal         text NOT NULL,
  key               text NOT NULL,
  -- SHA-256 over method, path with query and the canonical JSON body (hex).
  fingerprint       text NOT NULL,
  -- The request holding the claim; only it may store the answer or release the key.
  claim_id          uuid NOT NULL,
  locked_until      timestamptz,
  response_status   integer,
  response_headers  jsonb,
  response_body     text,
  created_at        timestamptz NOT NULL,
  expires_at        timestamptz NOT NULL,
  PRIMARY KEY (org_id, principal, key)
);

CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at);
