-- Saved views (docs/views.md): a named list (columns, filters, sort) of one kind, or a pipeline
-- board's filters, kept by a person for themselves or shared with the organization. `filters` is
-- the list's query parameters as sent to GET /api/v1/{kind} (`{"stage[in]": "proposal"}`), so a
-- view is read by the same grammar as every list. Keyed by org_id first like every other key; the
-- owner is a member (their views go with their membership).
CREATE TABLE saved_views (
  org_id         uuid NOT NULL,
  id             uuid NOT NULL,
  owner_user_id  uuid NOT NULL,
  kind           text NOT NULL,
  name           text NOT NULL,
  shared         boolean NOT NULL DEFAULT false,
  columns        jsonb NOT NULL DEFAULT '[]'::jsonb,
  filters        jsonb NOT NULL DEFAULT '{}'::jsonb,
  sort           text,
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL,
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, owner_user_id) REFERENCES memberships (org_id, user_id) ON DELETE CASCADE
);
-- A person's views of a kind and the organization's shared ones, in name order.
CREATE INDEX saved_views_by_kind ON saved_views (org_id, kind, name);
