/**
 * Reads a large object through one Bulk API 2.0 query job (spec §1.8): `SELECT <fields> FROM X
 * WHERE Id > '<after_id>'` (Bulk refuses ORDER BY and LIMIT), polled at our own bounded interval
 * (not jsforce's 30 s pollTimeout), results fetched page by page with `locator` until
 * `Sforce-Locator` is the string "null".
 *
 * Checkpoints: while the job runs, `after_id` stays the job's lower bound (Bulk results come in no
 * guaranteed order, so no id read so far proves everything below it was read) and `bulk` carries
 * the job id and the next page's locator. A resumed run continues that job while it exists and
 * re-creates it from `after_id` otherwise (pages read twice are harmless: the importer upserts by
 * src_id). After the last page `after_id` is the highest id read and `bulk` is null. The job is
 * deleted once the consumer has pulled past its last page.
 */
import type { SourceConnection } from './source-connection.ts'
import { SourceRequestFailed } from './source-errors.ts'
import { parseCsv, rowConverter } from './bulk-csv.ts'
import { soqlId, soqlName } from './soql.ts'
import type { Cursor, CursorPage, ReadSpec } from './read-cursor.ts'

export interface BulkPollOptions {
  /** First wait between status checks (default 500 ms), growing 1.5x per check... */
  minMs?: number
  /** ...up to this (default 5 s). */
  maxMs?: number
  /** Give up on a job still running after this long (default 1 hour). */
  timeoutMs?: number
}

export const DEFAULT_BULK_POLL: Required<BulkPollOptions> = { minMs: 500, maxMs: 5_000, timeoutMs: 3_600_000 }

interface JobInfo {
  id: string
  state: 'Open' | 'UploadComplete' | 'InProgress' | 'JobComplete' | 'Failed' | 'Aborted'
  object?: string
  apiVersion?: number
  errorMessage?: string
}

interface Job {
  id: string
  /** Results must be read with the API version the job was created with (409 otherwise). */
  version: string
}

const JOB_ID = /^[A-Za-z0-9]{15}([A-Za-z0-9]{3})?$/

/** The stored job cannot be continued (gone, failed, other columns): re-create it from after_id. */
class StaleJob extends Error {}

export function bulkCursor(sc: SourceConnection, spec: ReadSpec, pollOptions: BulkPollOptions = {}): Cursor {
  const poll = { ...DEFAULT_BULK_POLL, ...pollOptions }
  const what = `reading ${spec.object} records (Bulk API)`
  const lowerBound = spec.checkpoint.after_id
  const query = `SELECT ${spec.fields.map(soqlName).join(', ')} FROM ${soqlName(spec.object)}${lowerBound ? ` WHERE Id > ${soqlId(lowerBound)}` : ''}`
  const expectedHeader = spec.fields.map((f) => f.toLowerCase()).join(',')
  let job: Job | null = null
  let locator: string | null = null
  /** The current job came from the checkpoint and none of its pages has been read in this run yet. */
  let fromCheckpoint = false
  let highestId = lowerBound
  let finished = false

  const waitUntilComplete = async (id: string, resumed: boolean): Promise<JobInfo> => {
    const started = Date.now()
    let delay = poll.minMs
    for (;;) {
      const info = await sc.request<JobInfo>(`${what}: checking query job ${id}`, sc.path(`/jobs/query/${id}`))
      if (info.state === 'JobComplete') return info
      if (info.state === 'Failed' || info.state === 'Aborted') {
        if (resumed) throw new StaleJob(`query job ${id} ${info.state}`)
        // The platform gives no reason for a failed query job (spec §1.8); say what we know.
        throw new SourceRequestFailed(`${what}: query job ${id} ${info.state === 'Failed' ? 'failed' : 'was aborted'} on the source platform${info.errorMessage ? ` (${info.errorMessage})` : ''}`, 'BULK_JOB_FAILED')
      }
      if (Date.now() - started >= poll.timeoutMs) {
        throw new SourceRequestFailed(`${what}: query job ${id} did not complete within ${Math.round(poll.timeoutMs / 1000)} s`, 'BULK_JOB_TIMEOUT')
      }
      await new Promise((resolve) => setTimeout(resolve, delay))
      delay = Math.min(poll.maxMs, delay * 1.5)
    }
  }

  const create = async (): Promise<Job> => {
    // A retried POST after a dropped connection may leave a second job behind: harmless, it only
    // reads, and the platform deletes finished jobs after a few days.
    const info = await sc.request<JobInfo>(`${what}: creating the query job`, {
      method: 'POST',
      url: sc.path('/jobs/query'),
      body: JSON.stringify({ operation: 'query', query, columnDelimiter: 'COMMA', lineEnding: 'LF' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    })
    await waitUntilComplete(info.id, false)
    return { id: info.id, version: sc.apiVersion }
  }

  const resume = async (id: string): Promise<Job | null> => {
    if (!JOB_ID.test(id)) return null
    try {
      const info = await waitUntilComplete(id, true)
      if (info.object && info.object.toLowerCase() !== spec.object.toLowerCase()) return null
      return { id, version: typeof info.apiVersion === 'number' ? info.apiVersion.toFixed(1) : sc.apiVersion }
    } catch (err) {
      if (isStale(err)) return null
      throw err
    }
  }

  const fetchPage = async (current: Job): Promise<{ records: Record<string, unknown>[]; next: string }> => {
    const params = new URLSearchParams({ maxRecords: String(spec.batchSize) })
    if (locator) params.set('locator', locator)
    const res = await sc.requestText(`${what}: fetching results of query job ${current.id}`, {
      method: 'GET',
      url: `/services/data/v${current.version}/jobs/query/${current.id}/results?${params}`,
      headers: { Accept: 'text/csv' },
    })
    const records: Record<string, unknown>[] = []
    let convert: ((cells: Array<string | null>) => Record<string, unknown>) | null = null
    parseCsv(res.body, (cells) => {
      if (convert) {
        records.push(convert(cells))
        return
      }
      const header = cells.map((c) => c ?? '')
      if (header.join(',').toLowerCase() !== expectedHeader) {
        if (fromCheckpoint) throw new StaleJob('other columns')
        throw new SourceRequestFailed(`${what}: query job ${current.id} answered columns ${header.join(', ')}, expected ${spec.fields.join(', ')}`, 'BULK_UNEXPECTED_COLUMNS')
      }
      convert = rowConverter(header, spec.fieldTypes)
    })
    const next = res.headers['sforce-locator']
    // Without the header there is no telling whether more pages follow: fail rather than stop early.
    if (!next) throw new SourceRequestFailed(`${what}: the result page of query job ${current.id} has no Sforce-Locator header`, 'BULK_NO_LOCATOR')
    return { records, next }
  }

  return {
    async next(): Promise<CursorPage | null> {
      if (finished) return null
      if (!job) {
        const stored = spec.checkpoint.bulk
        if (stored?.job_id) {
          job = await resume(stored.job_id)
          locator = job ? (stored.locator ?? null) : null
          fromCheckpoint = !!job
        }
        job ??= await create()
      }
      let page
      try {
        page = await fetchPage(job)
      } catch (err) {
        if (!fromCheckpoint || !isStale(err)) throw err
        // The stored locator or job no longer answers: start over from after_id.
        fromCheckpoint = false
        locator = null
        job = await create()
        page = await fetchPage(job)
      }
      fromCheckpoint = false
      for (const r of page.records) {
        const id = r.Id
        if (typeof id === 'string' && (highestId === null || id > highestId)) highestId = id
      }
      locator = page.next
      if (page.next === 'null') {
        finished = true
        return { records: page.records, checkpoint: { after_id: highestId, bulk: null }, last: true }
      }
      return { records: page.records, checkpoint: { after_id: lowerBound, bulk: { job_id: job.id, locator: page.next } }, last: false }
    },

    async finish() {
      // Every page is stored by now; the job has nothing left to give. Best effort: the platform
      // deletes old jobs itself, and a failed DELETE must not fail a finished read.
      if (!job) return
      const id = job.id
      await sc.request(`${what}: deleting query job ${id}`, { method: 'DELETE', url: sc.path(`/jobs/query/${id}`) }).catch(() => undefined)
    },
  }
}

/** Anything the platform refuses about a stored job or locator (NOT_FOUND, INVALID_LOCATOR, 409 version). */
function isStale(err: unknown): boolean {
  return err instanceof StaleJob || err instanceof SourceRequestFailed
}
