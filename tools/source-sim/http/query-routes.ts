// Owns /query, /queryAll, /tooling/query and their locator pages: compile (cached), run one page,
// answer `{totalSize, done, nextRecordsUrl?, records}` with nextRecordsUrl ending in a stateless
// locator. Page size follows `Sforce-Query-Options: batchSize=N` (200..2000, default 2000).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { malformed } from '../errors.ts'
import { compile, type Plan, type Pred } from '../soql/compile.ts'
import { dropExecuteCaches, runPage } from '../soql/execute.ts'
import { decodeLocator, encodeLocator, type LocatorState } from '../soql/locator.ts'
import type { Org } from '../org.ts'
import { orgOf, versionOf, type SimContext } from './context.ts'

const plans = new Map<string, Plan>()
function cached(org: Org, tooling: boolean, soql: string): Plan {
  const key = `${org.instance}|${tooling ? 1 : 0}|${soql}`
  let plan = plans.get(key)
  if (!plan) {
    plan = compile(tooling ? org.tooling : org.schema, soql)
    if (plans.size > 200) plans.clear()
    plans.set(key, plan)
  }
  return plan
}

// Keyset reads differ only in their `Id > '...'` literal, so they share one compiled template
// (parsing is the costliest part of a small page) with the literal substituted.
const PLACEHOLDER = '000000000000000'
function substitute(p: Pred | null, id: string): Pred | null {
  if (!p) return p
  switch (p.kind) {
    case 'and': case 'or': return { kind: p.kind, items: p.items.map((x) => substitute(x, id)!) }
    case 'not': return { kind: 'not', item: substitute(p.item, id)! }
    case 'cmp':
      return p.op === '>' && p.path.rels.length === 0 && p.path.field.name === 'Id' && p.values[0] === PLACEHOLDER ? { ...p, values: [id] } : p
  }
}
function planFor(org: Org, tooling: boolean, soql: string): Plan {
  const m = KEYSET.exec(soql)
  if (!m || (soql.match(new RegExp(KEYSET.source, 'gi')) ?? []).length !== 1) return cached(org, tooling, soql)
  const template = cached(org, tooling, soql.replace(KEYSET, `$1${PLACEHOLDER}$3`))
  return { ...template, where: substitute(template.where, m[2]) }
}

function batchSize(req: FastifyRequest): number {
  const h = req.headers['sforce-query-options']
  const m = typeof h === 'string' ? /batchSize\s*=\s*(\d+)/i.exec(h) : null
  return m ? Math.min(2000, Math.max(200, Number(m[1]))) : 2000
}

interface Rendered { body: string; next: LocatorState | null; nextKeyset: string | null }

// Keyset reads (`WHERE Id > 'x' ... ORDER BY Id LIMIT n`) are predictable: the next query is the
// same text with the page's last Id. That text is computed ahead like a locator page.
const KEYSET = /(\bId\s*>\s*')([a-zA-Z0-9]{15,18})(')/i
function nextKeysetQuery(plan: Plan, soql: string, rows: number, lastId: string | null): string | null {
  if (!lastId || plan.limit === undefined || rows < plan.limit || plan.count !== 'none') return null
  const ob = plan.orderBy
  if (ob.length > 1 || (ob.length === 1 && (ob[0].desc || ob[0].path.rels.length || ob[0].path.field.name !== 'Id'))) return null
  if ((soql.match(new RegExp(KEYSET.source, 'gi')) ?? []).length !== 1) return null
  return soql.replace(KEYSET, `$1${lastId}$3`)
}

function render(org: Org, version: string, state: LocatorState): Rendered {
  const plan = planFor(org, state.t, state.q)
  const key = `${org.instance}|${state.t ? 1 : 0}|${state.all ? 1 : 0}|${state.q}`
  const page = runPage(
    { schema: state.t ? org.tooling : org.schema, data: state.t ? org.toolingData : org.data, version, scanAll: state.all },
    plan, key, state.o === 0 && state.n < 0 ? null : { o: state.o, p: state.p, n: state.n }, state.b,
  )
  // Key order as on the platform: totalSize, done, nextRecordsUrl (only when not done), records.
  let body = `{"totalSize":${page.totalSize},"done":${page.done}`
  const next = page.next ? { ...state, o: page.next.o, p: page.next.p, n: page.next.n } : null
  if (next) body += `,"nextRecordsUrl":"/services/data/v${version}/${state.t ? 'tooling/' : ''}query/${encodeLocator(next)}"`
  body += `,"records":[${page.records.join(',')}]}`
  const nextKeyset = state.o === 0 && state.n < 0 ? nextKeysetQuery(plan, state.q, page.records.length, page.lastId) : null
  return { body, next, nextKeyset }
}

// Read-ahead: while a client parses page k, page k+1 is computed (pages are a pure function of
// the locator, so this is only a cache). Bounded to a few pages; a miss just computes on demand.
const ahead = new Map<string, Rendered>()
const firstKey = (org: Org, version: string, s: LocatorState) => `${org.instance}|${version}|first|${s.t ? 1 : 0}|${s.all ? 1 : 0}|${s.b}|${s.q}`

function readAhead(org: Org, version: string, state: LocatorState, r: Rendered): void {
  const next = r.next ?? (r.nextKeyset ? { ...state, q: r.nextKeyset, o: 0, p: 0, n: -1 } : null)
  if (!next) return
  setImmediate(() => {
    const key = r.next ? `${org.instance}|${version}|${encodeLocator(next)}` : firstKey(org, version, next)
    if (ahead.has(key)) return
    try {
      ahead.set(key, render(org, version, next))
      while (ahead.size > 8) ahead.delete(ahead.keys().next().value as string)
    } catch {
      // The real request will compute (and report) it.
    }
  })
}

function take(key: string): Rendered | undefined {
  const hit = ahead.get(key)
  if (hit) ahead.delete(key)
  return hit
}

function send(reply: FastifyReply, org: Org, version: string, state: LocatorState, r: Rendered) {
  readAhead(org, version, state, r)
  return reply.type('application/json;charset=UTF-8').send(r.body)
}

/** Forgets an org's compiled plans and read-ahead pages (called when its simulator closes). */
export function dropQueryCaches(org: Org): void {
  for (const m of [plans, ahead] as Array<Map<string, unknown>>) for (const k of [...m.keys()]) if (k.startsWith(`${org.instance}|`)) m.delete(k)
  dropExecuteCaches(org.instance)
}

export function queryRoutes(app: FastifyInstance, ctx: SimContext): void {
  const first = (tooling: boolean, all: boolean) => async (req: FastifyRequest, reply: FastifyReply) => {
    const { v } = req.params as { v: string }
    const version = versionOf(v)
    const q = (req.query as { q?: string }).q
    if (!q || !q.trim()) throw malformed('A query string has to be specified')
    const org = orgOf(ctx, req)
    const state: LocatorState = { q, all, t: tooling, o: 0, p: 0, n: -1, b: batchSize(req), g: org.orgId }
    return send(reply, org, version, state, take(firstKey(org, version, state)) ?? render(org, version, state))
  }
  const more = (tooling: boolean) => async (req: FastifyRequest, reply: FastifyReply) => {
    const { v, locator } = req.params as { v: string; locator: string }
    const version = versionOf(v)
    const org = orgOf(ctx, req)
    const state = decodeLocator(locator, org.orgId)
    const full = { ...state, t: state.t || tooling }
    return send(reply, org, version, full, take(`${org.instance}|${version}|${locator}`) ?? render(org, version, full))
  }
  app.get('/services/data/:v/query', first(false, false))
  app.get('/services/data/:v/queryAll', first(false, true))
  app.get('/services/data/:v/tooling/query', first(true, false))
  app.get('/services/data/:v/query/:locator', more(false))
  app.get('/services/data/:v/queryAll/:locator', more(false))
  app.get('/services/data/:v/tooling/query/:locator', more(true))
}
