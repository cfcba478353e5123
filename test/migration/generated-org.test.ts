/**
 * A generated source org with comment threads: threads keep the source's order, a second migration
 * of the same source creates nothing twice (and puts back what was changed here), and a run whose
 * service is killed with SIGKILL mid-object and restarted ends in exactly the state of a run that
 * was never interrupted.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import type jsforce from 'jsforce'
import { start, login } from '../source-sim/helpers.ts'
import type { SourceSim } from '../../tools/source-sim/main.ts'
import { appPerFile, createOrgWithAdmin, json } from '../helpers/build-app.ts'
import { createPostgresDatabase, targets } from '../helpers/databases.ts'
import { spawnService } from '../helpers/service-process.ts'
import { freePort, signIn } from '../helpers/live-service.ts'
import { openEmbedded, openPostgres } from '../../src/db/connect.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'
import { analyze, run, simSettings, sourceTokens } from './helpers.ts'
import { defaultConfig } from '../../src/migration/migration.defaults.ts'
import { stateDigest } from './state-digest.ts'

// A generated org of about 3,000 records with comment threads, for the first suite.
const sim = await start({ dataset: 'generated', accounts: 60 })
afterAll(() => sim.close())

for (const target of await targets()) {
  describe(`a generated org with comment threads on ${target}`, () => {
    let source: jsforce.Connection
    beforeAll(async () => {
      source = await login(sim)
    })
    const h = appPerFile(target, simSettings(sim))

    it("keeps every case's comment thread in the source's order (CreatedDate, then id)", async () => {
      const admin = await createOrgWithAdmin(h.app)
      const m = await analyze(admin, await sourceTokens(sim))
      const done = await run(admin, m.id)
      expect(done.progress.find((p) => p.object === 'CaseComment')!.created).toBeGreaterThan(50)
      const threads = await source.query<{ Id: string; ParentId: string; CreatedDate: string }>('SELECT Id, ParentId, CreatedDate FROM CaseComment ORDER BY ParentId, CreatedDate, Id', { autoFetch: true, maxFetch: 100_000 })
      const bySource = new Map<string, string[]>()
      for (const c of threads.records) bySource.set(c.ParentId, [...(bySource.get(c.ParentId) ?? []), c.Id])
      let checked = 0
      for (const [caseSrcId, expected] of bySource) {
        if (expected.length < 2) continue
        const found = await sql<{ id: string }>`SELECT id FROM cases WHERE org_id = ${admin.orgId} AND src_id = ${caseSrcId}`.execute(h.app.db)
        if (!found.rows[0]) continue
        const page = json(await admin.request({ method: 'GET', url: `/api/v1/cases/${found.rows[0].id}/comments?limit=200` }))
        const imported = new Set(page.data.map((c: { src_id: string }) => c.src_id))
        expect(page.data.map((c: { src_id: string }) => c.src_id), caseSrcId).toEqual(expected.filter((id) => imported.has(id)))
        checked++
      }
      expect(checked).toBeGreaterThan(10)
    })

    it('says once per lookup, not per record, that links lead to objects this migration does not import', async () => {
      const admin = await createOrgWithAdmin(h.app)
      const m = await analyze(admin, await sourceTokens(sim))
      // Leads, products and opportunities left out (they are ticked by default): tasks point at them.
      const config = defaultConfig(['Account', 'Contact', 'Case', 'CaseComment', 'Task', 'Event'])
      const saved = await admin.request({ method: 'PUT', url: `/api/v1/migration/${m.id}/config`, payload: config })
      expect(saved.statusCode, saved.body).toBe(200)
      const done = await run(admin, m.id)
      expect(done.config!.objects).not.toContain('Lead')
      const issues = json(await admin.request({ method: 'GET', url: `/api/v1/migration/${m.id}/issues?object=Task&limit=200` })).data as Array<{ code: string; field: string; reason: string; src_id: string | null }>
      expect(issues.filter((i) => i.code === 'missing_parent' && /lead|opportunit/i.test(i.reason))).toHaveLength(0)
      const summary = issues.find((i) => i.code === 'links_not_imported' && i.field === 'lead_id')!
      expect(summary.src_id).toBeNull()
      const kept = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM activities WHERE org_id = ${admin.orgId} AND kind <> 'event' AND left(src_id, 3) = '00T'
          AND lead_id IS NULL AND left(custom_fields ->> 'WhoId', 3) = '00Q'`.execute(h.app.db)
      expect(kept.rows[0].n).toBeGreaterThan(10)
      expect(summary.reason).toContain(`${kept.rows[0].n} Task records point at Lead (WhoId)`)
      // Every lookup is counted in the same scan: each summary carries its own count.
      const opportunities = issues.find((i) => i.code === 'links_not_imported' && i.field === 'opportunity_id')!
      const keptOpportunities = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM activities WHERE org_id = ${admin.orgId} AND kind <> 'event' AND left(src_id, 3) = '00T'
          AND opportunity_id IS NULL AND left(custom_fields ->> 'WhatId', 3) = '006'`.execute(h.app.db)
      expect(keptOpportunities.rows[0].n).toBeGreaterThan(10)
      expect(keptOpportunities.rows[0].n).not.toBe(kept.rows[0].n)
      expect(opportunities.reason).toContain(`${keptOpportunities.rows[0].n.toLocaleString('en-US')} Task records point at Opportunity (WhatId)`)
    })

    it('a second migration of the same source creates no duplicates and puts back what was changed here', async () => {
      const admin = await createOrgWithAdmin(h.app)
      const first = await run(admin, (await analyze(admin, await sourceTokens(sim))).id)
      const count = async () => {
        const out: Record<string, number> = {}
        for (const t of ['accounts', 'contacts', 'cases', 'case_comments', 'activities']) {
          out[t] = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.raw(t)} WHERE org_id = ${admin.orgId}`.execute(h.app.db)).rows[0].n
        }
        return out
      }
      const before = await count()
      const changed = await sql<{ id: string; title: string | null }>`SELECT id, title FROM contacts WHERE org_id = ${admin.orgId} AND title IS NOT NULL LIMIT 1`.execute(h.app.db)
      await admin.request({ method: 'PATCH', url: `/api/v1/contacts/${changed.rows[0].id}`, payload: { title: 'Changed in Cairn' } })

      const second = await run(admin, (await analyze(admin, await sourceTokens(sim))).id)
      expect(await count()).toEqual(before)

      expect(second.totals.created).toBe(0)
      expect(second.totals.updated).toBe(first.totals.created + first.totals.updated)
      const restored = await sql<{ title: string }>`SELECT title FROM contacts WHERE id = ${changed.rows[0].id}`.execute(h.app.db)
      expect(restored.rows[0].title).toBe(changed.rows[0].title)
    })
  })

  describe(`a run killed with SIGKILL mid-object on ${target}`, () => {
    // Large enough that Contact (2,700) and CaseComment (about 5,000) take several pages.
    let big: SourceSim
    beforeAll(async () => {
      big = await start({ dataset: 'generated', accounts: 900 })
    })
    afterAll(async () => {
      await big?.close()
    })

    it('is continued by the restarted service and ends in the state of an uninterrupted run', async () => {
      const created = target === 'postgres' ? await createPostgresDatabase() : null
      const dataDir = target === 'pglite' ? fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-kill-')) : null
      // A port the OS gives: a fixed range once met a port this machine's other services hold (4222).
      const port = await freePort()
      const env = { PORT: String(port), ...(created ? { DATABASE_URL: created.url } : { DATA_DIR: dataDir! }), ...simSettings(big), MIGRATION_LEASE_SECONDS: '2' }
      const url = `http://127.0.0.1:${port}`
      // Two organizations, the same source: one run is killed twice, the other left alone.
      const setup = created ? await openPostgres(created.url) : await openEmbedded(dataDir)
      await migrateToLatest(setup)
      const a = await createOrganizationWithAdmin(setup.db, { name: 'Killed', adminEmail: 'killed@example.test', adminPassword: 'correct horse battery' })
      const b = await createOrganizationWithAdmin(setup.db, { name: 'Calm', adminEmail: 'calm@example.test', adminPassword: 'correct horse battery' })
      await setup.close()

      const member = async (email: string) => {
        const cookie = await signIn(url, email, 'correct horse battery')
        const me = await (await fetch(`${url}/api/v1/me`, { headers: { cookie } })).json()
        return { cookie, csrf: me.csrf_token as string }
      }
      const call = async (who: { cookie: string; csrf: string }, method: string, p: string, body?: unknown) => {
        const res = await fetch(`${url}${p}`, { method, headers: { cookie: who.cookie, 'x-csrf-token': who.csrf, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined })
        return { status: res.status, body: await res.json() }
      }
      const until = async (who: { cookie: string; csrf: string }, id: string, done: (m: any) => boolean, timeoutMs = 120_000) => {
        const deadline = Date.now() + timeoutMs
        for (;;) {
          const m = (await call(who, 'GET', `/api/v1/migration/${id}`)).body
          if (done(m)) return m
          if (Date.now() > deadline) throw new Error(`timed out in ${m.status}: ${JSON.stringify(m.progress)}`)
          await new Promise((r) => setTimeout(r, 25))
        }
      }

      let service = await spawnService(env)
      try {
        const killed = await member('killed@example.test')
        const calm = await member('calm@example.test')
        const startRun = async (who: typeof killed) => {
          const m = (await call(who, 'POST', '/api/v1/migration/analyze', await sourceTokens(big))).body
          await until(who, m.id, (x) => x.status === 'analyzed')
          expect((await call(who, 'POST', '/api/v1/migration/run', { migration_id: m.id })).status).toBe(202)
          return m.id as string
        }
        // Slow the source down so each object takes several pages' time: a page must arrive well
        // after the one before has committed (pages of an object overlap their writes), by more
        // than a poll takes on a loaded CI machine. The analysis runs at a quarter of that delay.
        big.control.setFaults({ delayMs: 250, pathContains: '/query' })
        const killedId = await startRun(killed)
        big.control.setFaults({ delayMs: 1500, pathContains: '/query' })
        for (const object of ['Contact', 'CaseComment']) {
          await until(killed, killedId, (m) => m.progress.some((p: any) => p.object === object && p.processed > 0 && p.processed < p.total))
          await service.kill('SIGKILL')
          service = await spawnService(env)
        }
        const done = await until(killed, killedId, (m) => ['completed', 'completed_with_errors', 'failed'].includes(m.status))
        big.control.reset()
        expect(done.status, done.status_reason ?? '').toMatch(/^completed/)

        const calmId = await startRun(calm)
        await until(calm, calmId, (m) => ['completed', 'completed_with_errors', 'failed'].includes(m.status))

        const check = created ? await openPostgres(created.url) : null
        try {
          if (!check) await service.kill('SIGTERM') // the embedded database has one process at a time
          const db = check ?? (await openEmbedded(dataDir))
          try {
            const [x, y] = [await stateDigest(db.db, a.orgId, killedId), await stateDigest(db.db, b.orgId, calmId)]
            expect((x.contacts as unknown[]).length).toBeGreaterThan(1000)
            expect(x).toEqual(y)
          } finally {
            if (!check) await db.close()
          }
        } finally {
          await check?.close()
        }
      } finally {
        big.control.reset()
        await service.kill('SIGTERM')
        await created?.drop()
        if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
      }
    }, 300_000)
  })
}
