// Owns Bulk API 2.0 query jobs: creation (the SOQL restrictions Bulk 2.0 has), the state machine
// (UploadComplete -> InProgress -> JobComplete after --bulk-delay-ms), and CSV result pages cut by
// a stateless locator (base64url of the scan position), `Sforce-Locator: null` on the last page.
import { makeId } from '../ids.ts'
import { SfError, malformed } from '../errors.ts'
import type { Org } from '../org.ts'
import { compile, type Plan } from '../soql/compile.ts'
import { dataOf, pathValue } from '../soql/evaluate.ts'
import { scanAll } from '../soql/execute.ts'

export interface Job {
  id: string
  org: Org
  operation: 'query' | 'queryAll'
  query: string
  plan: Plan
  object: string
  createdDate: string
  apiVersion: number
  columnDelimiter: string
  lineEnding: 'LF' | 'CRLF'
  createdAt: number
  state: 'UploadComplete' | 'InProgress' | 'JobComplete' | 'Aborted' | 'Failed'
  processed: number | null
}

const DELIMS: Record<string, string> = { COMMA: ',', TAB: '\t', PIPE: '|', SEMICOLON: ';', CARET: '^', BACKQUOTE: '`' }
const sfNow = () => new Date().toISOString().replace('Z', '+0000')

export class BulkJobs {
  private readonly jobs = new Map<string, Job>()
  private seq = 0
  delayMs: number

  constructor(delayMs: number) {
    this.delayMs = delayMs
  }

  create(org: Org, body: Record<string, unknown>, version: string): Job {
    const operation = body.operation
    if (operation !== 'query' && operation !== 'queryAll') throw new SfError(400, 'INVALIDJOB', `InvalidJob : Invalid operation: ${String(operation)}`)
    if (typeof body.query !== 'string' || !body.query.trim()) throw new SfError(400, 'INVALIDJOB', 'InvalidJob : Query is required')
    const delimiter = (body.columnDelimiter as string | undefined) ?? 'COMMA'
    if (!DELIMS[delimiter]) throw new SfError(400, 'INVALIDJOB', `InvalidJob : Invalid column delimiter: ${delimiter}`)
    const lineEnding = (body.lineEnding as string | undefined) ?? 'LF'
    if (lineEnding !== 'LF' && lineEnding !== 'CRLF') throw new SfError(400, 'INVALIDJOB', `InvalidJob : Invalid line ending: ${lineEnding}`)
    const plan = compile(org.schema, body.query)
    // What Bulk 2.0 refuses (spec 1.8): aggregates, ORDER BY, LIMIT/OFFSET, child subqueries, compound fields.
    if (plan.count !== 'none') throw malformed('Aggregate Relationships and aggregate functions are not supported in Bulk API 2.0 queries')
    if (plan.orderBy.length || plan.limit !== undefined || plan.offset) throw malformed('ORDER BY, LIMIT and OFFSET are not supported in Bulk API 2.0 queries')
    for (const f of plan.fields) {
      if (f.kind === 'sub') throw malformed('Nested queries are not supported in Bulk API 2.0 queries')
      if (f.kind === 'typeof') throw malformed('TYPEOF is not supported in Bulk API 2.0 queries')
      if (f.path.field.type === 'address' || f.path.field.type === 'location') throw malformed(`compound field ${f.path.field.name} is not supported in Bulk API 2.0 queries`)
    }
    const id = makeId('750', org.pod, this.seq++)
    const job: Job = {
      id, org, operation, query: body.query, plan, object: plan.object.def.name, createdDate: sfNow(), apiVersion: Number(version),
      columnDelimiter: delimiter, lineEnding, createdAt: Date.now(), state: 'UploadComplete', processed: null,
    }
    this.jobs.set(id, job)
    return job
  }

  get(org: Org, id: string): Job | undefined {
    const j = this.jobs.get(id)
    return j && j.org === org ? j : undefined
  }

  list(org: Org): Job[] {
    return [...this.jobs.values()].filter((j) => j.org === org)
  }

  delete(org: Org, id: string): boolean {
    return !!this.get(org, id) && this.jobs.delete(id)
  }

  /** Advances a job on poll; counts its rows once complete. */
  advance(job: Job): void {
    if (job.state === 'UploadComplete' || job.state === 'InProgress') {
      job.state = Date.now() - job.createdAt >= this.delayMs ? 'JobComplete' : 'InProgress'
    }
    if (job.state === 'JobComplete' && job.processed === null) {
      let n = 0
      for (const _ of scanAll(this.ctx(job), job.plan)) n++
      job.processed = n
    }
  }

  ctx(job: Job) {
    return { schema: job.org.schema, data: job.org.data, version: job.apiVersion.toFixed(1), scanAll: job.operation === 'queryAll' }
  }

  info(job: Job): Record<string, unknown> {
    const base: Record<string, unknown> = {
      id: job.id, operation: job.operation, object: job.object, createdById: job.org.userId, createdDate: job.createdDate,
      systemModstamp: job.createdDate, state: job.state, concurrencyMode: 'Parallel', contentType: 'CSV', apiVersion: job.apiVersion,
      lineEnding: job.lineEnding, columnDelimiter: job.columnDelimiter,
    }
    if (job.state === 'JobComplete' || job.state === 'InProgress') {
      Object.assign(base, { numberRecordsProcessed: job.processed ?? 0, retries: 0, totalProcessingTime: job.state === 'JobComplete' ? Math.max(1, Date.now() - job.createdAt) : 0 })
    }
    return base
  }

  /** Where a result page starting at record index `from` ends: its row count and the next start. */
  extent(job: Job, from: number, maxRecords: number): { count: number; next: number | null } {
    let count = 0
    for (const i of scanAll(this.ctx(job), job.plan, from)) {
      if (count === maxRecords) return { count, next: i }
      count++
    }
    return { count, next: null }
  }

  /**
   * The CSV text of a page, produced in chunks of a few thousand rows so that a 50,000-row page
   * is streamed instead of being held in memory. A header row starts every page.
   */
  *csv(job: Job, from: number, count: number): Generator<string> {
    const ctx = this.ctx(job)
    const d = dataOf(ctx, job.object)
    const info = job.plan.object
    const sep = DELIMS[job.columnDelimiter]
    const eol = job.lineEnding === 'CRLF' ? '\r\n' : '\n'
    const paths = job.plan.fields.flatMap((f) => (f.kind === 'path' ? [f.path] : []))
    const quote = (v: unknown): string => {
      if (v === null || v === undefined) return ''
      const s = typeof v === 'string' ? v : String(v)
      return '"' + (s.includes('"') ? s.replace(/"/g, '""') : s) + '"'
    }
    let chunk = paths.map((p) => quote(p.keys.join('.'))).join(sep) + eol
    let n = 0
    for (const i of scanAll(ctx, job.plan, from)) {
      if (n === count) break
      let line = ''
      for (let k = 0; k < paths.length; k++) {
        if (k) line += sep
        line += quote(pathValue(ctx, info, d, i, paths[k]))
      }
      chunk += line + eol
      if (++n % 2000 === 0) {
        yield chunk
        chunk = ''
      }
    }
    if (chunk) yield chunk
  }
}
