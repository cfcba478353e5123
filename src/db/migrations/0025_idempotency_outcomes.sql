-- Idempotency that holds across a crash (docs/api.md, Idempotent retries): a keyed write records,
-- in its own transaction, that it committed and what it produced, so a retry after a crash between
-- the commit and the stored answer replays that outcome instead of writing again.
--
-- `scopes`: the scopes of the caller that claimed the key (space-separated, sorted). The answer was
--   shaped for them; a retry with other scopes is refused rather than shown what it may not read.
-- `committed_at`: set by the first write transaction of the request that committed; a claim with it
--   is never taken over as if nothing had happened, even once its lease lapsed.
-- `outcomes`: what each committed write transaction of the request returned, in order, until the
--   answer is stored (then cleared): the retry's handler gets these back instead of writing.
-- `sealed`: the answer and outcomes hold a secret shown once (a webhook's signing secret, an API
--   client's secret, an invitation link) and are kept sealed with the service's key, never in the clear.
ALTER TABLE idempotency_keys ADD COLUMN scopes text;
ALTER TABLE idempotency_keys ADD COLUMN sealed boolean NOT NULL DEFAULT false;
ALTER TABLE idempotency_keys ADD COLUMN committed_at timestamptz;
ALTER TABLE idempotency_keys ADD COLUMN outcomes jsonb;
