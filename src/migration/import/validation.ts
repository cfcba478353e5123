/**
 * The validation summary at the end of a run: per object, the source's count beside what was
 * imported, skipped and failed, and how many records of the target kind now carry a source id of
 * that object (counted in the database, not taken from the run's own counters).
 */
import type { Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import { recordBulk } from '../../records/index.ts'
import { kindsByName, type KindName } from '../../records/contracts.ts'
import type { MigrationRow } from '../migration.repository.ts'
import type { ValidationRow } from '../migration.types.ts'
import type { ObjectRow } from '../progress.repository.ts'

export async function validationSummary(db: Kysely<DB>, m: MigrationRow, objects: readonly ObjectRow[]): Promise<ValidationRow[]> {
  const prefixes = new Map((m.report?.objects ?? []).map((o) => [o.name, o.key_prefix]))
  const out: ValidationRow[] = []
  for (const o of objects) {
    const kind = kindsByName[o.target as KindName]
    const prefix = prefixes.get(o.object)
    // Source ids start with their object's key prefix, which tells Task from Event among activities.
    const found = await recordBulk.countWithSourceIds(db, m.org_id, kind, prefix)
    out.push({
      object: o.object,
      target: kind.name,
      source_count: o.total,
      imported: o.created + o.updated + o.linked,
      skipped: o.skipped,
      failed: o.failed,
      found_in_target: found,
    })
  }
  return out
}
