-- Search across record kinds (GET /api/v1/search, the app's command palette) and the lists' `q`
-- filter (docs/api.md, Search). Two indexes per searched column, both led by org_id:
--
-- 1. (org_id, lower(column) text_pattern_ops), a btree: exact and prefix matches of any length as
--    one ordered index range (`lower(c) ~>=~ 'smi' AND lower(c) ~<~ 'smi' || U+10FFFF`), so short
--    queries (1-2 characters, prefix only) and the best-ranked matches cost a few index pages
--    however large the organization.
-- 2. (org_id, column gin_trgm_ops), a GIN of trigrams (pg_trgm; btree_gin for the uuid column):
--    substring matches (`c ILIKE '%smith%'`, 3 characters or more), which is what a list's `q`
--    filter asks, so it stops being a scan of the organization's records.
--
-- The searched columns are the fields marked `search` in src/records/kinds/*.kind.ts, except case
-- comments' body (long text, read only within its case, never searched across kinds);
-- test/records/search.test.ts checks each has both indexes. Case numbers are found through the
-- unique (org_id, case_number) index of migration 0002.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS btree_gin;

DO $$
DECLARE
  t text;
  c text;
BEGIN
  FOR t, c IN VALUES
    ('accounts', 'name'), ('accounts', 'domain'),
    ('contacts', 'first_name'), ('contacts', 'last_name'), ('contacts', 'email'),
    ('leads', 'first_name'), ('leads', 'last_name'), ('leads', 'company'), ('leads', 'email'),
    ('opportunities', 'name'),
    ('products', 'name'), ('products', 'code'),
    ('cases', 'subject'),
    ('activities', 'subject')
  LOOP
    EXECUTE format('CREATE INDEX %I ON %I (org_id, lower(%I) text_pattern_ops)', t || '_' || c || '_prefix_idx', t, c);
    EXECUTE format('CREATE INDEX %I ON %I USING gin (org_id, %I gin_trgm_ops)', t || '_' || c || '_trgm_idx', t, c);
  END LOOP;
END $$;
