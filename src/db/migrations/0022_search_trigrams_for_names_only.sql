-- Search indexes cost writes by what they hold (docs/benchmarks.md, CSV imports): a trigram GIN
-- stores about one entry per character of the value, so the GINs of migration 0015 on e-mail
-- addresses, domains and product codes, the longest searched values, made most of what search
-- added to an insert (a 100,000-contact insert: 0.85 s without search indexes, 2.2 s with them,
-- 1.4 s without the e-mail GIN). People look for those values from their start (`ada@`, `acme`,
-- `DE-1`), and for an address also from the start of its domain, which a btree serves at a fraction
-- of the cost. So (src/records/record-kind.ts, SearchMode):
-- - `contains` fields (names, subjects) keep their trigram GIN and prefix btree;
-- - `prefix` fields (accounts.domain, products.code) keep only the prefix btree;
-- - `email` fields (contacts.email, leads.email) keep the address's prefix btree and gain one on
--   its domain, `lower(split_part(email, '@', 2))`.
DROP INDEX IF EXISTS contacts_email_trgm_idx;
DROP INDEX IF EXISTS leads_email_trgm_idx;
DROP INDEX IF EXISTS accounts_domain_trgm_idx;
DROP INDEX IF EXISTS products_code_trgm_idx;
CREATE INDEX contacts_email_domain_prefix_idx ON contacts (org_id, lower(split_part(email, '@', 2)) text_pattern_ops);
CREATE INDEX leads_email_domain_prefix_idx ON leads (org_id, lower(split_part(email, '@', 2)) text_pattern_ops);
