/**
 * The other direction of reference-lookup.ts: the name a reference is written with in a file
 * (docs/imports.md, "Exports"), so that an exported file reads "Acme" where the API says an id, and
 * imports back by that name into another organization. Records by the name resolveReferences finds
 * them by (an account's name, a contact's "first last", a case's subject); members by email.
 */
import { sql } from 'kysely'
import { jsonArray } from '../../db/json-array.ts'
import { kindsByName } from '../kinds/index.ts'
import type { FieldDef } from '../record-kind.ts'
import type { Executor } from '../record.repository.ts'

/** Id -> name of each record (or member) of the organization these ids name; unknown ids are left out. */
export async function referenceNames(db: Executor, orgId: string, field: FieldDef, ids: readonly string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids)]
  const names = new Map<string, string>()
  if (wanted.length === 0) return names
  const idList = sql`SELECT CAST(json_array_elements_text(CAST(${jsonArray(wanted)} AS json)) AS uuid)`
  const r =
    field.type === 'user'
      ? await sql<{ id: string; name: string }>`
          SELECT u.id, u.email AS name FROM users u JOIN memberships ms ON ms.user_id = u.id AND ms.org_id = ${orgId}
          WHERE u.id IN (${idList})`.execute(db)
      : await sql<{ id: string; name: string }>`
          SELECT id, btrim(concat_ws(' ', ${sql.join(kindsByName[field.ref!].titleFields.map((f) => sql.ref(f)))})) AS name
          FROM ${sql.table(kindsByName[field.ref!].table)} WHERE org_id = ${orgId} AND id IN (${idList})`.execute(db)
  for (const row of r.rows) if (row.name) names.set(row.id, row.name)
  return names
}
