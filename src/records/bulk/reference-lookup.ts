/**
 * References written as people write them in a spreadsheet: the record's id, its `src_id` (or a
 * deduplication alias, source-ids.ts), or its name (an account called "Acme"; a contact or lead by
 * "first last" or email; a case or activity by subject). Members (`owner_id`) by id or email. A
 * name that fits several records is answered as ambiguous, never as one picked at random. One index
 * probe per key where an index exists (the names of accounts, migration 0005, and of opportunities
 * and products, migration 0021; emails); the other names are one scan of the kind's records.
 */
import { sql, type RawBuilder } from 'kysely'
import { eachKey } from '../../db/each-key.ts'
import { jsonArray } from '../../db/json-array.ts'
import { kindsByName } from '../kinds/index.ts'
import type { FieldDef, RecordKind } from '../record-kind.ts'
import type { Executor } from '../record.repository.ts'
import type { SourceAliases } from './source-aliases.ts'
import { knownSourceIds } from './source-ids.ts'
import { MATCH_KEYS } from './match-keys.ts'

export type ReferenceMatch = { id: string; via: 'id' | 'src_id' | 'name' | 'email' } | { ambiguous: 'name' | 'email' } | null

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const squash = MATCH_KEYS.name.normalize

/** Value as written -> the record (or member) it names, for every value of one reference field. */
export async function resolveReferences(db: Executor, aliases: SourceAliases, orgId: string, field: FieldDef, values: readonly string[]): Promise<Map<string, ReferenceMatch>> {
  const out = new Map<string, ReferenceMatch>()
  const rest: string[] = []
  for (const v of new Set(values)) {
    // An id is taken as written; the write checks it names a record (or member) of the organization.
    if (UUID.test(v.trim())) out.set(v, { id: v.trim().toLowerCase(), via: 'id' })
    else rest.push(v)
  }
  if (rest.length === 0) return out
  if (field.type === 'user') {
    const byEmail = await countedMatches(db, rest.map((v) => v.trim().toLowerCase()), (k) => sql`
      SELECT u.id FROM users u JOIN memberships ms ON ms.user_id = u.id AND ms.org_id = ${orgId} WHERE lower(btrim(u.email)) = ${k}`)
    for (const v of rest) out.set(v, asMatch(byEmail.get(v.trim().toLowerCase()), 'email'))
    return out
  }
  const target = kindsByName[field.ref!]
  const known = await knownSourceIds(db, aliases, orgId, target, rest)
  const unnamed: string[] = []
  for (const v of rest) {
    const k = known.get(v)
    if (k) out.set(v, { id: k.id, via: 'src_id' })
    else unnamed.push(v)
  }
  if (unnamed.length === 0) return out
  const byName = indexedName(target)
    ? await countedMatches(db, unnamed.map(squash), (k) => sql`
        SELECT id FROM ${sql.table(target.table)} WHERE org_id = ${orgId} AND ${sql.raw(MATCH_KEYS.name.sqlKey)} = ${k}`)
    : await countedInOneScan(db, orgId, target, unnamed.map(squash))
  const withEmail = target.fields.some((f) => f.name === 'email')
  const byEmail = withEmail
    ? await countedMatches(db, unnamed.map((v) => v.trim().toLowerCase()), (k) => sql`
        SELECT id FROM ${sql.table(target.table)} WHERE org_id = ${orgId} AND email IS NOT NULL AND ${sql.raw(MATCH_KEYS.email.sqlKey)} = ${k}`)
    : new Map<string, Counted>()
  for (const v of unnamed) {
    const name = byName.get(squash(v))
    out.set(v, name ? asMatch(name, 'name') : asMatch(byEmail.get(v.trim().toLowerCase()), 'email'))
  }
  return out
}

interface Counted {
  n: number
  id: string
}

function asMatch(c: Counted | undefined, via: 'name' | 'email'): ReferenceMatch {
  if (!c) return null
  return c.n > 1 ? { ambiguous: via } : { id: c.id, via }
}

/** Kinds whose name has an index of its normal form (migrations 0005 and 0021). */
function indexedName(kind: RecordKind): boolean {
  return kind.titleFields.length === 1 && kind.titleFields[0] === 'name'
}

/**
 * The other kinds' names (a contact's "first last", a case's subject) have no index: one scan of
 * the organization's records of the kind answers all keys at once, instead of one scan per key.
 */
async function countedInOneScan(db: Executor, orgId: string, kind: RecordKind, keys: readonly string[]): Promise<Map<string, Counted>> {
  const found = new Map<string, Counted>()
  const wanted = [...new Set(keys)].filter((k) => k !== '')
  if (wanted.length === 0) return found
  const joined = sql.join(kind.titleFields.map((f) => sql.ref(f)))
  const key = sql`lower(regexp_replace(btrim(concat_ws(' ', ${joined})), '\\s+', ' ', 'g'))`
  const r = await sql<{ k: string; n: number; id: string }>`
    SELECT ${key} AS k, count(*)::int AS n, min(CAST(id AS text)) AS id FROM ${sql.table(kind.table)}
    WHERE org_id = ${orgId} AND ${key} IN (SELECT json_array_elements_text(CAST(${jsonArray(wanted)} AS json)))
    GROUP BY 1`.execute(db)
  for (const row of r.rows) found.set(row.k, { n: row.n, id: row.id })
  return found
}

/** For each key, how many rows `lookup` finds (at most 2: one, or more than one) and the first. */
async function countedMatches(db: Executor, keys: readonly string[], lookup: (k: RawBuilder<unknown>) => RawBuilder<unknown>): Promise<Map<string, Counted>> {
  const found = new Map<string, Counted>()
  const wanted = [...new Set(keys)].filter((k) => k !== '')
  if (wanted.length === 0) return found
  const r = await sql<{ k: string; n: number; id: string | null }>`
    SELECT w.k, m.n, m.id FROM ${eachKey(wanted, 'text', 'm', (k) => sql`
      SELECT count(*)::int AS n, min(CAST(s.id AS text)) AS id FROM (${lookup(k)} LIMIT 2) AS s`)}`.execute(db)
  for (const row of r.rows) if (row.n > 0 && row.id) found.set(row.k, { n: row.n, id: row.id })
  return found
}
