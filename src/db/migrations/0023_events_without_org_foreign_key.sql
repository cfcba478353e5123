-- The event journal no longer references organizations(id), for the reasons migration 0006 gave for
-- the record tables: the foreign key checked the organization on every event row and took FOR KEY
-- SHARE on its one row, so every writer of an organization (API processes, imports, migrations)
-- met on that row, in the statement every record write runs (src/webhooks/outbox.ts); in a
-- 1,000-contact import page it was a quarter of the journal insert's time (4.2 of 16.7 ms). What
-- it guarded holds without it: an event's org_id is its record's, which comes only from the
-- authenticated principal, and organizations are never deleted (deleting one, when it is offered,
-- must delete its events explicitly, as its records).
ALTER TABLE events DROP CONSTRAINT IF EXISTS events_org_id_fkey;
