/**
 * A comparable picture of what an organization holds after an import: every imported record by its
 * src_id with its field values, references written as the src_id of the record they lead to (ids
 * differ between organizations), and the run's issues. Two runs of the same source into two
 * organizations end in the same state exactly when their digests are equal.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../../src/db/database.ts'
import { recordKinds } from '../../src/records/kinds/index.ts'

/** Columns that legitimately differ between two imports of the same source. */
const VOLATILE = new Set(['org_id', 'id', 'updated_at', 'owner_id', 'author_user_id'])

export async function stateDigest(db: Kysely<DB>, orgId: string, migrationId: string): Promise<Record<string, unknown>> {
  const srcOf = new Map<string, string | null>()
  const tables: Record<string, Array<Record<string, unknown>>> = {}
  for (const kind of recordKinds) {
    const rows = await sql<Record<string, unknown>>`SELECT * FROM ${sql.raw(kind.table)} WHERE org_id = ${orgId}`.execute(db)
    for (const r of rows.rows) srcOf.set(String(r.id), (r.src_id as string | null) ?? null)
    tables[kind.table] = rows.rows
  }
  const digest: Record<string, unknown> = {}
  for (const kind of recordKinds) {
    const refs = new Set(kind.fields.filter((f) => f.type === 'ref').map((f) => f.name))
    digest[kind.table] = tables[kind.table]
      .map((r) => {
        const out: Record<string, unknown> = {}
        for (const [k, v] of Object.entries(r)) {
          if (VOLATILE.has(k)) continue
          out[k] = refs.has(k) && v !== null ? `src:${srcOf.get(String(v))}` : v instanceof Date ? v.toISOString() : v
        }
        return out
      })
      .sort((a, b) => String(a.src_id).localeCompare(String(b.src_id)))
  }
  const issues = await sql<Record<string, unknown>>`
    SELECT object, src_id, kind, code, field FROM migration_issues WHERE org_id = ${orgId} AND migration_id = ${migrationId}
    ORDER BY object, src_id, code, field`.execute(db)
  digest.issues = issues.rows
  return digest
}
