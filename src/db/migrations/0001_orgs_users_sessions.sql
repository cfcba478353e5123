-- Organizations (tenants), people, their memberships and browser sessions.
CREATE TABLE organizations (
  id          uuid PRIMARY KEY,
  name        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id             uuid PRIMARY KEY,
  email          text NOT NULL,
  -- lower(trim(email)): one account per address whatever its case.
  email_key      text NOT NULL UNIQUE,
  name           text NOT NULL,
  password_hash  text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE memberships (
  org_id      uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id     uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role        text NOT NULL CHECK (role IN ('admin', 'member')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, user_id)
);
CREATE INDEX memberships_user_idx ON memberships (user_id);

-- Only the SHA-256 of the cookie value is stored: a database leak does not hand out sessions.
CREATE TABLE sessions (
  token_hash     bytea PRIMARY KEY,
  user_id        uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  active_org_id  uuid NOT NULL,
  csrf_token     text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL,
  FOREIGN KEY (active_org_id, user_id) REFERENCES memberships(org_id, user_id) ON DELETE CASCADE
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

-- Per-organization sequences (case numbers); a row lock serialises the increments of one org only.
CREATE TABLE org_counters (
  org_id  uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name    text NOT NULL,
  value   bigint NOT NULL,
  PRIMARY KEY (org_id, name)
);

-- Failed sign-in attempts, for throttling per account and per address without in-memory state.
CREATE TABLE sign_in_failures (
  key         text NOT NULL,
  failed_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sign_in_failures_key_idx ON sign_in_failures (key, failed_at);
