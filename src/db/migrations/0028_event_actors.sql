-- Who made each change (docs/webhooks.md, Event bodies): every journal entry records its actor (the
-- person, the API client whose token was used, the channel the change came in by) and the operation
-- it was part of (one request, batch, CSV import run or migration run), so history can say who
-- changed what and an operation can be found, and undone, as a whole. Entries written before this
-- migration have none (NULL).
ALTER TABLE events ADD COLUMN actor_user_id uuid;
ALTER TABLE events ADD COLUMN actor_client_id text;
ALTER TABLE events ADD COLUMN channel text;
ALTER TABLE events ADD COLUMN operation_id uuid;
-- An operation's changes, for its history and its undo.
CREATE INDEX events_operation_idx ON events (org_id, operation_id) WHERE operation_id IS NOT NULL;
