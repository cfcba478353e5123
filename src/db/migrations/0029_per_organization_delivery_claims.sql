-- Deliveries are claimed one organization at a time (docs/scale-out.md, Query rules): on Citus a
-- claim must lock rows of one shard only. This index finds an organization's due deliveries in
-- due order; webhook_deliveries_due_idx still serves the look for organizations with work due.
CREATE INDEX webhook_deliveries_due_org_idx ON webhook_deliveries (org_id, next_attempt_at) WHERE status = 'pending';
