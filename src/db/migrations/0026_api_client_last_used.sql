-- Settings -> API's "Last used" showed oauth_client_access.last_used_at, which was written when the
-- client obtained tokens (a code exchange or a refresh), not when it used one: a client that got a
-- token and never called the API read as used. That column keeps what it always held, under its
-- true name; last_used_at is new and says when a token of the client was last accepted on a request
-- (REST or MCP), to the minute (src/oauth/client-use.ts). No use was ever recorded, so every client
-- reads "Never" until its next request.
ALTER TABLE oauth_client_access RENAME COLUMN last_used_at TO last_issued_at;
ALTER TABLE oauth_client_access ADD COLUMN last_used_at timestamptz;
