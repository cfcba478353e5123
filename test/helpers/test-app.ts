/**
 * The one builder of the application under test, in this process: on a database the test passes, or
 * on a fresh migrated one it creates (and drops on close); answering `app.inject` only, or listening
 * on a free loopback port with PUBLIC_URL equal to its real address (OAuth libraries, browsers, MCP
 * clients). build-app.ts, live-service.ts and the browser harness are thin shapes of this function.
 * Services in child processes (tests about processes) are spawnService's job: service-process.ts.
 */
import net from 'node:net'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/app.ts'
import { loadConfig, type Config } from '../../src/config.ts'
import type { Database } from '../../src/db/connect.ts'
import type { Clock } from '../../src/shared/clock.ts'
import { createTestDatabase, type TargetName, type TestDatabase } from './databases.ts'

/** Rate-limit quotas far above any test's load: tests about something else must not meet a 429. */
export const GENEROUS_RATE_LIMITS = { RATE_LIMIT_PER_ORG: '100000000', RATE_LIMIT_PER_CLIENT: '100000000' }

export function testConfig(overrides: Record<string, string> = {}): Config {
  // Quotas no test's load reaches, unless a test sets its own (test/http/rate-limits.test.ts).
  return loadConfig({ PORT: '0', HOST: '127.0.0.1', PUBLIC_URL: 'http://localhost:3000', LOG_LEVEL: 'silent', ...GENEROUS_RATE_LIMITS, ...overrides })
}

export async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const port = (server.address() as net.AddressInfo).port
  await new Promise((resolve) => server.close(resolve))
  return port
}

export interface TestAppOptions {
  /** The database to serve (the caller closes it), or the target of a fresh one this app owns. */
  database: Database | TargetName
  /** Configuration on top of testConfig's. */
  env?: Record<string, string>
  /** The app's clock, for tests that move time instead of waiting for it. */
  clock?: Clock
  /** Listen on a free loopback port; otherwise the app only answers `app.inject`. */
  listen?: boolean
}

export interface TestApp {
  app: FastifyInstance
  /** The address it listens on (with `listen`), else null. */
  url: string | null
  /** The database it created (when given a target), else null. */
  tdb: TestDatabase | null
  /** Closes the app, then drops the database it created. */
  close(): Promise<void>
}

export async function startTestApp(options: TestAppOptions): Promise<TestApp> {
  const tdb = typeof options.database === 'string' ? await createTestDatabase(options.database) : null
  const database = tdb ? tdb.database : (options.database as Database)
  try {
    const port = options.listen ? await freePort() : null
    const url = port === null ? null : `http://127.0.0.1:${port}`
    const env = url ? { PORT: String(port), PUBLIC_URL: url, ...options.env } : { ...options.env }
    const app = await buildApp({ config: testConfig(env), database, logger: false, clock: options.clock })
    if (port === null) await app.ready()
    else await app.listen({ port, host: '127.0.0.1' })
    return {
      app,
      url,
      tdb,
      async close() {
        try {
          await app.close()
        } finally {
          await tdb?.drop()
        }
      },
    }
  } catch (err) {
    await tdb?.drop()
    throw err
  }
}
