-- Thin webhooks (issue 20, the event catalogue): an endpoint may ask for `{id, seq, type, timestamp,
-- object_id}` only and read the rest from the API. `seq` exists once the sequencer numbered the
-- event (src/events/sequencer.ts), so a thin delivery is claimed only after that.
ALTER TABLE webhooks ADD COLUMN payload text NOT NULL DEFAULT 'full' CHECK (payload IN ('full', 'thin'));
