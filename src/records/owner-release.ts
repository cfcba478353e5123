/**
 * A person leaving the organization leaves their records without an owner. The foreign keys'
 * `ON DELETE SET NULL (owner_id)` on memberships used to do it: a write to every record kind that no
 * journal heard of. The member's removal now runs in a write transaction and hands the release to
 * records first, so each record that loses its owner is an ordinary `updated` change, journaled
 * with who removed the member and in the same operation.
 */
import { sql } from 'kysely'
import type { RecordChange } from './record.service.ts'
import { recordKinds } from './kinds/index.ts'
import { recordJsonText } from './record-sql.ts'
import type { WriteTx } from './write-context.ts'

/** Clears `owner_id` wherever `userId` owns a record of the writer's organization, and journals each such record as updated. */
export async function releaseOwnedRecords(tx: WriteTx, userId: string): Promise<number> {
  const orgId = tx.writer.auth.orgId
  let released = 0
  for (const kind of recordKinds.filter((k) => k.fields.some((f) => f.name === 'owner_id'))) {
    const table = sql.raw(kind.table)
    const res = await sql<{ id: string; before: string; after: string }>`
      UPDATE ${table} AS h SET owner_id = NULL, updated_at = now()
      FROM ${table} AS o
      WHERE h.org_id = ${orgId} AND h.owner_id = ${userId} AND o.org_id = ${orgId} AND o.id = h.id
      RETURNING h.id, ${sql.raw(recordJsonText(kind, 'o'))} AS before, ${sql.raw(recordJsonText(kind, 'h'))} AS after`.execute(tx.trx)
    const changes: RecordChange[] = res.rows.map((r) => ({ kind, id: r.id, before: JSON.parse(r.before), after: JSON.parse(r.after) }))
    await tx.changed('updated', changes)
    released += changes.length
  }
  return released
}
