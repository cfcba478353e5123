// Owns the Bulk API 2.0 query endpoints under /services/data/vXX.X/jobs/query: create, list,
// poll, abort (PATCH), delete and CSV results (409 on an API version other than the job's,
// 412 JOB_NOT_COMPLETE before completion, Sforce-Locator / Sforce-NumberOfRecords headers).
import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { SfError, notFound } from '../errors.ts'
import { orgOf, versionOf, type SimContext } from './context.ts'

const DEFAULT_MAX_RECORDS = 50_000

export function bulkRoutes(app: FastifyInstance, ctx: SimContext): void {
  const job = (req: FastifyRequest) => {
    const { id } = req.params as { id: string }
    const j = ctx.jobs.get(orgOf(ctx, req), id)
    if (!j) throw notFound()
    return j
  }

  app.post('/services/data/:v/jobs/query', async (req: FastifyRequest, reply: FastifyReply) => {
    const version = versionOf((req.params as { v: string }).v)
    if (Number(version) < 47) throw notFound()
    const j = ctx.jobs.create(orgOf(ctx, req), (req.body ?? {}) as Record<string, unknown>, version)
    return reply.code(200).send(ctx.jobs.info(j))
  })

  app.get('/services/data/:v/jobs/query', async (req) => {
    versionOf((req.params as { v: string }).v)
    const jobs = ctx.jobs.list(orgOf(ctx, req))
    return { done: true, records: jobs.map((j) => ctx.jobs.info(j)), nextRecordsUrl: null }
  })

  app.get('/services/data/:v/jobs/query/:id', async (req) => {
    versionOf((req.params as { v: string }).v)
    const j = job(req)
    ctx.jobs.advance(j)
    return ctx.jobs.info(j)
  })

  app.patch('/services/data/:v/jobs/query/:id', async (req) => {
    const j = job(req)
    const state = (req.body as { state?: string } | undefined)?.state
    if (state !== 'Aborted') throw new SfError(400, 'INVALIDJOBSTATE', `Invalid state: ${String(state)}`)
    if (j.state === 'JobComplete') throw new SfError(400, 'INVALIDJOBSTATE', 'Job is already complete')
    j.state = 'Aborted'
    return ctx.jobs.info(j)
  })

  app.delete('/services/data/:v/jobs/query/:id', async (req, reply) => {
    const j = job(req)
    ctx.jobs.delete(j.org, j.id)
    return reply.code(204).send()
  })

  app.get('/services/data/:v/jobs/query/:id/results', async (req: FastifyRequest, reply: FastifyReply) => {
    const version = versionOf((req.params as { v: string }).v)
    const j = job(req)
    if (Number(version) !== j.apiVersion) throw new SfError(409, 'API_VERSION_MISMATCH', `Job was created with API version ${j.apiVersion.toFixed(1)}`)
    ctx.jobs.advance(j)
    if (j.state !== 'JobComplete') throw new SfError(412, 'JOB_NOT_COMPLETE', 'Job is not complete')
    const q = req.query as { locator?: string; maxRecords?: string }
    let from = 0
    if (q.locator && q.locator !== 'null') {
      from = Number(Buffer.from(q.locator, 'base64url').toString('utf8'))
      if (!Number.isInteger(from) || from < 0) throw new SfError(400, 'INVALID_LOCATOR', 'Invalid locator')
    }
    const max = q.maxRecords ? Math.max(1, Number(q.maxRecords) | 0) : DEFAULT_MAX_RECORDS
    const page = ctx.jobs.extent(j, from, max)
    return reply
      .header('Sforce-NumberOfRecords', String(page.count))
      .header('Sforce-Locator', page.next === null ? 'null' : Buffer.from(String(page.next)).toString('base64url'))
      .type('text/csv; charset=UTF-8')
      .send(Readable.from(ctx.jobs.csv(j, from, page.count)))
  })
}
