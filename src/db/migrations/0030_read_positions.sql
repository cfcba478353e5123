-- Read-your-writes with streaming replicas (src/db/read-replicas.ts): the primary's WAL insert
-- position after each credential's (session or token, by hash) last write, read before a request's
-- reads are routed, so every service process sees what any process wrote for the caller. A replica
-- serves the caller only once it has replayed past this position.
--
-- UNLOGGED: written on every write request, so it writes no WAL (and so nothing to replicate); it is
-- emptied by a crash or on a promoted standby, which the routing covers with a floor (the new
-- primary's position when the service switched to it). Used only when DATABASE_READ_URLS is set.
-- On Citus it is a coordinator-local table: keyed by credential, read with the primary's own lookups.
CREATE UNLOGGED TABLE read_positions (
  credential text PRIMARY KEY,
  lsn pg_lsn NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
