/**
 * Step 2 of a page, resolve: sets every reference it can now (records imported before, through
 * src_id or a link), defers those to records imported later (the re-link pass), applies the
 * missing-parent policy to the rest, and maps owners. Returns the records that go on to be written.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../../../db/database.ts'
import { recordBulk } from '../../../records/index.ts'
import type { KnownSourceId } from '../../../records/index.ts'
import type { RecordKind } from '../../../records/contracts.ts'
import type { PageContext } from '../page-context.ts'
import { issue, type PageReport, type Prepared } from './page-work.ts'
import { sourceLinks } from '../source-links.ts'

export async function resolveReferences(trx: Kysely<DB>, ctx: PageContext, kept: Prepared[], report: PageReport): Promise<Prepared[]> {
  const resolved = await lookUpTargets(trx, ctx, kept)
  const out: Prepared[] = []
  for (const p of kept) {
    let drop: 'skipped' | 'failed' | null = null
    for (const ref of p.record.references) {
      const target = ctx.referenceTargets.get(ref.object)
      const label = target ? target.kind.label.toLowerCase() : ref.object
      if (target?.deferred) {
        p.deferred.push({ object: ctx.object, kind: ctx.kind.name, record_id: '', src_id: p.record.src_id, field: ref.field, target_kind: target.kind.name, target_src_id: ref.src_id })
        p.row.fields[ref.field] = null
        continue
      }
      const id = target ? resolved.get(target.kind)?.get(ref.src_id)?.id : undefined
      if (id) {
        p.row.fields[ref.field] = id
        continue
      }
      p.row.fields[ref.field] = null
      if (target && !target.imported) {
        p.row.custom_fields[ref.source] = ref.src_id
        continue
      }
      const why = target
        ? `its ${label} (${ref.field} -> ${ref.object} ${ref.src_id}) was not imported`
        : `${ref.object} ${ref.src_id} (${ref.field}) is not imported by this migration`
      const required = ctx.requiredReferences.has(ref.field)
      if (required || ctx.missingParent !== 'import_without_link') {
        drop = ctx.missingParent === 'fail_record' ? 'failed' : 'skipped'
        const rule = required ? 'it cannot exist without it' : `the missing-parent rule says ${ctx.missingParent === 'fail_record' ? 'fail' : 'skip'} the record`
        report.issues.push(issue(ctx, drop, 'missing_parent', p.record.src_id, `${drop === 'failed' ? 'Failed' : 'Skipped'}: ${why}, and ${rule}.`, p.raw, ref.field))
        break
      }
      report.issues.push(issue(ctx, 'warning', 'missing_parent', p.record.src_id, `Imported without the link: ${why}.`, null, ref.field))
    }
    if (drop) report.delta[drop]++
    else out.push(p)
  }
  mapOwners(ctx, out)
  return out
}

/** The records already here for the page's references to objects imported before: one query per kind. */
async function lookUpTargets(trx: Kysely<DB>, ctx: PageContext, kept: Prepared[]): Promise<Map<RecordKind, Map<string, KnownSourceId>>> {
  const wanted = new Map<RecordKind, string[]>()
  for (const p of kept) {
    for (const ref of p.record.references) {
      const target = ctx.referenceTargets.get(ref.object)
      if (target && !target.deferred) {
        const list = wanted.get(target.kind) ?? []
        list.push(ref.src_id)
        wanted.set(target.kind, list)
      }
    }
  }
  const resolved = new Map<RecordKind, Map<string, KnownSourceId>>()
  for (const [kind, ids] of wanted) resolved.set(kind, await recordBulk.knownSourceIds(trx, sourceLinks, ctx.orgId, kind, ids))
  return resolved
}

/** Owners by email (Configure's rule); a comment's author keeps the source user's name either way. */
function mapOwners(ctx: PageContext, rows: Prepared[]): void {
  for (const p of rows) {
    const owner = p.record.owner
    if (!owner) continue
    const user = ctx.owners.get(owner.src_id)
    p.row.fields[owner.field] = ctx.ownersPolicy === 'match_by_email' ? (user?.userId ?? null) : null
    if (ctx.kind.name === 'case_comment' && p.row.fields.author_name == null && user) p.row.fields.author_name = user.name
  }
}
