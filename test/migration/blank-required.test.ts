/**
 * A source record whose required value is blank (whitespace or invisible characters only, which
 * the service's API refuses) fails alone, as an issue with its reason and source data; the run
 * goes on and imports every other record, and nothing blank reaches a required column
 * (docs/migration.md, Bad data). Short text is trimmed as the API trims it.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { startSourceSim, type SourceSim } from '../../tools/source-sim/main.ts'
import { appPerFile, createOrgWithAdmin, json } from '../helpers/build-app.ts'
import { targets } from '../helpers/databases.ts'
import { isBlank } from '../../src/shared/required-text.ts'
import { analyze, configure, everything, run, sourceTokens } from './helpers.ts'

const account = (ref: string, name: string) => ({ attributes: { type: 'Account', referenceId: ref }, Name: name })
const contact = (ref: string, lastName: string, accountRef: string) => ({ attributes: { type: 'Contact', referenceId: ref }, FirstName: 'Sam', LastName: lastName, AccountId: `@${accountRef}` })

const DATASET = {
  'Account.json': { records: [account('Good', 'Good Co'), account('Spaced', '  Spaced Co \u00a0'), account('Zwsp', '\u200b'), account('Nbsp', '\u00a0\u3000'), account('Braille', '\u2800')] },
  'Contact.json': { records: [contact('Ok', 'Lovelace', 'Good'), contact('Invisible', '\u2060\ufeff', 'Good'), contact('Tabs', '\t\n', 'Spaced')] },
}

for (const target of await targets()) {
  describe(`blank required values from the source on ${target}`, () => {
    let sim: SourceSim
    let dir: string
    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-blank-required-'))
      for (const [file, body] of Object.entries(DATASET)) fs.writeFileSync(path.join(dir, file), JSON.stringify(body))
      sim = await startSourceSim({ port: 0, host: '127.0.0.1', dataset: dir })
    })
    afterAll(async () => {
      await sim?.close()
      fs.rmSync(dir, { recursive: true, force: true })
    })
    const h = appPerFile(target, { ALLOW_PRIVATE_OUTBOUND: 'true' })

    it('fail their own records only, as issues, and the run imports the rest', async () => {
      const admin = await createOrgWithAdmin(h.app)
      const analyzed = await analyze(admin, await sourceTokens(sim, { refresh: false }))
      expect(analyzed.status, analyzed.status_reason ?? '').toBe('analyzed')
      const report = json(await admin.request({ method: 'GET', url: `/api/v1/migration/${analyzed.id}/report` }))
      await configure(admin, analyzed.id, everything(report))
      const done = await run(admin, analyzed.id)
      expect(done.status, done.status_reason ?? '').toBe('completed_with_errors')
      const progress = Object.fromEntries(done.progress.map((p: { object: string; created: number; failed: number }) => [p.object, { created: p.created, failed: p.failed }]))
      expect(progress).toMatchObject({ Account: { created: 2, failed: 3 }, Contact: { created: 1, failed: 2 } })

      const db = h.app.db
      const accounts = await sql<{ name: string }>`SELECT name FROM accounts WHERE org_id = ${admin.orgId} ORDER BY name`.execute(db)
      expect(accounts.rows.map((r) => r.name)).toEqual(['Good Co', 'Spaced Co'])
      const contacts = await sql<{ last_name: string }>`SELECT last_name FROM contacts WHERE org_id = ${admin.orgId}`.execute(db)
      expect(contacts.rows.map((r) => r.last_name)).toEqual(['Lovelace'])
      for (const r of [...accounts.rows.map((a) => a.name), ...contacts.rows.map((c) => c.last_name)]) expect(isBlank(r)).toBe(false)

      const issues = json(await admin.request({ method: 'GET', url: `/api/v1/migration/${done.id}/issues?limit=200` }))
      const failed = issues.data.filter((i: { kind: string }) => i.kind !== 'warning')
      expect(failed.map((i: { object: string; code: string; reason: string }) => [i.object, i.code, i.reason]).sort()).toEqual(
        [
          ['Account', 'validation_failed', 'name is required but Name is blank'],
          ['Account', 'validation_failed', 'name is required but Name is blank'],
          ['Account', 'validation_failed', 'name is required but Name is empty'],
          ['Contact', 'validation_failed', 'last_name is required but LastName is blank'],
          ['Contact', 'validation_failed', 'last_name is required but LastName is empty'],
        ].sort(),
      )
    })
  })
}
