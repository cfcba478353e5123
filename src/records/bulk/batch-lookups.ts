/**
 * What a batch asks the database before it writes, one statement per question whatever the batch's
 * size: which of its ids or src_ids exist (locked, so nothing changes them before the write), which
 * src_ids are taken, and which references point nowhere. Each key is its own index probe
 * (db/each-key.ts), so the plans do not depend on the tables' statistics.
 */
import { sql } from 'kysely'
import { eachKey } from '../../db/each-key.ts'
import type { FieldError } from '../../shared/errors.ts'
import { kindsByName } from '../kinds/index.ts'
import type { RecordKind } from '../record-kind.ts'
import type { Executor } from '../record.repository.ts'
import { withArticle } from '../record-labels.ts'

/**
 * key -> id of the records found by `by`, locked FOR UPDATE until the transaction ends. The keys
 * are probed, and so locked, in sorted order: two batches naming the same records in different
 * orders then queue behind each other instead of each holding what the other waits for (a
 * deadlock, which PostgreSQL breaks only after deadlock_timeout by failing one of them).
 */
export async function findExisting(db: Executor, orgId: string, kind: RecordKind, by: 'id' | 'src_id', given: readonly string[], caseId?: string): Promise<Map<string, string>> {
  if (given.length === 0) return new Map()
  const keys = [...new Set(by === 'id' ? given.map((k) => k.toLowerCase()) : given)].sort()
  const t = sql.raw(kind.table)
  const column = sql.ref(by)
  const onCase = caseId ? sql` AND case_id = ${caseId}` : sql``
  const res = await sql<{ k: string; id: string }>`
    SELECT w.k::text AS k, f.id::text AS id
    FROM ${eachKey(keys, by === 'id' ? 'uuid' : 'text', 'f', (k) => sql`SELECT id FROM ${t} WHERE org_id = ${orgId} AND ${column} = ${k}${onCase} FOR UPDATE`)}`.execute(db)
  return new Map(res.rows.map((r) => [r.k, r.id]))
}

/** The src_ids among `srcIds` that records of the kind already carry. */
export async function takenSrcIds(db: Executor, orgId: string, kind: RecordKind, srcIds: readonly string[]): Promise<Set<string>> {
  return new Set((await findExisting(db, orgId, kind, 'src_id', srcIds)).keys())
}

/**
 * Items whose references name no record of the right kind (or no member, for users) in the
 * organization. Found references are locked FOR KEY SHARE, so they cannot vanish before the write.
 */
export async function missingReferences(db: Executor, orgId: string, kind: RecordKind, items: ReadonlyArray<{ index: number; values: { fields: Record<string, unknown> } }>): Promise<FieldError[]> {
  const errors: FieldError[] = []
  for (const field of kind.fields) {
    if (field.type !== 'ref' && field.type !== 'user') continue
    const wanted = new Set<string>()
    for (const item of items) {
      const value = item.values.fields[field.name]
      if (typeof value === 'string') wanted.add(value.toLowerCase())
    }
    if (wanted.size === 0) continue
    const found = new Set(
      (
        await sql<{ k: string }>`
          SELECT w.k::text AS k
          FROM ${eachKey([...wanted], 'uuid', 'f', (k) =>
            field.type === 'user'
              ? sql`SELECT 1 FROM memberships WHERE org_id = ${orgId} AND user_id = ${k} FOR KEY SHARE`
              : sql`SELECT 1 FROM ${sql.raw(kindsByName[field.ref!].table)} WHERE org_id = ${orgId} AND id = ${k} FOR KEY SHARE`,
          )}`.execute(db)
      ).rows.map((r) => r.k),
    )
    const target = field.type === 'user' ? 'a member of this organization' : `${withArticle(field.ref!)} of this organization`
    for (const item of items) {
      const value = item.values.fields[field.name]
      if (typeof value === 'string' && !found.has(value.toLowerCase())) errors.push({ index: item.index, field: `records[${item.index}].${field.name}`, message: `must be the id of ${target}` })
    }
  }
  return errors
}
