/**
 * The stream_slots table (migration 0024): one row per open long-lived response, so the caps per
 * organization and per client hold across every service process. Taking a slot counts and inserts
 * under a transaction-scoped advisory lock of the organization, so two processes opening the last
 * slot at once cannot both get it. Times are the database's, so the processes' clocks need not agree.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'

export interface SlotRequest {
  orgId: string
  holder: string
  kind: string
  id: string
}

/** Which cap refused the slot, or null when it was taken. */
export type SlotRefusal = 'org' | 'client' | null

export async function takeSlot(db: Kysely<DB>, slot: SlotRequest, caps: { perOrg: number; perClient: number }, ttlSeconds: number): Promise<SlotRefusal> {
  return db.transaction().execute(async (trx) => {
    // Slot counts of one organization are serialised; hashtextextended keys the lock by organization.
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`stream_slots:${slot.orgId}`}, 0))`.execute(trx)
    const counts = await sql<{ org: string; holder: string }>`
      SELECT count(*) AS org, count(*) FILTER (WHERE holder = ${slot.holder}) AS holder
      FROM stream_slots WHERE org_id = ${slot.orgId} AND expires_at > now()`.execute(trx)
    const { org, holder } = counts.rows[0]
    if (Number(org) >= caps.perOrg) return 'org'
    if (Number(holder) >= caps.perClient) return 'client'
    await sql`INSERT INTO stream_slots (org_id, id, holder, kind, opened_at, expires_at)
      VALUES (${slot.orgId}, ${slot.id}, ${slot.holder}, ${slot.kind}, now(), now() + make_interval(secs => ${ttlSeconds}))`.execute(trx)
    return null
  })
}

/** Keeps the slots of this process's open responses counted: one statement for all of them. */
export async function renewSlots(db: Kysely<DB>, slots: readonly { orgId: string; id: string }[], ttlSeconds: number): Promise<void> {
  if (slots.length === 0) return
  await sql`UPDATE stream_slots s SET expires_at = now() + make_interval(secs => ${ttlSeconds})
    FROM unnest(CAST(${slots.map((s) => s.orgId)} AS uuid[]), CAST(${slots.map((s) => s.id)} AS uuid[])) AS open(org_id, id)
    WHERE s.org_id = open.org_id AND s.id = open.id`.execute(db)
}

export async function releaseSlot(db: Kysely<DB>, orgId: string, id: string): Promise<void> {
  await sql`DELETE FROM stream_slots WHERE org_id = ${orgId} AND id = ${id}`.execute(db)
}

/** Housekeeping: slots of processes that died without releasing them. */
export async function pruneSlots(db: Kysely<DB>): Promise<void> {
  await sql`DELETE FROM stream_slots WHERE expires_at <= now()`.execute(db)
}
