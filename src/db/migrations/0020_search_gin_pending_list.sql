-- Writes pay for search (migration 0015): three trigram GINs made a 50,000-contact insert 2.5x as
-- slow as without them. A GIN first appends new entries to its pending list and merges the list
-- into the index once it passes gin_pending_list_limit (4 MB by default); merging fewer, larger
-- lists costs less per row. With 64 MB the same insert took a third less time (docs/benchmarks.md,
-- Search). What it costs: until the list is merged (when it fills, or at the table's next
-- autovacuum or ANALYZE), a substring search also reads the list's entries sequentially.
DO $$
DECLARE
  i text;
BEGIN
  FOR i IN SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND indexname LIKE '%\_trgm\_idx'
  LOOP
    EXECUTE format('ALTER INDEX %I SET (gin_pending_list_limit = 65536)', i);
  END LOOP;
END $$;
