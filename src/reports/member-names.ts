/** The names of the members a report groups by (owners), so that the page shows people, not ids. */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import { jsonArray } from '../db/json-array.ts'

export interface MemberName {
  id: string
  name: string
  email: string
}

/** Members of the organization among these ids; a former member's id is left out (the page says "Former member"). */
export async function memberNames(db: Kysely<DB>, orgId: string, ids: readonly (string | null)[]): Promise<MemberName[]> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))]
  if (wanted.length === 0) return []
  const r = await sql<MemberName>`
    SELECT u.id, u.name, u.email FROM users u JOIN memberships ms ON ms.user_id = u.id AND ms.org_id = ${orgId}
    WHERE u.id IN (SELECT CAST(json_array_elements_text(CAST(${jsonArray(wanted)} AS json)) AS uuid))
    ORDER BY u.name, u.email`.execute(db)
  return r.rows
}
