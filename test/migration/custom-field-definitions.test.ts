/**
 * Configure's `create_custom_fields`: the Developer-Edition sample org's accounts (the real fixture
 * file, linked by path) carry custom fields with no target (SLA__c, NumberofLocations__c,
 * SLAExpirationDate__c...). Imported with the option, each becomes a typed custom field definition
 * of accounts and the values sit under the new names, checked like any write; without it they stay
 * under the source names, as before.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { startSourceSim, type SourceSim } from '../../tools/source-sim/main.ts'
import { appPerFile, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { targets } from '../helpers/databases.ts'
import { analyze, configure, everything, run, sourceTokens } from './helpers.ts'

const DE_ORG = path.resolve(import.meta.dirname, '../../../shared/fixtures/salesforce/sobject-tree/de-org-sample-data')

for (const target of await targets()) {
  describe(`imported custom fields on ${target}`, () => {
    let sim: SourceSim
    let dir: string
    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-custom-fields-'))
      fs.symlinkSync(path.join(DE_ORG, 'Account.json'), path.join(dir, 'Account.json'))
      sim = await startSourceSim({ port: 0, host: '127.0.0.1', dataset: dir })
    })
    afterAll(async () => {
      await sim?.close()
      fs.rmSync(dir, { recursive: true, force: true })
    })
    const h = appPerFile(target, { ALLOW_PRIVATE_OUTBOUND: 'true' })

    async function migrate(admin: Member, createCustomFields: boolean) {
      const analyzed = await analyze(admin, await sourceTokens(sim, { refresh: false }))
      expect(analyzed.status, analyzed.status_reason ?? '').toBe('analyzed')
      const report = json(await admin.request({ method: 'GET', url: `/api/v1/migration/${analyzed.id}/report` }))
      await configure(admin, analyzed.id, { ...everything(report), create_custom_fields: createCustomFields })
      const done = await run(admin, analyzed.id)
      expect(['completed', 'completed_with_errors'], done.status_reason ?? '').toContain(done.status)
      return done
    }

    async function burlington(admin: Member): Promise<Record<string, unknown>> {
      const rows = await sql<{ custom_fields: Record<string, unknown> }>`
        SELECT custom_fields FROM accounts WHERE org_id = ${admin.orgId} AND name = 'Burlington Textiles Corp of America'`.execute(h.app.db)
      return rows.rows[0].custom_fields
    }

    it('creates typed definitions and writes the values under their names, on request only', async () => {
      const plain = await createOrgWithAdmin(h.app)
      await migrate(plain, false)
      expect(json(await plain.request({ url: '/api/v1/custom-fields' })).data).toEqual([])
      expect(await burlington(plain)).toMatchObject({ SLA__c: 'Silver', NumberofLocations__c: 6, SLAExpirationDate__c: '2019-10-22' })

      const admin = await createOrgWithAdmin(h.app)
      const done = await migrate(admin, true)
      const defs = json(await admin.request({ url: '/api/v1/custom-fields?kind=account' })).data as Array<{ name: string; label: string; type: string; options: string[] }>
      const byName = new Map(defs.map((d) => [d.name, d]))
      // Types from the describe: picklists with their values, numbers, dates; the rest text.
      expect(byName.get('ownership')).toMatchObject({ type: 'picklist', label: 'Ownership' })
      expect(byName.get('ownership')!.options).toContain('Public')
      expect(byName.get('numberof_locations')).toMatchObject({ type: 'number' })
      expect(byName.get('sla_expiration_date')).toMatchObject({ type: 'date' })
      expect(byName.get('sla')).toMatchObject({ type: 'text', label: 'SLA' })
      const custom = await burlington(admin)
      expect(custom).toMatchObject({ ownership: 'Public', sla: 'Silver', numberof_locations: 6, sla_expiration_date: '2019-10-22' })
      expect(custom).not.toHaveProperty('SLA__c')

      // The definitions are the organization's like any other: lists filter by them.
      const listed = json(await admin.request({ url: '/api/v1/accounts?custom_fields.ownership=Public&custom_fields.numberof_locations[gte]=6&limit=200' })).data
      expect(listed.map((a: { name: string }) => a.name)).toContain('Burlington Textiles Corp of America')

      // A second run of the same source finds the definitions it made instead of making more.
      await migrate(admin, true)
      expect(json(await admin.request({ url: '/api/v1/custom-fields?kind=account' })).data).toHaveLength(defs.length)
      const issues = json(await admin.request({ method: 'GET', url: `/api/v1/migration/${done.id}/issues?limit=200` })).data as Array<{ code: string; reason: string }>
      for (const i of issues.filter((x) => x.code === 'custom_field_value_kept')) expect(i.reason).toContain('kept in custom_fields')
    })
  })
}
