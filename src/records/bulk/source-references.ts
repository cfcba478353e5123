/**
 * References set after the fact by source id: a record imported before the record it points to (an
 * account's parent further on in the source) gets its reference once the target exists. And what an
 * import left unlinked, counted for its summary. Each target is its own lookup (a subquery per row,
 * through the record's src_id or an alias, source-ids.ts), never a join whose plan depends on the
 * tables' statistics: an import's tables are never analyzed mid-run, and the joined form was
 * quadratic there (2.4 s for the 3,962 parent accounts of the 1M benchmark). The targets are
 * resolved in a MATERIALIZED CTE: inlined, the embedded database planned the holders' side as the
 * outer loop, rescanning the whole list for each holder (test/migration/relink.test.ts).
 */
import { sql, type RawBuilder } from 'kysely'
import { jsonArray } from '../../db/json-array.ts'
import { kindsByName } from '../kinds/index.ts'
import type { KindName, RecordKind } from '../record-kind.ts'
import type { Executor } from '../record.repository.ts'
import type { SourceAliases } from './source-aliases.ts'
import type { RecordChange } from '../record.service.ts'
import { recordJsonText } from '../record-sql.ts'
import type { WriteTx } from '../write-context.ts'

/**
 * Sets `field` of each holder to the record of `targetKind` its source id names now, where one
 * exists (through its src_id or an alias); returns the holders set. With `journal` (a migration
 * whose changes are announced), each holder set is journaled as updated, like every other change
 * of the run; without, the statement returns ids only, the fast form of a quiet load.
 */
export async function setReferencesBySourceId(
  tx: WriteTx,
  aliases: SourceAliases,
  holderKind: KindName,
  field: string,
  targetKind: KindName,
  pending: ReadonlyArray<{ record_id: string; target_src_id: string }>,
  options: { journal: boolean },
): Promise<string[]> {
  if (pending.length === 0) return []
  const orgId = tx.writer.auth.orgId
  const holder = kindsByName[holderKind]
  const target = kindsByName[targetKind]
  if (!holder.fields.some((f) => f.name === field && f.type === 'ref' && f.ref === targetKind)) throw new Error(`${holderKind}.${field} is no reference to ${targetKind}`)
  const imported = (srcId: RawBuilder<unknown>) => sql`SELECT id FROM ${sql.table(target.table)} WHERE org_id = ${orgId} AND src_id = ${srcId} LIMIT 1`
  const aliased = (srcId: RawBuilder<unknown>) => sql`${aliases.aliasedRecord(orgId, targetKind, srcId)} LIMIT 1`
  const text = (values: unknown[]) => sql`json_array_elements_text(CAST(${jsonArray(values)} AS json))`
  // The self-join `o` is the holder as it was, for the journaled change's `before`.
  const journaled = options.journal
    ? { from: sql`, ${sql.table(holder.table)} o`, where: sql`AND o.org_id = ${orgId} AND o.id = r.id`, returning: sql`, ${sql.raw(recordJsonText(holder, 'o'))} AS before, ${sql.raw(recordJsonText(holder, 'r'))} AS after` }
    : { from: sql``, where: sql``, returning: sql`` }
  const r = await sql<{ id: string; before?: string; after?: string }>`
    WITH x AS MATERIALIZED (
      SELECT CAST(p.record_id AS uuid) AS record_id, COALESCE((${imported(sql`p.src_id`)}), (${aliased(sql`p.src_id`)})) AS target_id
      FROM ROWS FROM (${text(pending.map((p) => p.record_id))}, ${text(pending.map((p) => p.target_src_id))}) AS p(record_id, src_id)
    )
    UPDATE ${sql.table(holder.table)} r SET ${sql.ref(field)} = x.target_id
    FROM x ${journaled.from} WHERE x.target_id IS NOT NULL AND r.org_id = ${orgId} AND r.id = x.record_id ${journaled.where}
    RETURNING r.id ${journaled.returning}`.execute(tx.trx)
  if (options.journal) {
    const changes: RecordChange[] = r.rows.map((row) => ({ kind: holder, id: row.id, before: JSON.parse(row.before!), after: JSON.parse(row.after!) }))
    await tx.changed('updated', changes)
  }
  return r.rows.map((row) => row.id)
}

/** How many records of the kind carry a source id (starting with `prefix`, the source object's key prefix). */
export async function countWithSourceIds(db: Executor, orgId: string, kind: RecordKind, prefix?: string | null): Promise<number> {
  const r = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM ${sql.raw(kind.table)}
    WHERE org_id = ${orgId} AND src_id IS NOT NULL ${prefix ? sql`AND left(src_id, 3) = ${prefix}` : sql``}`.execute(db)
  return r.rows[0].n
}

/**
 * For each lookup, how many records of the kind imported from one source object (`own`, its key
 * prefix) have the reference unset while custom_fields keeps a source id of the lookup's object
 * (`prefix`) under `source`: links the import could not make. One scan for all lookups.
 */
export async function countUnsetReferences(
  db: Executor,
  orgId: string,
  kind: RecordKind,
  own: string,
  links: ReadonlyArray<{ field: string; source: string; prefix: string }>,
): Promise<number[]> {
  if (links.length === 0) return []
  const r = await sql<{ n: number[] }>`
    SELECT ARRAY[${sql.join(links.map((l) => sql`count(*) FILTER (WHERE ${sql.ref(l.field)} IS NULL AND left(custom_fields ->> ${l.source}, 3) = ${l.prefix})::int`))}] AS n
    FROM ${sql.raw(kind.table)} WHERE org_id = ${orgId} AND left(src_id, 3) = ${own}`.execute(db)
  return r.rows[0].n
}
