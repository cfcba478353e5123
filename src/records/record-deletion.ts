/**
 * What deleting records writes, all in one statement of the write plan: the rows, their tombstones
 * (lists place cursors on them, sync clients page through them), a case's comments with theirs, and
 * every reference to a deleted record cleared in the records that hold it.
 *
 * The references used to be cleared by the foreign keys' `ON DELETE SET NULL`: a write to other
 * records that no journal heard of (a contact lost its account and no `contact.updated` said so),
 * and one more thing a sharded PostgreSQL has to do behind the application's back. Here the
 * statement clears them itself and answers each holder's record before and after, so the write
 * plan journals them as updates like any other change. The foreign keys stay, as a guard: by the
 * time their action runs, nothing refers to the deleted rows any more.
 */
import { sql, type RawBuilder } from 'kysely'
import type { Executor } from './record.repository.ts'
import type { RecordChange } from './record.service.ts'
import type { KindName, RecordKind } from './record-kind.ts'
import { recordJsonText } from './record-sql.ts'
import { recordKinds } from './kinds/index.ts'
import { tombstonesOf } from './record-tombstones.ts'

/** The changes one delete statement made: the records deleted (a case's comments among them) and the records whose references to them were cleared. */
export interface Deletion {
  deleted: RecordChange[]
  unlinked: RecordChange[]
}

const caseComments = () => recordKinds.find((k) => k.name === 'case_comment')!

/** Fields of other records (or of the kind itself) that refer to a record of `kind`, except what is deleted with it. */
function holdersOf(kind: RecordKind): Array<{ holder: RecordKind; field: string }> {
  const holders = recordKinds.flatMap((holder) =>
    holder.fields
      .filter((f) => f.type === 'ref' && f.ref === kind.name && !(holder.name === 'case_comment' && kind.name === 'case'))
      .map((f) => ({ holder, field: f.name })),
  )
  // One UPDATE per holder table: two in one statement could try to change the same row twice.
  if (new Set(holders.map((h) => h.holder.table)).size !== holders.length) throw new Error(`A kind refers to ${kind.name} twice: clear both fields in one UPDATE`)
  return holders
}

/**
 * Deletes the organization's records of `kind` that `condition` selects (alias r), with everything
 * a delete writes (header). Rows that did not exist are simply not in the answer.
 */
export async function deleteRecords(executor: Executor, orgId: string, kind: RecordKind, condition: RawBuilder<unknown>): Promise<Deletion> {
  const ctes = [
    sql`deleted AS (DELETE FROM ${sql.raw(kind.table)} AS r WHERE r.org_id = ${orgId} AND ${condition} RETURNING r.*)`,
    sql`deleted_tombstones AS (${sql.raw(tombstonesOf(kind, 'deleted'))})`,
  ]
  const answers = [sql`SELECT 'deleted' AS what, CAST(${kind.name} AS text) AS kind, deleted.id, ${sql.raw(recordJsonText(kind, 'deleted'))} AS before, NULL AS after FROM deleted`]
  if (kind.name === 'case') {
    // Comments belong to their case: deleted with it, tombstones included (the foreign key's
    // cascade would delete them and keep none).
    const comments = caseComments()
    ctes.push(
      sql`deleted_comments AS (DELETE FROM case_comments AS c WHERE c.org_id = ${orgId} AND c.case_id IN (SELECT id FROM deleted) RETURNING c.*)`,
      sql`deleted_comment_tombstones AS (${sql.raw(tombstonesOf(comments, 'deleted_comments'))})`,
    )
    answers.push(sql`SELECT 'deleted', CAST(${comments.name} AS text), c.id, ${sql.raw(recordJsonText(comments, 'c'))}, NULL FROM deleted_comments c`)
  }
  holdersOf(kind).forEach(({ holder, field }, i) => {
    const name = sql.ref(`unlinked_${i}`)
    const table = sql.raw(holder.table)
    // The self-join `o` is the holder as it was, for the change's `before`. A record deleted by this
    // statement is left to the DELETE (one statement must not change a row twice).
    const stillHere = holder.name === kind.name ? sql`AND h.id NOT IN (SELECT id FROM deleted)` : sql``
    ctes.push(sql`${name} AS (
      UPDATE ${table} AS h SET ${sql.ref(field)} = NULL, updated_at = now()
      FROM ${table} AS o
      WHERE h.org_id = ${orgId} AND h.${sql.ref(field)} IN (SELECT id FROM deleted) ${stillHere}
        AND o.org_id = ${orgId} AND o.id = h.id
      RETURNING h.id, ${sql.raw(recordJsonText(holder, 'o'))} AS before, ${sql.raw(recordJsonText(holder, 'h'))} AS after)`)
    answers.push(sql`SELECT 'unlinked', CAST(${holder.name} AS text), u.id, u.before, u.after FROM ${name} u`)
  })
  const res = await sql<{ what: 'deleted' | 'unlinked'; kind: KindName; id: string; before: string; after: string | null }>`
    WITH ${sql.join(ctes)}
    ${sql.join(answers, sql` UNION ALL `)}`.execute(executor)
  const deletion: Deletion = { deleted: [], unlinked: [] }
  const kindOf = new Map(recordKinds.map((k) => [k.name, k]))
  for (const row of res.rows) {
    const change: RecordChange = { kind: kindOf.get(row.kind)!, id: row.id, before: JSON.parse(row.before), after: row.after === null ? null : JSON.parse(row.after) }
    deletion[row.what].push(change)
  }
  return deletion
}
