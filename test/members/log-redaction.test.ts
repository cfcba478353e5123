/** The service's request log never shows an invitation link's secret, whether the link is right or wrong. */
import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { buildApp, loggerOptions } from '../../src/app.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/databases.ts'
import { createOrgWithAdmin, testConfig } from '../helpers/build-app.ts'
import { invite, linkPath, openLink, submitLink } from './helpers.ts'

describe('request logs and invitation links', () => {
  let tdb: TestDatabase
  let app: FastifyInstance
  const lines: string[] = []

  beforeAll(async () => {
    tdb = await createTestDatabase('pglite')
    const config = testConfig({ LOG_LEVEL: 'info' })
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk))
        done()
      },
    })
    app = await buildApp({ config, database: tdb.database, logger: { ...loggerOptions(config), stream } })
    await app.ready()
  })
  afterAll(async () => {
    await app?.close()
    await tdb?.drop()
  })

  it('logs the path with the secret redacted', async () => {
    const admin = await createOrgWithAdmin(app)
    const created = await invite(admin, 'logged@example.test')
    const path = linkPath(created.invitation_url)
    const secret = path.split('.').pop()!
    await openLink(app, path)
    await openLink(app, `${path.slice(0, -3)}xyz?utm=1`)
    await submitLink(app, path, { name: 'Logged', password: 'correct horse battery' })
    const log = lines.join('')
    expect(log).toContain(`/invite/${created.id}.[redacted]`)
    expect(log).toContain(`/invite/${created.id}.[redacted]?utm=1`)
    expect(log).not.toContain(secret)
    expect(log).not.toContain(secret.slice(0, -3))
  })
})
