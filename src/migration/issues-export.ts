/**
 * Issues as the API shows them, and their CSV export: every failed, skipped and warned record with
 * its reason and source data, streamed page by page so an export of a million rows stays small in
 * memory.
 */
import { Readable } from 'node:stream'
import type { Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import type { IssueKind, MigrationIssue } from './migration.types.ts'
import { listIssues, type IssueRow } from './progress.repository.ts'
import { csvCell } from '../shared/csv-cell.ts'

export function issueOf(row: IssueRow): MigrationIssue {
  return { ...row, created_at: new Date(row.created_at).toISOString() }
}

const COLUMNS = ['object', 'src_id', 'kind', 'code', 'field', 'reason', 'source_data', 'created_at'] as const

export function exportIssuesCsv(db: Kysely<DB>, orgId: string, migrationId: string, kind?: IssueKind): Readable {
  let cursor: string | undefined
  let header = true
  let done = false
  return new Readable({
    async read() {
      try {
        if (done) return void this.push(null)
        const rows = await listIssues(db, orgId, migrationId, { limit: 1000, cursor, kind })
        const pageRows = rows.slice(0, 1000)
        done = rows.length <= 1000
        cursor = pageRows[pageRows.length - 1]?.id
        let out = header ? `${COLUMNS.join(',')}\r\n` : ''
        header = false
        for (const r of pageRows) out += COLUMNS.map((c) => csvCell(c === 'created_at' ? new Date(r.created_at).toISOString() : r[c])).join(',') + '\r\n'
        this.push(out)
        if (done) this.push(null)
      } catch (err) {
        this.destroy(err as Error)
      }
    },
  })
}
