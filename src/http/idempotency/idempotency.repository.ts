/**
 * The idempotency_keys table: claim a key, find who holds it, keep or drop the answer, renew a
 * claim's lease, and prune expired keys. Every statement is one atomic SQL statement, so several
 * processes on one PostgreSQL need no other coordination.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import { ProblemError } from '../../shared/errors.ts'

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
  /** The scopes of the caller that claimed the key (sorted, space-separated); null on rows from before they were kept. */
  scopes: string | null
  answer: StoredAnswer | null
  /** The body and outcomes are sealed (the answer holds a secret). */
  sealed: boolean
  /** The first attempt committed a write (its outcomes are kept) but has not answered. */
  committed: boolean
}

/** The request no longer holds its key's claim (another took it over): its write must not commit. */
export class ClaimLost extends ProblemError {
  constructor() {
    super(409, 'idempotency_key_in_use', 'Idempotency-Key in use', 'Another request took over this Idempotency-Key while this one ran; nothing was written. Retry it to get that request\'s answer.', undefined, { 'retry-after': '1' })
  }
}

/**
 * Claims the key for this request: inserts it, or takes over a row that no longer counts (expired,
 * or a claim whose lease ran out because its process died). True when this request holds the key.
 * INSERT ... ON CONFLICT decides between racing requests on any number of processes: the row's
 * lock makes the second one wait and re-check the WHERE against the first one's row.
 */
export async function claimKey(db: Executor, ref: KeyRef, fingerprint: string, scopes: string, claimId: string, now: Date, leaseUntil: Date, expiresAt: Date): Promise<boolean> {
  // A lapsed claim is taken over only if it never committed: one that did is replayed instead (takeOverCommitted).
  const res = await sql<{ claim_id: string }>`
    INSERT INTO idempotency_keys AS k (org_id, principal, key, fingerprint, scopes, claim_id, locked_until, created_at, expires_at)
    VALUES (${ref.orgId}, ${ref.principal}, ${ref.key}, ${fingerprint}, ${scopes}, ${claimId}, ${leaseUntil}, ${now}, ${expiresAt})
    ON CONFLICT (org_id, principal, key) DO UPDATE SET
      fingerprint = excluded.fingerprint, scopes = excluded.scopes, sealed = false, claim_id = excluded.claim_id, locked_until = excluded.locked_until,
      created_at = excluded.created_at, expires_at = excluded.expires_at,
      response_status = NULL, response_headers = NULL, response_body = NULL, committed_at = NULL, outcomes = NULL
    WHERE k.expires_at <= ${now} OR (k.response_status IS NULL AND k.committed_at IS NULL AND k.locked_until <= ${now})
    RETURNING claim_id`.execute(db)
  return res.rows[0]?.claim_id === claimId
}

/**
 * Takes over a key whose first attempt committed but whose process died before answering (its
 * lease lapsed): the new claim reruns the request with the kept outcomes. Null when the key is not
 * in that state (still held, answered, or gone).
 */
export async function takeOverCommitted(db: Executor, ref: KeyRef, claimId: string, now: Date, leaseUntil: Date): Promise<unknown[] | null> {
  const res = await sql<{ outcomes: unknown }>`
    UPDATE idempotency_keys SET claim_id = ${claimId}, locked_until = ${leaseUntil}
    WHERE org_id = ${ref.orgId} AND principal = ${ref.principal} AND key = ${ref.key}
      AND response_status IS NULL AND committed_at IS NOT NULL AND locked_until <= ${now} AND expires_at > ${now}
    RETURNING outcomes`.execute(db)
  if (res.rows.length === 0) return null
  const outcomes = res.rows[0].outcomes
  return (typeof outcomes === 'string' ? JSON.parse(outcomes) : outcomes) as unknown[]
}

/**
 * Within a write's transaction: the request committed this outcome. The row lock it takes orders it
 * against any takeover, and a claim lost meanwhile (a lease that lapsed under a stalled process)
 * rolls the write back rather than let two requests write for one key.
 */
export async function recordOutcome(trx: Executor, ref: KeyRef, claimId: string, outcome: unknown): Promise<void> {
  const res = await sql`
    UPDATE idempotency_keys SET committed_at = coalesce(committed_at, now()),
      outcomes = coalesce(outcomes, CAST('[]' AS jsonb)) || jsonb_build_array(CAST(${JSON.stringify(outcome ?? null)} AS jsonb))
    WHERE org_id = ${ref.orgId} AND principal = ${ref.principal} AND key = ${ref.key} AND claim_id = ${claimId}`.execute(trx)
  if (Number(res.numAffectedRows ?? 0) !== 1) throw new ClaimLost()
}

export async function findKey(db: Executor, ref: KeyRef): Promise<KeyRow | null> {
  const res = await sql<{ fingerprint: string; scopes: string | null; sealed: boolean; response_status: number | null; response_headers: unknown; response_body: string | null; committed: boolean }>`
    SELECT fingerprint, scopes, sealed, response_status, response_headers, response_body, committed_at IS NOT NULL AS committed FROM idempotency_keys
    WHERE org_id = ${ref.orgId} AND principal = ${ref.principal} AND key = ${ref.key}`.execute(db)
  const row = res.rows[0]
  if (!row) return null
  const kept = { fingerprint: row.fingerprint, scopes: row.scopes, sealed: row.sealed, committed: row.committed }
  if (row.response_status === null) return { ...kept, answer: null }
  const headers = typeof row.response_headers === 'string' ? JSON.parse(row.response_headers) : row.response_headers
  return { ...kept, answer: { status: Number(row.response_status), headers: headers as Record<string, string>, body: row.response_body ?? '' } }
}

/** Keeps the answer, if this request still holds the claim. */
export async function storeAnswer(db: Executor, ref: KeyRef, claimId: string, answer: StoredAnswer, sealed: boolean): Promise<void> {
  await sql`
    UPDATE idempotency_keys SET response_status = ${answer.status}, response_headers = CAST(${JSON.stringify(answer.headers)} AS jsonb),
      response_body = ${answer.body}, sealed = ${sealed}, locked_until = NULL, outcomes = NULL
    WHERE org_id = ${ref.orgId} AND principal = ${ref.principal} AND key = ${ref.key} AND claim_id = ${claimId}`.execute(db)
}

/**
 * Frees the key for a retry, if this request still holds the claim. A claim whose request already
 * committed a write is not deleted: its lease ends now, so the retry replays what was committed.
 */
export async function releaseKey(db: Executor, ref: KeyRef, claimId: string): Promise<void> {
  await sql`DELETE FROM idempotency_keys
    WHERE org_id = ${ref.orgId} AND principal = ${ref.principal} AND key = ${ref.key} AND claim_id = ${claimId} AND committed_at IS NULL`.execute(db)
  await sql`UPDATE idempotency_keys SET locked_until = ${new Date(0)}
    WHERE org_id = ${ref.orgId} AND principal = ${ref.principal} AND key = ${ref.key} AND claim_id = ${claimId} AND committed_at IS NOT NULL AND response_status IS NULL`.execute(db)
}

export async function renewLease(db: Executor, ref: KeyRef, claimId: string, leaseUntil: Date): Promise<void> {
  await sql`UPDATE idempotency_keys SET locked_until = ${leaseUntil}
    WHERE org_id = ${ref.orgId} AND principal = ${ref.principal} AND key = ${ref.key} AND claim_id = ${claimId} AND response_status IS NULL`.execute(db)
}

export async function pruneIdempotencyKeys(db: Executor, now: Date): Promise<void> {
  await sql`DELETE FROM idempotency_keys WHERE expires_at <= ${now}`.execute(db)
}
