/**
 * The import against a source platform that misbehaves, driven through the simulator's fault
 * controls: an access token expiring mid-run (refreshed), the daily allowance running out (paused,
 * then continued), 503s and dropped connections (retried), records with bad data (failed with
 * reasons, the rest imported), and sources that cannot be used at all (failed with a clear reason).
 */
import net from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { login, start } from '../source-sim/helpers.ts'
import { appPerFile, buildTestApp, createOrgWithAdmin, json } from '../helpers/build-app.ts'
import { targets } from '../helpers/databases.ts'
import { analyze, getMigration, simSettings, sourceTokens, waitFor } from './helpers.ts'

// Every call to the source's query endpoints takes a little while, so a run lasts long enough to be
// interfered with mid-way; one simulator serves both databases' suites.
const sim = await start({ dataset: 'generated', accounts: 150 })
afterAll(() => sim.close())

async function startRun(admin: Awaited<ReturnType<typeof createOrgWithAdmin>>, id: string) {
  const res = await admin.request({ method: 'POST', url: '/api/v1/migration/run', payload: { migration_id: id } })
  expect(res.statusCode, res.body).toBe(202)
}

/** Waits until some object of the run has imported records, then returns the migration. */
async function midRun(admin: Awaited<ReturnType<typeof createOrgWithAdmin>>, id: string, object = 'Account') {
  for (let i = 0; i < 600; i++) {
    const m = await getMigration(admin, id)
    const row = m.progress.find((p) => p.object === object)
    if (row && row.processed > 0) return m
    if (['completed', 'completed_with_errors', 'failed'].includes(m.status)) throw new Error(`run ended (${m.status}) before ${object} started`)
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`${object} never started`)
}

const finished = ['completed', 'completed_with_errors', 'failed', 'cancelled'] as const

for (const target of await targets()) {
  describe(`migration faults on ${target}`, () => {
    const h = appPerFile(target, { ...simSettings(sim), MIGRATION_ALLOWANCE_RECHECK_SECONDS: '1' })

    it('refreshes an access token that expires mid-run and keeps going', async () => {
      sim.control.reset()
      const admin = await createOrgWithAdmin(h.app)
      const m = await analyze(admin, await sourceTokens(sim))
      const sealedBefore = (await sql<{ t: string }>`SELECT access_token_sealed AS t FROM migrations WHERE id = ${m.id}`.execute(h.app.db)).rows[0].t
      sim.control.setFaults({ delayMs: 40, pathContains: '/query' })
      await startRun(admin, m.id)
      await midRun(admin, m.id)
      expect(sim.control.expireSessions()).toBeGreaterThan(0)
      const done = await waitFor(admin, m.id, [...finished])
      sim.control.reset()
      expect(done.status, done.status_reason ?? '').toMatch(/^completed/)
      expect(done.progress.every((p) => p.status === 'completed')).toBe(true)
      expect(done.totals.processed).toBe(done.totals.total)
      // The refreshed token was stored (sealed) before the run ended and deleted with its end.
      expect(sealedBefore).not.toBeNull()
      expect((await sql<{ t: string | null }>`SELECT access_token_sealed AS t FROM migrations WHERE id = ${m.id}`.execute(h.app.db)).rows[0].t).toBeNull()
    })

    it('pauses when the source allowance runs out, with the reason, and continues when it returns', async () => {
      sim.control.reset()
      const admin = await createOrgWithAdmin(h.app)
      const m = await analyze(admin, await sourceTokens(sim))
      sim.control.setFaults({ delayMs: 40, pathContains: '/query' })
      await startRun(admin, m.id)
      await midRun(admin, m.id)
      sim.control.exhaustAllowance()
      const paused = await waitFor(admin, m.id, ['paused', ...finished])
      expect(paused.status).toBe('paused')
      expect(paused.status_reason).toMatch(/allowance/i)
      expect(paused.resume_at).not.toBeNull()
      const processedWhilePaused = paused.totals.processed
      sim.control.reset()
      const done = await waitFor(admin, m.id, [...finished])
      expect(done.status, done.status_reason ?? '').toMatch(/^completed/)
      expect(done.totals.processed).toBe(done.totals.total)
      expect(done.totals.processed).toBeGreaterThan(processedWhilePaused)
      // Continued from the checkpoints: nothing imported twice.
      const accounts = await sql<{ n: number; d: number }>`SELECT count(*)::int AS n, count(DISTINCT src_id)::int AS d FROM accounts WHERE org_id = ${admin.orgId}`.execute(h.app.db)
      expect(accounts.rows[0].n).toBe(accounts.rows[0].d)
    })

    it('retries 503s and dropped connections, and imports everything', async () => {
      sim.control.reset()
      const admin = await createOrgWithAdmin(h.app)
      const m = await analyze(admin, await sourceTokens(sim))
      sim.control.setFaults({ errorRate: 0.3, errorStatus: 503, dropRate: 0.1, pathContains: '/query' })
      await startRun(admin, m.id)
      const done = await waitFor(admin, m.id, [...finished], 120_000)
      sim.control.reset()
      expect(done.status, done.status_reason ?? '').toMatch(/^completed/)
      expect(done.totals.processed).toBe(done.totals.total)
      const contacts = await sql<{ n: number }>`SELECT count(*)::int AS n FROM contacts WHERE org_id = ${admin.orgId}`.execute(h.app.db)
      const row = done.progress.find((p) => p.object === 'Contact')!
      expect(contacts.rows[0].n).toBe(row.created + row.updated)
    })

    it('records each record with bad data as failed with its reason and source data, and imports the rest', async () => {
      // A larger org of the generator, which leaves LastName empty on about one contact in 331.
      const big = await start({ dataset: 'generated', accounts: 500 })
      try {
        const app = await buildTestApp(h.tdb.database, { ...simSettings(big) })
        try {
          const admin = await createOrgWithAdmin(app)
          const m = await analyze(admin, await sourceTokens(big))
          await startRun(admin, m.id)
          const done = await waitFor(admin, m.id, [...finished])
          const bad = await (await login(big)).query<{ Id: string; LastName: string | null }>('SELECT Id, LastName FROM Contact', { autoFetch: true, maxFetch: 100_000 })
          const empty = bad.records.filter((c) => !c.LastName || c.LastName.trim() === '').map((c) => c.Id)
          expect(empty.length).toBeGreaterThan(0)
          expect(done.status).toBe('completed_with_errors')
          const contact = done.progress.find((p) => p.object === 'Contact')!
          expect(contact.failed).toBe(empty.length)
          expect(contact.created + contact.linked + contact.skipped + contact.failed).toBe(contact.total)
          const issues = json(await admin.request({ method: 'GET', url: `/api/v1/migration/${m.id}/issues?kind=failed&object=Contact&limit=200` }))
          expect(issues.data.map((i: { src_id: string }) => i.src_id).sort()).toEqual(empty.sort())
          for (const i of issues.data) {
            expect(i.reason).toMatch(/last_name|LastName/)
            expect(i.source_data.Id).toBe(i.src_id)
          }
        } finally {
          await app.close()
        }
      } finally {
        await big.close()
      }
    })
  })

  describe(`sources that cannot be used end the analysis as failed, on ${target}`, () => {
    const h = appPerFile(target, { ALLOW_PRIVATE_OUTBOUND: 'true' })

    it('a wrong token', async () => {
      const admin = await createOrgWithAdmin(h.app)
      const m = await analyze(admin, { src_instance_url: sim.url, src_access_token: 'not-a-token' })
      expect(m.status).toBe('failed')
      expect(m.status_reason).toMatch(/refused the credentials/)
    })

    it('an instance nobody answers at', async () => {
      const admin = await createOrgWithAdmin(h.app)
      const closed = await new Promise<number>((resolve) => {
        const s = net.createServer().listen(0, '127.0.0.1', () => {
          const port = (s.address() as net.AddressInfo).port
          s.close(() => resolve(port))
        })
      })
      const m = await analyze(admin, { src_instance_url: `http://127.0.0.1:${closed}`, src_access_token: 'tok' })
      expect(m.status).toBe('failed')
      expect(m.status_reason).toMatch(/could not be reached/)
    })

    it('a private address when the operator does not allow them', async () => {
      const app = await buildTestApp(h.tdb.database, { ALLOW_PRIVATE_OUTBOUND: 'false' })
      try {
        const admin = await createOrgWithAdmin(app)
        const urls = [
          ...['https://127.0.0.1', 'https://10.1.2.3', 'https://169.254.169.254', 'https://[::1]', 'https://localhost'],
          // IPv4 hidden in IPv6 transition forms: 6to4, local-use NAT64, IPv4-translated, Teredo, ISATAP.
          ...['https://[2002:7f00:1::]/', 'https://[64:ff9b:1::a9fe:a9fe]', 'https://[::ffff:0:7f00:1]', 'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]', 'https://[2606:4700::5efe:7f00:1]'],
        ]
        for (const url of urls) {
          const res = await admin.request({ method: 'POST', url: '/api/v1/migration/analyze', payload: { src_instance_url: url, src_access_token: 'tok' } })
          expect(res.statusCode).toBe(202)
          const m = await waitFor(admin, json(res).id, ['analyzed', 'failed'])
          expect(m.status, url).toBe('failed')
          expect(m.status_reason, url).toMatch(/private or reserved address/)
        }
      } finally {
        await app.close()
      }
    })
  })
}
