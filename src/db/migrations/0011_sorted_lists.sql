-- Sorted lists, range filters and counts (docs/api.md, Lists).
--
-- 1. record_tombstones keeps, for 30 days, every deleted record's id, deletion time and the values
--    of its kind's sortable columns. A sorted list's cursor may name a record deleted since its
--    page was served: the tombstone still places it, so the listing continues exactly where it
--    was (the default order needs none: the id is the position). `GET /{kind}/deleted` lists them
--    for sync clients. A statement trigger with a transition table writes them, so every delete
--    path (single, batch, cascades such as a case's comments) is covered without having to
--    remember it, and the record tables never hold a deleted row: reads, references, unique
--    src_ids and counts stay exactly as they were. Housekeeping deletes expired tombstones hourly.
--    No foreign key to organizations, for migration 0006's reason.
CREATE TABLE record_tombstones (
  org_id      uuid NOT NULL,
  -- The record table (accounts, cases, ...).
  kind        text NOT NULL,
  id          uuid NOT NULL,
  deleted_at  timestamptz NOT NULL,
  -- Column name -> value as JSON: the sortable columns only (the trigger's arguments).
  sort_values jsonb NOT NULL,
  PRIMARY KEY (org_id, kind, id)
);
-- `GET /{kind}/deleted` pages newest deletion first.
CREATE INDEX record_tombstones_deleted_idx ON record_tombstones (org_id, kind, deleted_at, id);
CREATE INDEX record_tombstones_expiry_idx ON record_tombstones (deleted_at);

CREATE FUNCTION keep_record_tombstones() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO record_tombstones (org_id, kind, id, deleted_at, sort_values)
  SELECT o.org_id, TG_TABLE_NAME, o.id, now(),
         (SELECT jsonb_object_agg(e.key, e.value) FROM jsonb_each(to_jsonb(o)) e WHERE e.key = ANY (TG_ARGV))
  FROM old_rows o
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

-- The arguments are each kind's sortable columns besides created_at (whose order is the id's):
-- the fields marked `sort` in src/records/kinds/*.kind.ts, plus updated_at.
CREATE TRIGGER accounts_deleted AFTER DELETE ON accounts REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION keep_record_tombstones('updated_at', 'name', 'annual_revenue');
CREATE TRIGGER contacts_deleted AFTER DELETE ON contacts REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION keep_record_tombstones('updated_at', 'last_name');
CREATE TRIGGER opportunities_deleted AFTER DELETE ON opportunities REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION keep_record_tombstones('updated_at', 'name', 'stage', 'amount', 'close_date');
CREATE TRIGGER leads_deleted AFTER DELETE ON leads REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION keep_record_tombstones('updated_at', 'last_name', 'company', 'status');
CREATE TRIGGER products_deleted AFTER DELETE ON products REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION keep_record_tombstones('updated_at', 'name', 'unit_price');
CREATE TRIGGER cases_deleted AFTER DELETE ON cases REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION keep_record_tombstones('updated_at', 'case_number', 'subject', 'status', 'priority');
CREATE TRIGGER case_comments_deleted AFTER DELETE ON case_comments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION keep_record_tombstones('updated_at');
CREATE TRIGGER activities_deleted AFTER DELETE ON activities REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION keep_record_tombstones('updated_at', 'subject', 'status', 'priority', 'due_date', 'start_at');

-- 2. One index (org_id, field, id) per sortable field: the keyset (sort value, id) is then an index
--    range in both directions, NULLs included (they are the `field IS NULL` range, paged by id).
--    Already there from 0002: opportunities stage, leads status, cases status and priority,
--    activities status and priority; cases case_number is unique, so (org_id, case_number) orders
--    it alone. updated_at's (org_id, updated_at) gains the id.
DO $$
DECLARE
  t text;
  c text;
BEGIN
  FOREACH t IN ARRAY ARRAY['accounts', 'contacts', 'opportunities', 'leads', 'products', 'cases', 'case_comments', 'activities'] LOOP
    EXECUTE format('DROP INDEX %I', t || '_updated_at_idx');
    EXECUTE format('CREATE INDEX %I ON %I (org_id, updated_at, id)', t || '_updated_at_idx', t);
  END LOOP;
  FOR t, c IN VALUES
    ('accounts', 'name'), ('accounts', 'annual_revenue'),
    ('contacts', 'last_name'),
    ('opportunities', 'name'), ('opportunities', 'amount'), ('opportunities', 'close_date'),
    ('leads', 'last_name'), ('leads', 'company'),
    ('products', 'name'), ('products', 'unit_price'),
    ('cases', 'subject'),
    ('activities', 'subject'), ('activities', 'due_date'), ('activities', 'start_at')
  LOOP
    EXECUTE format('CREATE INDEX %I ON %I (org_id, %I, id)', t || '_' || c || '_idx', t, c);
  END LOOP;
END $$;
