/**
 * Step 3 of a page, deduplicate: a source record linked to an existing record by an earlier run
 * follows that link again; with a deduplication rule, a new source record that matches a record
 * here (or one a page ahead creates) is linked to it, updates it, or is created anyway, as the rule
 * says. Linked and updated records leave the rows to create.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../../../db/database.ts'
import { recordBulk } from '../../../records/index.ts'
import type { KnownSourceId } from '../../../records/index.ts'
import { findDuplicates } from '../dedup.ts'
import type { PageContext } from '../page-context.ts'
import type { Claims, PageInFlight } from '../page-in-flight.ts'
import { sourceLinks } from '../source-links.ts'
import { issue, type PageReport, type Prepared } from './page-work.ts'

export interface Deduplicated {
  /** Records to create. */
  rows: Prepared[]
  /** Source records that become aliases of an existing record (migration_links). */
  links: Array<{ src_id: string; record_id: string }>
  /** Existing records to update instead (the row carries the existing id). */
  updates: Prepared[]
}

/** `ahead`: claims of the pages ahead not yet committed; this page's new keys go to `page.keys`. */
export async function deduplicate(trx: Kysely<DB>, ctx: PageContext, rows: Prepared[], ahead: Claims, page: PageInFlight, report: PageReport): Promise<Deduplicated> {
  const rule = ctx.dedup
  const known = rule || ctx.hasLinks ? await recordBulk.knownSourceIds(trx, sourceLinks, ctx.orgId, ctx.kind, rows.map((p) => p.record.src_id)) : new Map<string, KnownSourceId>()
  const links: Deduplicated['links'] = []
  const updates: Prepared[] = []
  const dropped = new Set<Prepared>()
  const onMatch = (p: Prepared, existingId: string, what: string, inPage: boolean) => {
    const action = rule?.action ?? 'link'
    if (action === 'update' && !inPage) {
      updates.push({ ...p, row: { ...p.row, id: existingId } })
      dropped.add(p)
      report.issues.push(issue(ctx, 'warning', 'duplicate_updated', p.record.src_id, `Updated the existing ${what} instead of creating a duplicate.`, null, rule?.field ?? null))
    } else {
      links.push({ src_id: p.record.src_id, record_id: existingId })
      dropped.add(p)
      report.issues.push(issue(ctx, 'warning', 'duplicate_linked', p.record.src_id, `Not created: linked to the ${inPage ? 'source record imported just before, ' : ''}${what}; references to it lead there.`, null, rule?.field ?? null))
    }
  }
  for (const p of rows) {
    const k = known.get(p.record.src_id)
    if (k?.via === 'link' && rule?.action !== 'create') onMatch(p, k.id, `${ctx.kind.label.toLowerCase()} ${k.id} it was linked to by an earlier run`, false)
  }
  if (rule) {
    const fresh = rows.filter((p) => !known.has(p.record.src_id))
    const decisions = await findDuplicates(trx, ctx.orgId, ctx.kind, rule, fresh.map((p) => ({ id: p.row.id, value: p.row.fields[rule.field] })), ahead.keys)
    fresh.forEach((p, i) => {
      const d = decisions[i]
      if (!d.match) {
        if (d.key !== null) page.keys.set(d.key, p.row.id)
        return
      }
      const what = `${ctx.kind.label.toLowerCase()} ${d.existingId} with the same ${rule.describe} (${d.key})`
      if (rule.action === 'create') report.issues.push(issue(ctx, 'warning', 'duplicate_created', p.record.src_id, `Created although it matches ${what}, as the deduplication rule says.`, null, rule.field))
      else onMatch(p, d.existingId, what, d.inPage)
    })
  }
  report.delta.linked += links.length
  return { rows: rows.filter((p) => !dropped.has(p)), links, updates }
}
