-- Standard picklists (docs/custom-fields.md, Standard picklists): an organization's options for a
-- built-in text field whose values are a fixed set (account industry and type, lead source, case
-- origin...). No row: the field's starting options (src/records/kinds/standard-picklists.ts). The
-- values stay in the record tables' own columns; records holding a value outside the options keep
-- it. Keyed by org_id first like every other key; no foreign key to organizations (migration 0006).
CREATE TABLE picklist_options (
  org_id      uuid NOT NULL,
  kind        text NOT NULL,
  field       text NOT NULL,
  -- The options in display order (a JSON array of distinct, non-blank strings).
  options     jsonb NOT NULL,
  updated_at  timestamptz NOT NULL,
  PRIMARY KEY (org_id, kind, field)
);
