-- The eight CRM record kinds. Every table leads its keys with org_id, so the schema can be sharded
-- by organization; references carry org_id too, so a record can only point inside its own organization.
-- Ids are UUIDv7 whose timestamp is created_at: ORDER BY id equals ORDER BY created_at, id.

CREATE TABLE accounts (
  org_id          uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  id              uuid NOT NULL,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  src_id          text,
  custom_fields   jsonb NOT NULL DEFAULT '{}',
  name            text NOT NULL,
  domain          text,
  website         text,
  industry        text,
  type            text,
  phone           text,
  billing_street  text,
  billing_city    text,
  billing_state   text,
  billing_postal_code text,
  billing_country text,
  annual_revenue  numeric(18,2),
  employee_count  integer,
  description     text,
  parent_account_id uuid,
  owner_id        uuid,
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, parent_account_id) REFERENCES accounts (org_id, id) ON DELETE SET NULL (parent_account_id),
  FOREIGN KEY (org_id, owner_id) REFERENCES memberships (org_id, user_id) ON DELETE SET NULL (owner_id)
);
CREATE INDEX accounts_parent_account_id_idx ON accounts (org_id, parent_account_id, id);
CREATE INDEX accounts_owner_id_idx ON accounts (org_id, owner_id, id);
CREATE UNIQUE INDEX accounts_src_id_key ON accounts (org_id, src_id) WHERE src_id IS NOT NULL;
CREATE INDEX accounts_updated_at_idx ON accounts (org_id, updated_at);

CREATE TABLE contacts (
  org_id          uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  id              uuid NOT NULL,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  src_id          text,
  custom_fields   jsonb NOT NULL DEFAULT '{}',
  first_name      text,
  last_name       text NOT NULL,
  email           text,
  phone           text,
  mobile_phone    text,
  title           text,
  department      text,
  account_id      uuid,
  mailing_street  text,
  mailing_city    text,
  mailing_state   text,
  mailing_postal_code text,
  mailing_country text,
  lead_source     text,
  description     text,
  owner_id        uuid,
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, account_id) REFERENCES accounts (org_id, id) ON DELETE SET NULL (account_id),
  FOREIGN KEY (org_id, owner_id) REFERENCES memberships (org_id, user_id) ON DELETE SET NULL (owner_id)
);
CREATE INDEX contacts_account_id_idx ON contacts (org_id, account_id, id);
CREATE INDEX contacts_owner_id_idx ON contacts (org_id, owner_id, id);
CREATE UNIQUE INDEX contacts_src_id_key ON contacts (org_id, src_id) WHERE src_id IS NOT NULL;
CREATE INDEX contacts_updated_at_idx ON contacts (org_id, updated_at);

CREATE TABLE opportunities (
  org_id          uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  id              uuid NOT NULL,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  src_id          text,
  custom_fields   jsonb NOT NULL DEFAULT '{}',
  name            text NOT NULL,
  account_id      uuid,
  stage           text NOT NULL DEFAULT 'prospecting' CHECK (stage IN ('prospecting', 'qualification', 'needs_analysis', 'proposal', 'negotiation', 'closed_won', 'closed_lost')),
  amount          numeric(18,2),
  currency        text NOT NULL DEFAULT 'USD',
  probability     integer,
  close_date      date,
  type            text,
  lead_source     text,
  next_step       text,
  description     text,
  owner_id        uuid,
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, account_id) REFERENCES accounts (org_id, id) ON DELETE SET NULL (account_id),
  FOREIGN KEY (org_id, owner_id) REFERENCES memberships (org_id, user_id) ON DELETE SET NULL (owner_id)
);
CREATE INDEX opportunities_account_id_idx ON opportunities (org_id, account_id, id);
CREATE INDEX opportunities_stage_idx ON opportunities (org_id, stage, id);
CREATE INDEX opportunities_owner_id_idx ON opportunities (org_id, owner_id, id);
CREATE UNIQUE INDEX opportunities_src_id_key ON opportunities (org_id, src_id) WHERE src_id IS NOT NULL;
CREATE INDEX opportunities_updated_at_idx ON opportunities (org_id, updated_at);

CREATE TABLE leads (
  org_id          uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  id              uuid NOT NULL,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  src_id          text,
  custom_fields   jsonb NOT NULL DEFAULT '{}',
  first_name      text,
  last_name       text NOT NULL,
  company         text NOT NULL,
  email           text,
  phone           text,
  title           text,
  status          text NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'working', 'nurturing', 'qualified', 'unqualified', 'converted')),
  source          text,
  rating          text,
  industry        text,
  description     text,
  converted_at    timestamptz,
  converted_account_id uuid,
  converted_contact_id uuid,
  converted_opportunity_id uuid,
  owner_id        uuid,
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, converted_account_id) REFERENCES accounts (org_id, id) ON DELETE SET NULL (converted_account_id),
  FOREIGN KEY (org_id, converted_contact_id) REFERENCES contacts (org_id, id) ON DELETE SET NULL (converted_contact_id),
  FOREIGN KEY (org_id, converted_opportunity_id) REFERENCES opportunities (org_id, id) ON DELETE SET NULL (converted_opportunity_id),
  FOREIGN KEY (org_id, owner_id) REFERENCES memberships (org_id, user_id) ON DELETE SET NULL (owner_id)
);
CREATE INDEX leads_status_idx ON leads (org_id, status, id);
CREATE INDEX leads_converted_account_id_idx ON leads (org_id, converted_account_id, id);
CREATE INDEX leads_converted_contact_id_idx ON leads (org_id, converted_contact_id, id);
CREATE INDEX leads_converted_opportunity_id_idx ON leads (org_id, converted_opportunity_id, id);
CREATE INDEX leads_owner_id_idx ON leads (org_id, owner_id, id);
CREATE UNIQUE INDEX leads_src_id_key ON leads (org_id, src_id) WHERE src_id IS NOT NULL;
CREATE INDEX leads_updated_at_idx ON leads (org_id, updated_at);

CREATE TABLE products (
  org_id          uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  id              uuid NOT NULL,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  src_id          text,
  custom_fields   jsonb NOT NULL DEFAULT '{}',
  name            text NOT NULL,
  code            text,
  description     text,
  family          text,
  unit_price      numeric(18,2),
  currency        text NOT NULL DEFAULT 'USD',
  is_active       boolean NOT NULL DEFAULT true,
  PRIMARY KEY (org_id, id)
);
CREATE UNIQUE INDEX products_src_id_key ON products (org_id, src_id) WHERE src_id IS NOT NULL;
CREATE INDEX products_updated_at_idx ON products (org_id, updated_at);

CREATE TABLE cases (
  org_id          uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  id              uuid NOT NULL,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  src_id          text,
  custom_fields   jsonb NOT NULL DEFAULT '{}',
  case_number     integer NOT NULL,
  subject         text NOT NULL,
  description     text,
  status          text NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'working', 'escalated', 'on_hold', 'closed')),
  priority        text NOT NULL DEFAULT 'medium' CHECK (priority IN ('low', 'medium', 'high', 'critical')),
  origin          text,
  type            text,
  account_id      uuid,
  contact_id      uuid,
  is_escalated    boolean NOT NULL DEFAULT false,
  escalated_at    timestamptz,
  closed_at       timestamptz,
  owner_id        uuid,
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, account_id) REFERENCES accounts (org_id, id) ON DELETE SET NULL (account_id),
  FOREIGN KEY (org_id, contact_id) REFERENCES contacts (org_id, id) ON DELETE SET NULL (contact_id),
  FOREIGN KEY (org_id, owner_id) REFERENCES memberships (org_id, user_id) ON DELETE SET NULL (owner_id)
);
CREATE INDEX cases_status_idx ON cases (org_id, status, id);
CREATE INDEX cases_priority_idx ON cases (org_id, priority, id);
CREATE INDEX cases_account_id_idx ON cases (org_id, account_id, id);
CREATE INDEX cases_contact_id_idx ON cases (org_id, contact_id, id);
CREATE INDEX cases_owner_id_idx ON cases (org_id, owner_id, id);
CREATE UNIQUE INDEX cases_src_id_key ON cases (org_id, src_id) WHERE src_id IS NOT NULL;
CREATE INDEX cases_updated_at_idx ON cases (org_id, updated_at);
CREATE UNIQUE INDEX cases_case_number_key ON cases (org_id, case_number);

CREATE TABLE case_comments (
  org_id          uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  id              uuid NOT NULL,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  src_id          text,
  custom_fields   jsonb NOT NULL DEFAULT '{}',
  case_id         uuid NOT NULL,
  body            text NOT NULL,
  is_public       boolean NOT NULL DEFAULT false,
  author_user_id  uuid,
  author_name     text,
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, case_id) REFERENCES cases (org_id, id) ON DELETE CASCADE,
  FOREIGN KEY (org_id, author_user_id) REFERENCES memberships (org_id, user_id) ON DELETE SET NULL (author_user_id)
);
CREATE INDEX case_comments_case_id_idx ON case_comments (org_id, case_id, id);
CREATE INDEX case_comments_author_user_id_idx ON case_comments (org_id, author_user_id, id);
CREATE UNIQUE INDEX case_comments_src_id_key ON case_comments (org_id, src_id) WHERE src_id IS NOT NULL;
CREATE INDEX case_comments_updated_at_idx ON case_comments (org_id, updated_at);

CREATE TABLE activities (
  org_id          uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  id              uuid NOT NULL,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  src_id          text,
  custom_fields   jsonb NOT NULL DEFAULT '{}',
  kind            text NOT NULL CHECK (kind IN ('task', 'event', 'call', 'email', 'note')),
  subject         text NOT NULL,
  description     text,
  status          text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'in_progress', 'completed', 'cancelled')),
  priority        text NOT NULL DEFAULT 'normal' CHECK (priority IN ('low', 'normal', 'high')),
  due_date        date,
  start_at        timestamptz,
  end_at          timestamptz,
  location        text,
  contact_id      uuid,
  account_id      uuid,
  case_id         uuid,
  opportunity_id  uuid,
  lead_id         uuid,
  owner_id        uuid,
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, contact_id) REFERENCES contacts (org_id, id) ON DELETE SET NULL (contact_id),
  FOREIGN KEY (org_id, account_id) REFERENCES accounts (org_id, id) ON DELETE SET NULL (account_id),
  FOREIGN KEY (org_id, case_id) REFERENCES cases (org_id, id) ON DELETE SET NULL (case_id),
  FOREIGN KEY (org_id, opportunity_id) REFERENCES opportunities (org_id, id) ON DELETE SET NULL (opportunity_id),
  FOREIGN KEY (org_id, lead_id) REFERENCES leads (org_id, id) ON DELETE SET NULL (lead_id),
  FOREIGN KEY (org_id, owner_id) REFERENCES memberships (org_id, user_id) ON DELETE SET NULL (owner_id)
);
CREATE INDEX activities_kind_idx ON activities (org_id, kind, id);
CREATE INDEX activities_status_idx ON activities (org_id, status, id);
CREATE INDEX activities_priority_idx ON activities (org_id, priority, id);
CREATE INDEX activities_contact_id_idx ON activities (org_id, contact_id, id);
CREATE INDEX activities_account_id_idx ON activities (org_id, account_id, id);
CREATE INDEX activities_case_id_idx ON activities (org_id, case_id, id);
CREATE INDEX activities_opportunity_id_idx ON activities (org_id, opportunity_id, id);
CREATE INDEX activities_lead_id_idx ON activities (org_id, lead_id, id);
CREATE INDEX activities_owner_id_idx ON activities (org_id, owner_id, id);
CREATE UNIQUE INDEX activities_src_id_key ON activities (org_id, src_id) WHERE src_id IS NOT NULL;
CREATE INDEX activities_updated_at_idx ON activities (org_id, updated_at);

