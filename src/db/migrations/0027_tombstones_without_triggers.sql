-- Tombstones of deleted records are written by the statement that deletes them (the records' write
-- path, src/records/record-tombstones.ts deletedWithTombstones), no longer by statement triggers on
-- the record tables: a sharded PostgreSQL (Citus) refuses triggers on distributed tables, and a
-- write that says what it does is easier to follow than one a trigger completes behind its back.
DROP TRIGGER IF EXISTS accounts_deleted ON accounts;
DROP TRIGGER IF EXISTS contacts_deleted ON contacts;
DROP TRIGGER IF EXISTS opportunities_deleted ON opportunities;
DROP TRIGGER IF EXISTS leads_deleted ON leads;
DROP TRIGGER IF EXISTS products_deleted ON products;
DROP TRIGGER IF EXISTS cases_deleted ON cases;
DROP TRIGGER IF EXISTS case_comments_deleted ON case_comments;
DROP TRIGGER IF EXISTS activities_deleted ON activities;
DROP FUNCTION IF EXISTS keep_record_tombstones();
