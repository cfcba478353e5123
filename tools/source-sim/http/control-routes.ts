// Owns the test-control endpoint (`/__control/*`, not part of the platform's API): set faults,
// expire every session now, exhaust or reset the allowance, and report the current state.
// Resilience tests in the migration issue drive the simulator through these.
import type { FastifyInstance } from 'fastify'
import type { SimContext } from './context.ts'
import type { FaultConfig } from './faults.ts'

export interface Control {
  setFaults(f: Partial<FaultConfig>): FaultConfig
  expireSessions(): number
  exhaustAllowance(org?: 'production' | 'sandbox'): void
  setAllowance(max: number, org?: 'production' | 'sandbox'): void
  setTokenTtl(seconds: number): void
  reset(): void
  state(): Record<string, unknown>
}

export function makeControl(ctx: SimContext): Control {
  const allowance = (org?: 'production' | 'sandbox') => ctx.allowances.get((org === 'sandbox' ? ctx.sandbox : ctx.production).orgId)!
  return {
    setFaults: (f) => ctx.faults.set(f),
    expireSessions: () => ctx.sessions.expireAll(),
    exhaustAllowance: (org) => allowance(org).exhaust(),
    setAllowance: (max, org) => {
      allowance(org).max = max
    },
    setTokenTtl: (s) => {
      ctx.sessions.ttlMs = s * 1000
    },
    reset: () => {
      ctx.faults.reset()
      for (const a of ctx.allowances.values()) a.reset()
    },
    state: () => ({
      faults: ctx.faults.config,
      allowance: { production: ctx.allowances.get(ctx.production.orgId)!.header(), sandbox: ctx.allowances.get(ctx.sandbox.orgId)!.header() },
      tokenTtlSeconds: ctx.sessions.ttlMs / 1000,
      // For benchmarks: memory must stay flat however many records are served.
      memory: { rssBytes: process.memoryUsage().rss, heapUsedBytes: process.memoryUsage().heapUsed },
      cpuMicros: (() => {
        const c = process.cpuUsage()
        return c.user + c.system
      })(),
      orgs: [ctx.production, ctx.sandbox].map((o) => ({ orgId: o.orgId, userId: o.userId, sandbox: o.sandbox, source: o.source })),
    }),
  }
}

export function controlRoutes(app: FastifyInstance, control: Control): void {
  type Body = Record<string, unknown> | undefined
  const which = (b: Body) => (b?.org === 'sandbox' ? 'sandbox' : 'production') as 'production' | 'sandbox'
  app.get('/__control/state', async () => control.state())
  app.post('/__control/faults', async (req, reply) => {
    try {
      return control.setFaults((req.body ?? {}) as Partial<FaultConfig>)
    } catch (e) {
      return reply.code(400).send({ error: (e as Error).message })
    }
  })
  app.post('/__control/expire-sessions', async () => ({ expired: control.expireSessions() }))
  app.post('/__control/exhaust-allowance', async (req) => {
    control.exhaustAllowance(which(req.body as Body))
    return control.state()
  })
  app.post('/__control/allowance', async (req) => {
    const b = req.body as Body
    if (typeof b?.max === 'number') control.setAllowance(b.max, which(b))
    return control.state()
  })
  app.post('/__control/token-ttl', async (req) => {
    const b = req.body as Body
    if (typeof b?.seconds === 'number') control.setTokenTtl(b.seconds)
    return control.state()
  })
  app.post('/__control/reset', async () => {
    control.reset()
    return control.state()
  })
}
