/**
 * One warning per object and lookup for links to objects this migration does not import (tasks
 * pointing at leads when Leads are not selected): those records were imported without the link and
 * keep the source id in custom_fields under the lookup's name. Counted in the database after the
 * object is done, so a resumed run says the same; an earlier summary of the object is replaced.
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import { recordBulk } from '../../records/index.ts'
import type { RecordKind } from '../../records/contracts.ts'
import { uuidv7 } from '../../shared/ids.ts'
import type { FieldMapping, ObjectAnalysis } from '../migration.types.ts'
import { addWarnings, insertIssues, type NewIssue } from '../progress.repository.ts'

const CODE = 'links_not_imported'

export async function summarizeUnimportedLinks(
  db: Kysely<DB>,
  input: { orgId: string; migrationId: string; object: string; kind: RecordKind; fields: readonly FieldMapping[]; objects: readonly ObjectAnalysis[]; imported(object: string): boolean; now: Date },
): Promise<void> {
  const prefixOf = new Map(input.objects.map((o) => [o.name, o.key_prefix]))
  const own = prefixOf.get(input.object)
  if (!own) return
  // Every lookup to an object the run does not import, counted in one scan of the object's records.
  const links: UnimportedLink[] = []
  for (const f of input.fields) {
    if (f.action !== 'reference') continue
    for (const [object, field] of Object.entries(f.targets ?? {})) {
      const prefix = prefixOf.get(object)
      if (!input.imported(object) && prefix) links.push({ source: f.source, object, field, prefix })
    }
  }
  const counts = await recordBulk.countUnsetReferences(db, input.orgId, input.kind, own, links)
  const issues: NewIssue[] = []
  links.forEach(({ source, object, field }, i) => {
    const n = counts[i]
    if (n === 0) return
    issues.push({
      id: uuidv7(input.now),
      object: input.object,
      src_id: null,
      kind: 'warning',
      code: CODE,
      field,
      reason: `${n.toLocaleString('en-US')} ${input.object} records point at ${object} (${source}), which this migration does not import: they were imported without that link, and the ${object} id is kept in custom_fields.${source}. Select ${object} to keep these links.`,
      source_data: null,
    })
  })
  await db.transaction().execute(async (trx) => {
    const removed = await sql`DELETE FROM migration_issues WHERE org_id = ${input.orgId} AND migration_id = ${input.migrationId} AND object = ${input.object} AND code = ${CODE}`.execute(trx)
    await insertIssues(trx, input.orgId, input.migrationId, issues, input.now)
    await addWarnings(trx, input.orgId, input.migrationId, input.object, issues.length - Number(removed.numAffectedRows ?? 0))
  })
}

type UnimportedLink = { source: string; object: string; field: string; prefix: string }
