/**
 * The migration API's rules: who may call it, what each state allows, how a bad configuration is
 * answered, that tokens never come back, that the report and issues download, that the event
 * stream follows a run to its end, and that one organization never sees another's migrations.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { addMember, appPerFile, buildTestApp, createOrgWithAdmin, json } from '../helpers/build-app.ts'
import { targets } from '../helpers/databases.ts'
import { start } from '../source-sim/helpers.ts'
import { analyze, configure, everything, getMigration, run, simSettings, sourceTokens, waitFor } from './helpers.ts'
import type { MigrationConfig } from '../../src/migration/migration.types.ts'

// One small source org for every suite of the file; the service is its OAuth client (token refresh).
const sim = await start({ dataset: 'generated', accounts: 20 })
afterAll(() => sim.close())

for (const target of await targets()) {
  describe(`migration API on ${target}`, () => {
    const h = appPerFile(target, simSettings(sim))

    it('needs an administrator: members and tokens of members are refused', async () => {
      const admin = await createOrgWithAdmin(h.app)
      const member = await addMember(h.app, admin.orgId, 'member')
      for (const req of [
        { method: 'GET' as const, url: '/api/v1/migrations' },
        { method: 'POST' as const, url: '/api/v1/migration/analyze', payload: { src_instance_url: sim.url, src_access_token: 'x' } },
      ]) {
        const res = await member.request(req)
        expect(res.statusCode, req.url).toBe(403)
        expect(json(res).code).toBe('admin_required')
      }
      expect((await h.app.inject({ method: 'GET', url: '/api/v1/migrations' })).statusCode).toBe(401)
    })

    it('answers 400 for a malformed instance URL and keeps nothing', async () => {
      const admin = await createOrgWithAdmin(h.app)
      for (const url of ['not a url', 'ftp://example.com', 'https://user:pw@example.com', 'https://example.com/#x']) {
        const res = await admin.request({ method: 'POST', url: '/api/v1/migration/analyze', payload: { src_instance_url: url, src_access_token: 'tok' } })
        expect(res.statusCode, url).toBe(400)
        expect(json(res).errors[0].field).toBe('src_instance_url')
      }
      const res = await admin.request({ method: 'POST', url: '/api/v1/migration/analyze', payload: { src_access_token: 'tok' } })
      expect(res.statusCode).toBe(400)
      // A refresh token is only usable through the operator's OAuth client at the source.
      const bare = await buildTestApp(h.tdb.database, { ALLOW_PRIVATE_OUTBOUND: 'true' })
      try {
        const other = await createOrgWithAdmin(bare)
        const refused = await other.request({ method: 'POST', url: '/api/v1/migration/analyze', payload: { src_instance_url: sim.url, src_access_token: 'tok', src_refresh_token: 'rt' } })
        expect(refused.statusCode).toBe(400)
        expect(json(refused).errors[0].field).toBe('src_refresh_token')
      } finally {
        await bare.close()
      }
      expect(json(await admin.request({ method: 'GET', url: '/api/v1/migrations' })).data).toHaveLength(0)
    })

    it('never returns the source tokens, and deletes them when the migration ends', async () => {
      const admin = await createOrgWithAdmin(h.app)
      const tokens = await sourceTokens(sim)
      const m = await analyze(admin, tokens)
      expect(m.status).toBe('analyzed')
      for (const url of [`/api/v1/migration/${m.id}`, '/api/v1/migrations', `/api/v1/migration/${m.id}/report`]) {
        const body = (await admin.request({ method: 'GET', url })).body
        expect(body).not.toContain(tokens.src_access_token)
        expect(body).not.toContain(tokens.src_refresh_token!)
      }
      const stored = await sql<{ a: string | null; r: string | null }>`SELECT access_token_sealed AS a, refresh_token_sealed AS r FROM migrations WHERE id = ${m.id}`.execute(h.app.db)
      expect(stored.rows[0].a).not.toContain(tokens.src_access_token)
      expect(stored.rows[0].a).not.toBeNull()
      const cancelled = await admin.request({ method: 'POST', url: `/api/v1/migration/${m.id}/cancel` })
      expect(cancelled.statusCode).toBe(202)
      expect(json(cancelled).status).toBe('cancelled')
      const after = await sql<{ a: string | null; r: string | null }>`SELECT access_token_sealed AS a, refresh_token_sealed AS r FROM migrations WHERE id = ${m.id}`.execute(h.app.db)
      expect(after.rows[0]).toEqual({ a: null, r: null })
    })

    it('refuses steps out of order with 409 and says which state allows them', async () => {
      const admin = await createOrgWithAdmin(h.app)
      const m = await analyze(admin, await sourceTokens(sim))
      const done = await run(admin, m.id)
      expect(['completed', 'completed_with_errors']).toContain(done.status)
      const again = await admin.request({ method: 'POST', url: '/api/v1/migration/run', payload: { migration_id: m.id } })
      expect(again.statusCode).toBe(409)
      expect(json(again).detail).toMatch(/analyzed or configured/)
      const config = await admin.request({ method: 'PUT', url: `/api/v1/migration/${m.id}/config`, payload: done.config! })
      expect(config.statusCode).toBe(409)
      const cancel = await admin.request({ method: 'POST', url: `/api/v1/migration/${m.id}/cancel` })
      expect(cancel.statusCode).toBe(409)
      const unknown = await admin.request({ method: 'POST', url: '/api/v1/migration/run', payload: { migration_id: '0190a0a0-0000-7000-8000-000000000000' } })
      expect(unknown.statusCode).toBe(404)
    })

    it('imports one migration of an organization at a time; other organizations are not held up', async () => {
      const admin = await createOrgWithAdmin(h.app)
      const first = await analyze(admin, await sourceTokens(sim))
      const second = await analyze(admin, await sourceTokens(sim))
      const neighbour = await createOrgWithAdmin(h.app)
      const theirs = await analyze(neighbour, await sourceTokens(sim))
      const runOf = (member: typeof admin, id: string) => member.request({ method: 'POST', url: '/api/v1/migration/run', payload: { migration_id: id } })
      // Slow source pages keep the first run importing while the others are tried.
      sim.control.setFaults({ delayMs: 1000, pathContains: '/query' })
      try {
        expect((await runOf(admin, first.id)).statusCode).toBe(202)
        const refused = await runOf(admin, second.id)
        expect(refused.statusCode).toBe(409)
        expect(json(refused).detail).toContain(`Migration ${first.id} of this organization is running`)
        expect((await getMigration(admin, second.id)).status).toBe('analyzed')
        expect((await runOf(neighbour, theirs.id)).statusCode).toBe(202)
        for (const [member, id] of [[admin, first.id], [neighbour, theirs.id]] as const) {
          expect((await member.request({ method: 'POST', url: `/api/v1/migration/${id}/cancel` })).statusCode).toBe(202)
          await waitFor(member, id, ['cancelled'])
        }
      } finally {
        sim.control.setFaults({ delayMs: 0 })
      }
      // Two runs started at the same moment: one goes, the other is told why.
      const third = await analyze(admin, await sourceTokens(sim))
      const both = await Promise.all([runOf(admin, second.id), runOf(admin, third.id)])
      expect(both.map((r) => r.statusCode).sort()).toEqual([202, 409])
      expect(json(both.find((r) => r.statusCode === 409)!).detail).toMatch(/imports one migration at a time/)
      const started = both[0].statusCode === 202 ? second.id : third.id
      expect(['completed', 'completed_with_errors']).toContain((await waitFor(admin, started, ['completed', 'completed_with_errors', 'failed'])).status)
    })

    it('validates the configuration against the analysis and lists every problem with its path', async () => {
      const admin = await createOrgWithAdmin(h.app)
      const m = await analyze(admin, await sourceTokens(sim))
      const bad: MigrationConfig = {
        objects: ['Account', 'Nonexistent__c', 'Project__c', 'CaseComment'],
        field_overrides: { Account: { NoSuchField: { action: 'ignore' }, Name: { action: 'field', target: 'no_such_target' } } },
        relationships: { missing_parent: 'import_without_link', owners: 'match_by_email' },
        dedup: { accounts: { match_by: 'none', on_match: 'link' }, contacts: { match_by: 'email', on_match: 'link' }, leads: { match_by: 'email', on_match: 'link' } },
        phasing: 'all',
        emit_webhooks: false,
      }
      const res = await admin.request({ method: 'PUT', url: `/api/v1/migration/${m.id}/config`, payload: bad })
      expect(res.statusCode, res.body).toBe(400)
      const fields = json(res).errors.map((e: { field: string }) => e.field)
      expect(fields).toEqual(expect.arrayContaining(['objects[1]', 'objects[2]', 'objects', 'field_overrides.Account.NoSuchField', 'field_overrides.Account.Name']))
      // The shape is checked first: unknown settings and wrong types are 400 before any analysis.
      const shape = await admin.request({ method: 'PUT', url: `/api/v1/migration/${m.id}/config`, payload: { ...bad, surprise: true } })
      expect(shape.statusCode).toBe(400)
      // Nothing was saved: the migration is still as the analysis left it.
      expect((await admin.request({ method: 'GET', url: `/api/v1/migration/${m.id}` })).json().status).toBe('analyzed')
    })

    it('downloads the report as JSON and the issues as CSV', async () => {
      const admin = await createOrgWithAdmin(h.app)
      const m = await analyze(admin, await sourceTokens(sim))
      const report = await admin.request({ method: 'GET', url: `/api/v1/migration/${m.id}/report?download=true` })
      expect(report.statusCode).toBe(200)
      expect(report.headers['content-disposition']).toContain(`migration-report-${m.id}.json`)
      expect(json(report).readiness.score).toBeGreaterThanOrEqual(0)
      const done = await run(admin, m.id)
      const csv = await admin.request({ method: 'GET', url: `/api/v1/migration/${m.id}/issues.csv` })
      expect(csv.statusCode).toBe(200)
      expect(csv.headers['content-type']).toContain('text/csv')
      const lines = csv.body.trim().split('\r\n')
      expect(lines[0]).toBe('object,src_id,kind,code,field,reason,source_data,created_at')
      expect(lines.length - 1).toBe(done.totals.failed + done.totals.skipped + done.totals.warnings)
    })

    it('streams progress as Server-Sent Events until the run ends, then answers 204 to a reconnect', async () => {
      const admin = await createOrgWithAdmin(h.app)
      const m = await analyze(admin, await sourceTokens(sim))
      await admin.request({ method: 'POST', url: '/api/v1/migration/run', payload: { migration_id: m.id } })
      // EventSource needs a real HTTP connection (inject would wait for the end); the file's afterAll closes it.
      const address = await h.app.listen({ port: 0, host: '127.0.0.1' })
      {
        const res = await fetch(`${address}/api/v1/migration/${m.id}/events`, { headers: { cookie: `cairn_session=${admin.session}` } })
        expect(res.status).toBe(200)
        expect(res.headers.get('content-type')).toContain('text/event-stream')
        const text = await res.text()
        const events = [...text.matchAll(/id: (\d+)\nevent: (\w+)\ndata: (.*)\n\n/g)].map((e) => ({ id: Number(e[1]), event: e[2], data: JSON.parse(e[3]) }))
        expect(events.at(-1)!.event).toBe('end')
        const states = events.filter((e) => e.event === 'migration').map((e) => e.data.status)
        expect(['completed', 'completed_with_errors']).toContain(states.at(-1))
        const last = events.at(-1)!.id
        const again = await fetch(`${address}/api/v1/migration/${m.id}/events`, { headers: { cookie: `cairn_session=${admin.session}`, 'last-event-id': String(last) } })
        expect(again.status).toBe(204)
      }
    })
  })

  describe(`migration tenancy on ${target}`, () => {
    const h = appPerFile(target, simSettings(sim))

    it('journals the records a run writes, as one operation of the migration channel, only when Configure asks', async () => {
      const journalOf = async (orgId: string, operation: string) =>
        (await sql<{ type: string; channel: string; n: number }>`
          SELECT type, channel, count(*)::int AS n FROM events WHERE org_id = ${orgId} AND operation_id = ${operation} GROUP BY type, channel ORDER BY type`.execute(h.app.db)).rows
      const imported = async (orgId: string) =>
        (await sql<{ n: number }>`SELECT count(*)::int AS n FROM accounts WHERE org_id = ${orgId} AND src_id IS NOT NULL`.execute(h.app.db)).rows[0].n
      for (const announce of [true, false]) {
        const admin = await createOrgWithAdmin(h.app)
        const m = await analyze(admin, await sourceTokens(sim))
        const report = json(await admin.request({ method: 'GET', url: `/api/v1/migration/${m.id}/report` }))
        await configure(admin, m.id, { ...everything(report), emit_webhooks: announce })
        const done = await run(admin, m.id)
        expect(done.status, done.status_reason ?? '').toMatch(/^completed/)
        const journal = await journalOf(admin.orgId, m.id)
        if (!announce) {
          expect(journal).toEqual([])
          continue
        }
        expect(journal.every((j) => j.channel === 'migration')).toBe(true)
        const count = (type: string) => journal.find((j) => j.type === type)?.n ?? 0
        expect(count('account.created')).toBe(await imported(admin.orgId))
        expect(count('contact.created')).toBeGreaterThan(0)
        // References set after their target arrived (the re-link pass) are changes of the run too.
        const relinked = await sql<{ previous: unknown }>`
          SELECT body::jsonb -> 'data' -> 'previous' AS previous FROM events
          WHERE org_id = ${admin.orgId} AND operation_id = ${m.id} AND type = 'account.updated'`.execute(h.app.db)
        expect(relinked.rows.length).toBeGreaterThan(0)
        for (const r of relinked.rows) expect(r.previous).toEqual({ parent_account_id: null })
      }
    })

    it("keeps one organization's migrations, reports and issues invisible to another", async () => {
      const a = await createOrgWithAdmin(h.app)
      const b = await createOrgWithAdmin(h.app)
      const m = await analyze(a, await sourceTokens(sim))
      await run(a, m.id)
      for (const url of [`/api/v1/migration/${m.id}`, `/api/v1/migration/${m.id}/report`, `/api/v1/migration/${m.id}/issues`, `/api/v1/migration/${m.id}/issues.csv`, `/api/v1/migration/${m.id}/events`]) {
        expect((await b.request({ method: 'GET', url })).statusCode, url).toBe(404)
      }
      for (const req of [
        { method: 'PUT' as const, url: `/api/v1/migration/${m.id}/config`, payload: (await a.request({ method: 'GET', url: `/api/v1/migration/${m.id}` })).json().config },
        { method: 'POST' as const, url: '/api/v1/migration/run', payload: { migration_id: m.id } },
        { method: 'POST' as const, url: `/api/v1/migration/${m.id}/cancel` },
      ]) {
        expect((await b.request(req)).statusCode, req.url).toBe(404)
      }
      expect(json(await b.request({ method: 'GET', url: '/api/v1/migrations' })).data).toHaveLength(0)
      expect(json(await a.request({ method: 'GET', url: '/api/v1/migrations' })).data).toHaveLength(1)
      // B's records are untouched: the import wrote only into A.
      const inB = await sql<{ n: number }>`SELECT count(*)::int AS n FROM accounts WHERE org_id = ${b.orgId}`.execute(h.app.db)
      expect(inB.rows[0].n).toBe(0)
    })
  })
}
