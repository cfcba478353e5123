-- Custom field definitions (docs/custom-fields.md): what an organization's administrators declare
-- about keys of a kind's `custom_fields` object. Values stay in the record tables' custom_fields
-- column; a definition makes its key typed, validated on every write, shown in the app, filterable
-- and listed in the OpenAPI document and the MCP tools.
--
-- `kind` is the kind's name (contact, opportunity, ...). `name` is the key in custom_fields:
-- snake_case, unique per organization and kind, never changed after creation. The key leads with
-- org_id like every other key; no foreign key to organizations, for migration 0006's reason.
CREATE TABLE custom_field_definitions (
  org_id      uuid NOT NULL,
  id          uuid NOT NULL,
  kind        text NOT NULL,
  name        text NOT NULL CHECK (name ~ '^[a-z][a-z0-9_]{0,62}$'),
  label       text NOT NULL,
  type        text NOT NULL CHECK (type IN ('text', 'number', 'date', 'boolean', 'picklist')),
  -- Picklists: the allowed values in display order; an empty array for other types.
  options     jsonb NOT NULL DEFAULT '[]'::jsonb,
  required    boolean NOT NULL DEFAULT false,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL,
  PRIMARY KEY (org_id, id),
  UNIQUE (org_id, kind, name)
);
