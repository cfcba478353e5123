// Loads records named by reference columns in batches: a 50-row table with two reference columns
// names up to 100 records, and one GET per record meant up to 100 requests queued behind the
// browser's six connections. Ids asked for in the same tick are fetched together per kind with the
// list's `ids` filter (docs/api.md), 100 per request.
import { ApiError } from './client.ts'
import { fetchRecordPage } from './records.ts'
import type { CrmRecord, RecordKind } from '../kinds.ts'
import { MAX_IDS_FILTER as MAX_IDS } from '../../../src/web-contracts.ts'

interface Waiter {
  resolve: (record: CrmRecord) => void
  reject: (error: unknown) => void
}

/** kind path -> id -> those waiting for it, until the tick's batch for that kind goes out. */
const queued = new Map<string, { kind: RecordKind; waiters: Map<string, Waiter[]> }>()

export function batchedRecord(kind: RecordKind, id: string): Promise<CrmRecord> {
  let batch = queued.get(kind.path)
  if (!batch) {
    batch = { kind, waiters: new Map() }
    queued.set(kind.path, batch)
    setTimeout(() => void flush(kind.path), 0)
  }
  const waiters = batch.waiters
  return new Promise((resolve, reject) => {
    const list = waiters.get(id) ?? []
    list.push({ resolve, reject })
    waiters.set(id, list)
  })
}

async function flush(path: string): Promise<void> {
  const batch = queued.get(path)!
  queued.delete(path)
  const ids = [...batch.waiters.keys()]
  for (let start = 0; start < ids.length; start += MAX_IDS) {
    const chunk = ids.slice(start, start + MAX_IDS)
    const settle = (id: string, outcome: { record: CrmRecord } | { error: unknown }) => {
      for (const w of batch.waiters.get(id)!) 'record' in outcome ? w.resolve(outcome.record) : w.reject(outcome.error)
    }
    try {
      const page = await fetchRecordPage(batch.kind, { ids: chunk.join(','), limit: MAX_IDS })
      const found = new Map(page.data.map((r) => [r.id, r]))
      for (const id of chunk) {
        const record = found.get(id)
        // Absent: deleted, or not this organization's; the same answer a GET of it would give.
        settle(id, record ? { record } : { error: new ApiError({ status: 404, code: 'not_found', title: 'Not found', detail: `${batch.kind.label} not found.` }) })
      }
    } catch (error) {
      for (const id of chunk) settle(id, { error })
    }
  }
}
