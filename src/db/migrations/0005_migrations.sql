-- Migrations from the source platform: the migration record (state, sealed source tokens, analysis
-- report, configuration, lease of the process working on it), per-object progress with the read
-- checkpoint, the issues (failed, skipped, warned records), deduplication links, forward references
-- waiting for their target, and pending OAuth connections to the source platform.

CREATE TABLE migrations (
  org_id                uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  id                    uuid NOT NULL,
  status                text NOT NULL CHECK (status IN ('analyzing', 'analyzed', 'configured', 'running', 'paused',
                                                        'completed', 'completed_with_errors', 'failed', 'cancelled')),
  status_reason         text,
  environment           text CHECK (environment IN ('production', 'sandbox')),
  src_instance_url      text NOT NULL,
  -- The login host the refresh token belongs to (production or sandbox); null for API-given tokens.
  src_login_url         text,
  source_org_id         text,
  -- AES-256-GCM sealed (shared/secret-box.ts); set to NULL when the migration ends.
  access_token_sealed   text,
  refresh_token_sealed  text,
  report                jsonb,
  -- The report's headline figures (readiness, counts, risks), so lists and the event stream do not
  -- read the whole report.
  summary               jsonb,
  -- The source's users (id, name, email, active) and record types (id, developer name), read by the
  -- analysis and used at run time to map owners and record types.
  source_directory      jsonb,
  config                jsonb,
  validation            jsonb,
  phase_current         integer,
  phase_total           integer,
  created_by            uuid,
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL,
  analyzed_at           timestamptz,
  started_at            timestamptz,
  finished_at           timestamptz,
  -- A paused run (source allowance exhausted) is looked at again from this time.
  resume_at             timestamptz,
  cancel_requested_at   timestamptz,
  -- The process working on it and until when its claim holds (renewed while it works). A crashed
  -- process's claim runs out, and another process (or the restarted one) continues from the checkpoints.
  lease_owner           text,
  lease_until           timestamptz,
  -- Bumped by every change a watcher should see (progress, state): the event stream polls it.
  version               bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (org_id, id)
);
CREATE INDEX migrations_list_idx ON migrations (org_id, id DESC);
-- The runner's claim looks only at migrations with work to do.
CREATE INDEX migrations_work_idx ON migrations (lease_until) WHERE status IN ('analyzing', 'running', 'paused');

CREATE TABLE migration_objects (
  org_id              uuid NOT NULL,
  migration_id        uuid NOT NULL,
  object              text NOT NULL,
  -- Import order (dependency order) and the phase of a phased run this object belongs to.
  position            integer NOT NULL,
  phase               integer NOT NULL DEFAULT 1,
  target              text NOT NULL,
  status              text NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed', 'skipped')),
  status_reason       text,
  total               bigint NOT NULL DEFAULT 0,
  processed           bigint NOT NULL DEFAULT 0,
  created             bigint NOT NULL DEFAULT 0,
  updated             bigint NOT NULL DEFAULT 0,
  linked              bigint NOT NULL DEFAULT 0,
  skipped             bigint NOT NULL DEFAULT 0,
  failed              bigint NOT NULL DEFAULT 0,
  warnings            bigint NOT NULL DEFAULT 0,
  -- Where reading continues after a restart: the last source id written (keyset), and for Bulk
  -- reads the job and result locator. Stored in the transaction that writes the page.
  checkpoint          jsonb NOT NULL DEFAULT '{"after_id": null}',
  records_per_second  real,
  started_at          timestamptz,
  finished_at         timestamptz,
  PRIMARY KEY (org_id, migration_id, object),
  FOREIGN KEY (org_id, migration_id) REFERENCES migrations (org_id, id) ON DELETE CASCADE
);

CREATE TABLE migration_issues (
  org_id         uuid NOT NULL,
  migration_id   uuid NOT NULL,
  id             uuid NOT NULL,
  object         text NOT NULL,
  src_id         text,
  kind           text NOT NULL CHECK (kind IN ('failed', 'skipped', 'warning')),
  code           text NOT NULL,
  -- The field concerned (a missing parent, a truncated value), when the issue is about one.
  field          text,
  reason         text NOT NULL,
  source_data    jsonb,
  created_at     timestamptz NOT NULL,
  PRIMARY KEY (org_id, migration_id, id),
  FOREIGN KEY (org_id, migration_id) REFERENCES migrations (org_id, id) ON DELETE CASCADE
);
-- A page written again after a crash records its issues once.
CREATE UNIQUE INDEX migration_issues_record_key ON migration_issues (org_id, migration_id, object, src_id, code, (coalesce(field, ''))) WHERE src_id IS NOT NULL;
CREATE INDEX migration_issues_kind_idx ON migration_issues (org_id, migration_id, kind, id);
CREATE INDEX migration_issues_object_idx ON migration_issues (org_id, migration_id, object, id);

-- A source record a deduplication rule linked to a record that already existed: references to it
-- resolve to that record. Keyed like src_id, so a later run finds the link again.
CREATE TABLE migration_links (
  org_id        uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  kind          text NOT NULL,
  src_id        text NOT NULL,
  record_id     uuid NOT NULL,
  migration_id  uuid NOT NULL,
  created_at    timestamptz NOT NULL,
  PRIMARY KEY (org_id, kind, src_id)
);

-- References to records imported later than the record holding them (an account's parent account,
-- a converted lead's opportunity): set by a re-link pass once their target object is done.
CREATE TABLE migration_pending_refs (
  org_id         uuid NOT NULL,
  migration_id   uuid NOT NULL,
  -- The record holding the reference: its source object, kind, id and source id.
  object         text NOT NULL,
  kind           text NOT NULL,
  record_id      uuid NOT NULL,
  field          text NOT NULL,
  target_kind    text NOT NULL,
  target_src_id  text NOT NULL,
  src_id         text NOT NULL,
  PRIMARY KEY (org_id, migration_id, kind, record_id, field),
  FOREIGN KEY (org_id, migration_id) REFERENCES migrations (org_id, id) ON DELETE CASCADE
);
CREATE INDEX migration_pending_refs_target_idx ON migration_pending_refs (org_id, migration_id, target_kind);

-- Connect step: a browser sent to the source platform's consent page comes back with `state`.
CREATE TABLE migration_oauth_states (
  state_hash            bytea PRIMARY KEY,
  org_id                uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id               uuid NOT NULL,
  environment           text NOT NULL CHECK (environment IN ('production', 'sandbox')),
  code_verifier_sealed  text NOT NULL,
  created_at            timestamptz NOT NULL,
  expires_at            timestamptz NOT NULL
);

-- Deduplication looks records up by normalised email, domain and name (migration/mapping normalisers).
CREATE INDEX contacts_email_norm_idx ON contacts (org_id, lower(btrim(email))) WHERE email IS NOT NULL;
CREATE INDEX leads_email_norm_idx ON leads (org_id, lower(btrim(email))) WHERE email IS NOT NULL;
CREATE INDEX accounts_domain_norm_idx ON accounts (org_id, lower(btrim(domain))) WHERE domain IS NOT NULL;
CREATE INDEX accounts_name_norm_idx ON accounts (org_id, lower(regexp_replace(btrim(name), '\s+', ' ', 'g')));
