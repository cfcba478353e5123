// Owns the REST resources other than query and bulk: versions (no auth), the version's resource
// map, describeGlobal, describe, sObject info, record retrieve, /limits and /limits/recordCount.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { describeGlobal, describeSObject } from '../describe.ts'
import { notFound } from '../errors.ts'
import { to18 } from '../ids.ts'
import { compile } from '../soql/compile.ts'
import { dataOf } from '../soql/evaluate.ts'
import { project } from '../soql/project.ts'
import { orgOf, versionOf, type SimContext } from './context.ts'

const RELEASES: Array<[number, string]> = [
  [31, "Summer '14"], [32, "Winter '15"], [33, "Spring '15"], [34, "Summer '15"], [35, "Winter '16"], [36, "Spring '16"], [37, "Summer '16"],
  [38, "Winter '17"], [39, "Spring '17"], [40, "Summer '17"], [41, "Winter '18"], [42, "Spring '18"], [43, "Summer '18"], [44, "Winter '19"],
  [45, "Spring '19"], [46, "Summer '19"], [47, "Winter '20"], [48, "Spring '20"], [49, "Summer '20"], [50, "Winter '21"], [51, "Spring '21"],
  [52, "Summer '21"], [53, "Winter '22"], [54, "Spring '22"], [55, "Summer '22"], [56, "Winter '23"], [57, "Spring '23"], [58, "Summer '23"],
  [59, "Winter '24"], [60, "Spring '24"], [61, "Summer '24"], [62, "Winter '25"],
]

const json = (reply: FastifyReply, body: unknown) => reply.type('application/json;charset=UTF-8').send(JSON.stringify(body))

export function restRoutes(app: FastifyInstance, ctx: SimContext): void {
  // The schema never changes while running: describe calls with If-Modified-Since at or after
  // the start answer 304 Not Modified, as the platform does for an unchanged schema.
  const schemaDate = Math.floor(Date.now() / 1000) * 1000
  const notModified = (req: FastifyRequest, reply: FastifyReply): boolean => {
    const h = req.headers['if-modified-since']
    const since = typeof h === 'string' ? Date.parse(h) : NaN
    if (Number.isNaN(since) || since < schemaDate) return false
    reply.code(304).send()
    return true
  }

  app.get('/services/data', async (_req, reply) => json(reply, RELEASES.map(([v, label]) => ({ label, url: `/services/data/v${v}.0`, version: `${v}.0` }))))

  app.get('/services/data/:v', async (req, reply) => {
    const v = versionOf((req.params as { v: string }).v)
    orgOf(ctx, req)
    const base = `/services/data/v${v}`
    return json(reply, Object.fromEntries(['tooling', 'query', 'queryAll', 'sobjects', 'limits', 'jobs', 'recent', 'search'].map((k) => [k, `${base}/${k}`])))
  })

  app.get('/services/data/:v/sobjects', async (req, reply) => {
    const v = versionOf((req.params as { v: string }).v)
    const org = orgOf(ctx, req)
    if (notModified(req, reply)) return reply
    return json(reply, describeGlobal(org.schema, v))
  })

  app.get('/services/data/:v/sobjects/:name/describe', async (req, reply) => {
    const { v, name } = req.params as { v: string; name: string }
    const version = versionOf(v)
    const org = orgOf(ctx, req)
    const info = org.schema.object(name)
    if (!info) throw notFound()
    if (notModified(req, reply)) return reply
    return json(reply, describeSObject(org.schema, info, version, ctx.baseUrl))
  })

  app.get('/services/data/:v/sobjects/:name', async (req, reply) => {
    const { v, name } = req.params as { v: string; name: string }
    const version = versionOf(v)
    const org = orgOf(ctx, req)
    const info = org.schema.object(name)
    if (!info) throw notFound()
    const g = describeGlobal(org.schema, version) as { sobjects: Array<{ name: string }> }
    return json(reply, { objectDescribe: g.sobjects.find((s) => s.name === info.def.name), recentItems: [] })
  })

  app.get('/services/data/:v/sobjects/:name/:id', async (req: FastifyRequest, reply: FastifyReply) => {
    const { v, name, id } = req.params as { v: string; name: string; id: string }
    const version = versionOf(v)
    const org = orgOf(ctx, req)
    const info = org.schema.object(name)
    if (!info) throw notFound()
    const d = dataOf({ schema: org.schema, data: org.data }, info.def.name)
    const i = d.indexOf(to18(id))
    if (i < 0 || i >= d.live) throw notFound()
    const wanted = (req.query as { fields?: string }).fields
    const names = wanted ? wanted.split(',').map((s) => s.trim()).filter(Boolean) : info.def.fields.filter((f) => f.type !== 'address' && f.type !== 'location').map((f) => f.name)
    const plan = compile(org.schema, `SELECT ${names.join(', ')} FROM ${info.def.name}`)
    return json(reply, project({ schema: org.schema, data: org.data, version, scanAll: false }, plan, info, d, i))
  })

  app.get('/services/data/:v/limits', async (req, reply) => {
    versionOf((req.params as { v: string }).v)
    const org = orgOf(ctx, req)
    const a = ctx.allowances.get(org.orgId)!
    const jobs = ctx.jobs.list(org).length
    const lim = (max: number, remaining: number) => ({ Max: max, Remaining: remaining })
    return json(reply, {
      ConcurrentAsyncGetReportInstances: lim(200, 200),
      DailyApiRequests: lim(a.max, Math.max(0, a.max - a.used)),
      DailyAsyncApexExecutions: lim(250000, 250000),
      DailyBulkApiBatches: lim(15000, 15000),
      DailyBulkV2QueryFileStorageMB: lim(976562, 976562),
      DailyBulkV2QueryJobs: lim(10000, 10000 - jobs),
      DataStorageMB: lim(1024, 900),
      FileStorageMB: lim(10240, 10000),
      HourlyODataCallout: lim(10000, 10000),
      SingleEmail: lim(5000, 5000),
    })
  })

  app.get('/services/data/:v/limits/recordCount', async (req, reply) => {
    versionOf((req.params as { v: string }).v)
    const org = orgOf(ctx, req)
    const param = (req.query as { sObjects?: string }).sObjects
    const names = param ? param.split(',').map((s) => s.trim()).filter(Boolean) : [...org.data.keys()]
    const sObjects: Array<{ count: number; name: string }> = []
    for (const n of names) {
      const info = org.schema.object(n)
      // Unknown names are silently omitted, as on the platform.
      if (!info) continue
      sObjects.push({ count: dataOf({ schema: org.schema, data: org.data }, info.def.name).live, name: info.def.name })
    }
    return json(reply, { sObjects })
  })

}
