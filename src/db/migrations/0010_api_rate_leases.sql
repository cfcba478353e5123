-- Rate limits of /api/v1 and /mcp (docs/api.md, Rate limits): one row per budget (an organization,
-- or an API client within an organization) and fixed window. `leased` is how much of the window's
-- quota service processes have taken so far; each process takes a share at a time (a lease) and
-- spends it from memory, so a request costs no write here. `last_lease` is the size of the latest
-- lease, so the statement that takes one can return it: RETURNING sees only the new row.
--
-- Unlogged, as rate_limit_counters (0003): a window lost in a crash costs nothing, and no lease
-- waits for an fsync. Housekeeping deletes windows an hour old.
CREATE UNLOGGED TABLE api_rate_leases (
  budget        text NOT NULL,
  window_start  timestamptz NOT NULL,
  leased        integer NOT NULL,
  last_lease    integer NOT NULL,
  PRIMARY KEY (budget, window_start)
);
