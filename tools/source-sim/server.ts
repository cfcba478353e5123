// Owns starting and stopping one simulator: builds the production and sandbox orgs, wires the
// Fastify app (OAuth, REST, query, bulk, control), listens on loopback and returns a handle with
// the URL and the fault controls. `startSourceSim` is the in-process API for tests and the CRM's
// migration tests; main.ts is the command line around it.
import Fastify from 'fastify'
import formbody from '@fastify/formbody'
import { buildOrg, type Org } from './org.ts'
import { DEFAULTS, type SimOptions } from './options.ts'
import { Sessions } from './http/sessions.ts'
import { Allowance } from './http/allowance.ts'
import { Faults } from './http/faults.ts'
import { BulkJobs } from './http/bulk-jobs.ts'
import type { SimContext } from './http/context.ts'
import { installApiHooks } from './http/api-hooks.ts'
import { oauthRoutes } from './http/oauth-routes.ts'
import { restRoutes } from './http/rest-routes.ts'
import { dropQueryCaches, queryRoutes } from './http/query-routes.ts'
import { bulkRoutes } from './http/bulk-routes.ts'
import { controlRoutes, makeControl, type Control } from './http/control-routes.ts'

export interface SourceSim {
  url: string
  port: number
  /** Login URL of the sandbox org (jsforce `loginUrl`); the instance URL is the same server. */
  sandboxLoginUrl: string
  options: SimOptions
  production: Org
  sandbox: Org
  control: Control
  close(): Promise<void>
}

export async function startSourceSim(partial: Partial<SimOptions> = {}): Promise<SourceSim> {
  const options: SimOptions = { ...DEFAULTS, ...partial }
  const gen = { seed: options.seed, accounts: options.accounts, counts: options.counts }
  const production = buildOrg({ dataset: options.dataset, fixturesDir: options.fixturesDir, gen }, false)
  const sandbox = buildOrg({ dataset: options.dataset, fixturesDir: options.fixturesDir, gen }, true)
  const sessions = new Sessions(options.tokenTtlSeconds * 1000)
  sessions.clients.set(options.clientId, { id: options.clientId, secret: options.clientSecret, redirectUris: options.redirectUris })
  const ctx: SimContext = {
    production, sandbox, sessions,
    allowances: new Map([[production.orgId, new Allowance(options.apiLimit)], [sandbox.orgId, new Allowance(options.apiLimit)]]),
    faults: new Faults(), jobs: new BulkJobs(options.bulkDelayMs), options, baseUrl: '',
  }
  ctx.faults.set(options.faults)

  const app = Fastify({
    logger: options.log ? { level: 'info' } : false,
    // Locators are long path segments; trailing slashes (`/query/?q=`) are common in clients.
    routerOptions: { maxParamLength: 16_384, ignoreTrailingSlash: true },
    bodyLimit: 10 * 1024 * 1024,
  })
  await app.register(formbody)
  installApiHooks(app, ctx)
  oauthRoutes(app, ctx, '')
  oauthRoutes(app, ctx, '/sandbox')
  restRoutes(app, ctx)
  queryRoutes(app, ctx)
  bulkRoutes(app, ctx)
  const control = makeControl(ctx)
  controlRoutes(app, control)

  await app.listen({ port: options.port, host: options.host })
  const addr = app.server.address()
  const port = typeof addr === 'object' && addr ? addr.port : options.port
  const host = options.host.includes(':') ? `[${options.host}]` : options.host
  ctx.baseUrl = (options.publicUrl ?? `http://${host}:${port}`).replace(/\/$/, '')
  return {
    url: ctx.baseUrl,
    port,
    sandboxLoginUrl: `${ctx.baseUrl}/sandbox`,
    options,
    production,
    sandbox,
    control,
    close: async () => {
      await app.close()
      dropQueryCaches(production)
      dropQueryCaches(sandbox)
    },
  }
}
