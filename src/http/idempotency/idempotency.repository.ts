/**
 * The idempotency_keys table: claim a key, find who holds it, keep or drop the answer, renew a
 * claim's lease, and prune expired keys. Every statement is one atomic SQL statement, so several
 * processes on one PostgreSQL need no other coordination.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'

type Executor = Kysely<DB>

export interface KeyRef {
  orgId: string
  principal: string
  key: string
}

export interface StoredAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

export interface KeyRow {
  fingerprint: string
  answer: StoredAnswer | null
}

/**
 * Claims the key for this request: inserts it, or takes over a row that no longer counts (expired,
 * or a claim whose lease ran out because its process died). True when this request holds the key.
 * INSERT ... ON CONFLICT decides between racing requests on any number of processes: the row's
 * lock makes the second one wait and re-check the WHERE against the first one's row.
 */
export async function claimKey(db: Executor, ref: KeyRef, fingerprint: string, claimId: string, now: Date, leaseUntil: Date, expiresAt: Date): Promise<boolean> {
  const res = await sql<{ claim_id: string }>`
    INSERT INTO idempotency_keys AS k (org_id, principal, key, fingerprint, claim_id, locked_until, created_at, expires_at)
    VALUES (${ref.orgId}, ${ref.principal}, ${ref.key}, ${fingerprint}, ${claimId}, ${leaseUntil}, ${now}, ${expiresAt})
    ON CONFLICT (org_id, principal, key) DO UPDATE SET
      fingerprint = excluded.fingerprint, claim_id = excluded.claim_id, locked_until = excluded.locked_until,
      created_at = excluded.created_at, expires_at = excluded.expires_at,
      response_status = NULL, response_headers = NULL, response_body = NULL
    WHERE k.expires_at <= ${now} OR (k.response_status IS NULL AND k.locked_until <= ${now})
    RETURNING claim_id`.execute(db)
  return res.rows[0]?.claim_id === claimId
}

export async function findKey(db: Executor, ref: KeyRef): Promise<KeyRow | null> {
  const res = await sql<{ fingerprint: string; response_status: number | null; response_headers: unknown; response_body: string | null }>`
    SELECT fingerprint, response_status, response_headers, response_body FROM idempotency_keys
    WHERE org_id = ${ref.orgId} AND principal = ${ref.principal} AND key = ${ref.key}`.execute(db)
  const row = res.rows[0]
  if (!row) return null
  if (row.response_status === null) return { fingerprint: row.fingerprint, answer: null }
  const headers = typeof row.response_headers === 'string' ? JSON.parse(row.response_headers) : row.response_headers
  return { fingerprint: row.fingerprint, answer: { status: Number(row.response_status), headers: headers as Record<string, string>, body: row.response_body ?? '' } }
}

/** Keeps the answer, if this request still holds the claim. */
export async function storeAnswer(db: Executor, ref: KeyRef, claimId: string, answer: StoredAnswer): Promise<void> {
  await sql`
    UPDATE idempotency_keys SET response_status = ${answer.status}, response_headers = CAST(${JSON.stringify(answer.headers)} AS jsonb),
      response_body = ${answer.body}, locked_until = NULL
    WHERE org_id = ${ref.orgId} AND principal = ${ref.principal} AND key = ${ref.key} AND claim_id = ${claimId}`.execute(db)
}

/** Frees the key for a retry, if this request still holds the claim. */
export async function releaseKey(db: Executor, ref: KeyRef, claimId: string): Promise<void> {
  await sql`DELETE FROM idempotency_keys
    WHERE org_id = ${ref.orgId} AND principal = ${ref.principal} AND key = ${ref.key} AND claim_id = ${claimId}`.execute(db)
}

export async function renewLease(db: Executor, ref: KeyRef, claimId: string, leaseUntil: Date): Promise<void> {
  await sql`UPDATE idempotency_keys SET locked_until = ${leaseUntil}
    WHERE org_id = ${ref.orgId} AND principal = ${ref.principal} AND key = ${ref.key} AND claim_id = ${claimId} AND response_status IS NULL`.execute(db)
}

export async function pruneIdempotencyKeys(db: Executor, now: Date): Promise<void> {
  await sql`DELETE FROM idempotency_keys WHERE expires_at <= ${now}`.execute(db)
}
