/**
 * Reads an object by keyset over REST queries: `SELECT <fields> FROM X WHERE Id > '<after_id>'
 * ORDER BY Id LIMIT n` (spec §1.6 "Resume cursor"). Never a query locator: the checkpoint is the
 * last id, so a resumed run (after a crash, a restart or a token refresh) needs no server state.
 */
import type { SourceConnection } from './source-connection.ts'
import { queryUrl, soqlId, soqlName, stripAttributes, type QueryResult } from './soql.ts'
import type { Cursor, ReadSpec } from './read-cursor.ts'

/** The platform pages query results by at most 2,000 rows (spec §1.6); one page = one request. */
export const REST_MAX_BATCH = 2_000
const REST_MIN_BATCH = 200

export function restCursor(sc: SourceConnection, spec: ReadSpec): Cursor {
  const limit = Math.max(1, Math.min(REST_MAX_BATCH, Math.floor(spec.batchSize)))
  // Sforce-Query-Options batchSize accepts 200-2,000; LIMIT keeps smaller pages exact.
  const headers = { 'Sforce-Query-Options': `batchSize=${Math.max(REST_MIN_BATCH, limit)}` }
  const select = `SELECT ${spec.fields.map(soqlName).join(', ')} FROM ${soqlName(spec.object)}`
  let afterId = spec.checkpoint.after_id
  let done = false
  return {
    async next() {
      if (done) return null
      const soql = `${select}${afterId ? ` WHERE Id > ${soqlId(afterId)}` : ''} ORDER BY Id LIMIT ${limit}`
      const res = await sc.request<QueryResult>(`reading ${spec.object} records`, { method: 'GET', url: queryUrl(sc, soql), headers })
      const records = (res.records ?? []).map(stripAttributes)
      if (records.length === 0) {
        done = true
        return null
      }
      afterId = String(records[records.length - 1].Id)
      // A short page that is also the query's only page is the end; a page the platform cut
      // shorter (done: false) is not, and the next keyset query simply continues after it.
      done = res.done !== false && records.length < limit
      return { records, checkpoint: { after_id: afterId, bulk: null }, last: done }
    },
  }
}
