-- The OAuth 2.0 authorization server: clients, their access per organization, codes, grants, tokens.
-- Secrets, codes and tokens are stored only as SHA-256 hashes.

CREATE TABLE oauth_clients (
  client_id        text PRIMARY KEY,
  -- The organization that created it in Settings or the CLI; NULL for dynamically registered
  -- clients and Client ID Metadata Documents, which any organization's people may authorize.
  org_id           uuid REFERENCES organizations(id) ON DELETE CASCADE,
  name             text NOT NULL,
  redirect_uris    text[] NOT NULL,
  scopes           text[] NOT NULL,
  secret_hash      bytea,
  auth_method      text NOT NULL CHECK (auth_method IN ('client_secret_basic', 'client_secret_post', 'none')),
  registration     text NOT NULL CHECK (registration IN ('settings', 'cli', 'dynamic', 'metadata_document')),
  metadata         jsonb NOT NULL DEFAULT '{}',
  created_at       timestamptz NOT NULL DEFAULT now(),
  revoked_at       timestamptz
);
CREATE INDEX oauth_clients_org_idx ON oauth_clients (org_id) WHERE org_id IS NOT NULL;

-- One row per organization that uses a client: what Settings -> API lists, and what "Revoke" marks.
CREATE TABLE oauth_client_access (
  org_id        uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  client_id     text NOT NULL REFERENCES oauth_clients(client_id) ON DELETE CASCADE,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz,
  revoked_at    timestamptz,
  PRIMARY KEY (org_id, client_id)
);

-- One authorization: what a person allowed a client in an organization. Tokens hang off it, so
-- revoking it (code replay, refresh token reuse) kills every token issued from it.
CREATE TABLE oauth_grants (
  org_id      uuid NOT NULL,
  id          uuid NOT NULL,
  client_id   text NOT NULL REFERENCES oauth_clients(client_id) ON DELETE CASCADE,
  user_id     uuid NOT NULL,
  scopes      text[] NOT NULL,
  resource    text NOT NULL,
  created_at  timestamptz NOT NULL,
  revoked_at  timestamptz,
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, user_id) REFERENCES memberships (org_id, user_id) ON DELETE CASCADE
);

CREATE TABLE oauth_codes (
  code_hash       bytea PRIMARY KEY,
  org_id          uuid NOT NULL,
  client_id       text NOT NULL REFERENCES oauth_clients(client_id) ON DELETE CASCADE,
  user_id         uuid NOT NULL,
  redirect_uri    text NOT NULL,
  -- Whether redirect_uri was sent at authorize: RFC 6749 §4.1.3 then requires it at the token endpoint.
  redirect_uri_sent boolean NOT NULL,
  code_challenge  text NOT NULL,
  scopes          text[] NOT NULL,
  resource        text NOT NULL,
  created_at      timestamptz NOT NULL,
  expires_at      timestamptz NOT NULL,
  consumed_at     timestamptz,
  grant_id        uuid,
  FOREIGN KEY (org_id, user_id) REFERENCES memberships (org_id, user_id) ON DELETE CASCADE
);

-- Each token carries what a bearer check needs (person, scopes, resource), and every revocation
-- (client, grant, token) marks the tokens themselves, so the check is one primary-key lookup joined
-- to the membership: as cheap as a session check, and immediate in every process.
CREATE TABLE oauth_tokens (
  token_hash   bytea PRIMARY KEY,
  kind         text NOT NULL CHECK (kind IN ('access', 'refresh')),
  org_id       uuid NOT NULL,
  grant_id     uuid NOT NULL,
  client_id    text NOT NULL,
  user_id      uuid NOT NULL,
  resource     text NOT NULL,
  -- At most the grant's scopes; a refresh may narrow them (RFC 6749 §6).
  scopes       text[] NOT NULL,
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  -- A refresh token is used once (rotation); presenting it again revokes its grant.
  used_at      timestamptz,
  revoked_at   timestamptz,
  FOREIGN KEY (org_id, grant_id) REFERENCES oauth_grants (org_id, id) ON DELETE CASCADE
);
CREATE INDEX oauth_tokens_grant_idx ON oauth_tokens (org_id, grant_id);
CREATE INDEX oauth_tokens_client_idx ON oauth_tokens (org_id, client_id) WHERE revoked_at IS NULL;
CREATE INDEX oauth_tokens_expiry_idx ON oauth_tokens (expires_at);

-- Fixed-window counters for rate limits shared by every service process. Unlogged: a counter
-- lost in a crash costs nothing, and it spares an fsync per counted request.
CREATE UNLOGGED TABLE rate_limit_counters (
  key           text NOT NULL,
  window_start  timestamptz NOT NULL,
  count         integer NOT NULL,
  PRIMARY KEY (key, window_start)
);
