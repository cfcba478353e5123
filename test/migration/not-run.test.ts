/**
 * A run that fails mid-way: the object it was importing is `failed` with the reason, and every
 * object it never reached is `not_run` (a failed migration never continues, so `pending` would
 * promise work that never comes). The source fails for good by refusing the credentials: the
 * access token expires mid-run and there is no refresh token to renew it.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { start } from '../source-sim/helpers.ts'
import { appPerFile, createOrgWithAdmin } from '../helpers/build-app.ts'
import { targets } from '../helpers/databases.ts'
import { analyze, getMigration, simSettings, sourceTokens, waitFor } from './helpers.ts'

const sim = await start({ dataset: 'generated', accounts: 150 })
afterAll(() => sim.close())

for (const target of await targets()) {
  describe(`a run that fails mid-way, on ${target}`, () => {
    const h = appPerFile(target, simSettings(sim))

    it('marks the object it was importing failed and the ones it never reached not_run', async () => {
      sim.control.reset()
      const admin = await createOrgWithAdmin(h.app)
      const m = await analyze(admin, await sourceTokens(sim, { refresh: false }))
      expect(m.status, m.status_reason ?? '').toBe('analyzed')
      // Slow queries keep the run on its first object long enough to pull the credentials from under it.
      sim.control.setFaults({ delayMs: 40, pathContains: '/query' })
      const res = await admin.request({ method: 'POST', url: '/api/v1/migration/run', payload: { migration_id: m.id } })
      expect(res.statusCode, res.body).toBe(202)
      for (let i = 0; i < 600; i++) {
        const now = await getMigration(admin, m.id)
        if ((now.progress.find((p) => p.object === 'Account')?.processed ?? 0) > 0) break
        await new Promise((r) => setTimeout(r, 20))
      }
      expect(sim.control.expireSessions()).toBeGreaterThan(0)
      const done = await waitFor(admin, m.id, ['completed', 'completed_with_errors', 'failed', 'cancelled'])
      sim.control.reset()

      expect(done.status, done.status_reason ?? '').toBe('failed')
      expect(done.status_reason).toMatch(/refused the credentials/)
      const byStatus = (s: string) => done.progress.filter((p) => p.status === s).map((p) => p.object)
      expect(byStatus('pending')).toEqual([])
      expect(byStatus('running')).toEqual([])
      // The progress lists objects in import order: done ones, the one that failed, then the rest never reached.
      const failedAt = done.progress.findIndex((p) => p.status === 'failed')
      expect(byStatus('failed')).toHaveLength(1)
      expect(done.progress.slice(0, failedAt).every((p) => p.status === 'completed')).toBe(true)
      expect(byStatus('not_run')).toEqual(done.progress.slice(failedAt + 1).map((p) => p.object))
      expect(byStatus('not_run').length).toBeGreaterThan(0)
      for (const p of done.progress.filter((x) => x.status === 'not_run')) expect(p.processed, p.object).toBe(0)
    })
  })
}
