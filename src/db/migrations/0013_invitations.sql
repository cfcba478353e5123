-- Invitations to join an organization (docs/members.md). The link carries the invitation id and a
-- secret; only the secret's SHA-256 is stored, so a database leak hands out no invitations.
CREATE TABLE invitations (
  id            uuid NOT NULL,
  org_id        uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  email         text NOT NULL,
  -- lower(trim(email)), as users.email_key: one pending invitation per address and organization.
  email_key     text NOT NULL,
  role          text NOT NULL CHECK (role IN ('admin', 'member')),
  token_hash    bytea NOT NULL,
  invited_by    uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL,
  accepted_at   timestamptz,
  accepted_by   uuid REFERENCES users(id) ON DELETE SET NULL,
  revoked_at    timestamptz,
  -- What became of the email: not_configured (no SMTP_URL), sent, or failed (with the reason).
  email_status  text NOT NULL CHECK (email_status IN ('not_configured', 'sending', 'sent', 'failed')),
  email_error   text,
  PRIMARY KEY (org_id, id)
);
-- The acceptance page knows only the link, not the organization: it finds the invitation by its id.
CREATE UNIQUE INDEX invitations_id_idx ON invitations (id);
-- Re-inviting an address replaces its open invitation; this keeps two from ever being open at once.
CREATE UNIQUE INDEX invitations_open_email_idx ON invitations (org_id, email_key) WHERE accepted_at IS NULL AND revoked_at IS NULL;
