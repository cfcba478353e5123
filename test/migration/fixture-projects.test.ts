/**
 * Every sample project of ../shared/fixtures/salesforce/sobject-tree migrates end to end through the
 * API: the simulator serves the project, the service analyzes it, imports every supported object,
 * and then, checked against the source (read with jsforce): every record is there with its src_id
 * (or listed as an issue with a reason), and every relationship leads to the right record.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import jsforce from 'jsforce'
import { startSourceSim, type SourceSim } from '../../tools/source-sim/main.ts'
import { appPerFile, createOrgWithAdmin, json } from '../helpers/build-app.ts'
import { targets } from '../helpers/databases.ts'
import { login } from '../source-sim/helpers.ts'
import { analyze, configure, everything, run, sourceTokens } from './helpers.ts'

const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/fixtures/salesforce/sobject-tree')
const PROJECTS = fs.readdirSync(FIXTURES).filter((p) => fs.statSync(path.join(FIXTURES, p)).isDirectory()).sort()

/** Source lookup field -> target column, per imported object (polymorphic ones by the referenced object). */
const RELATIONS: Record<string, Array<{ field: string; to: Record<string, string> }>> = {
  Account: [{ field: 'ParentId', to: { Account: 'parent_account_id' } }],
  Contact: [{ field: 'AccountId', to: { Account: 'account_id' } }],
  Opportunity: [{ field: 'AccountId', to: { Account: 'account_id' } }],
  Lead: [
    { field: 'ConvertedAccountId', to: { Account: 'converted_account_id' } },
    { field: 'ConvertedContactId', to: { Contact: 'converted_contact_id' } },
    { field: 'ConvertedOpportunityId', to: { Opportunity: 'converted_opportunity_id' } },
  ],
  Case: [
    { field: 'AccountId', to: { Account: 'account_id' } },
    { field: 'ContactId', to: { Contact: 'contact_id' } },
  ],
  CaseComment: [{ field: 'ParentId', to: { Case: 'case_id' } }],
  Task: [
    { field: 'WhoId', to: { Contact: 'contact_id', Lead: 'lead_id' } },
    { field: 'WhatId', to: { Account: 'account_id', Opportunity: 'opportunity_id', Case: 'case_id' } },
  ],
  Event: [
    { field: 'WhoId', to: { Contact: 'contact_id', Lead: 'lead_id' } },
    { field: 'WhatId', to: { Account: 'account_id', Opportunity: 'opportunity_id', Case: 'case_id' } },
  ],
}
const TABLES: Record<string, string> = { Account: 'accounts', Contact: 'contacts', Lead: 'leads', Opportunity: 'opportunities', Product2: 'products', Case: 'cases', CaseComment: 'case_comments', Task: 'activities', Event: 'activities' }

for (const target of await targets()) {
  describe(`every fixture project migrates end to end on ${target}`, () => {
    let sims: Map<string, SourceSim>
    beforeAll(async () => {
      sims = new Map()
      for (const project of PROJECTS) sims.set(project, await startSourceSim({ port: 0, host: '127.0.0.1', dataset: project }))
    })
    // The relationship checks below compare only links that exist in the source; make sure they ran
    // (the nine projects hold 273 links between imported records; apex-recipes alone 200).
    let linksChecked = 0
    let projectsRun = 0
    afterAll(async () => {
      for (const sim of sims.values()) await sim.close()
      if (projectsRun === 9) expect(linksChecked).toBeGreaterThan(250)
    })
    // One app per file; each project's simulator has its own login URL, but token-based analysis
    // needs none of the OAuth settings, only loopback allowed.
    const h = appPerFile(target, { ALLOW_PRIVATE_OUTBOUND: 'true' })

    for (const project of PROJECTS) {
      it(`${project}: every record imported with its src_id, every relationship resolved`, async () => {
        const sim = sims.get(project)!
        projectsRun++
        const admin = await createOrgWithAdmin(h.app)
        const analyzed = await analyze(admin, await sourceTokens(sim, { refresh: false }))
        expect(analyzed.status, analyzed.status_reason ?? '').toBe('analyzed')
        const report = json((await admin.request({ method: 'GET', url: `/api/v1/migration/${analyzed.id}/report` })))
        await configure(admin, analyzed.id, everything(report))
        const done = await run(admin, analyzed.id)
        expect(['completed', 'completed_with_errors'], done.status_reason ?? '').toContain(done.status)

        const conn: jsforce.Connection = await login(sim)
        const db = h.app.db
        for (const row of done.progress) {
          const table = TABLES[row.object]
          const source = (await conn.query(`SELECT COUNT() FROM ${row.object}`)).totalSize
          const prefix = report.objects.find((o: { name: string }) => o.name === row.object).key_prefix
          const here = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.raw(table)} WHERE org_id = ${admin.orgId} AND left(src_id, 3) = ${prefix}`.execute(db)
          // Counts match: what is not here is listed as failed or skipped, each with a reason.
          expect(row.total, `${project} ${row.object} total`).toBe(source)
          expect(here.rows[0].n + row.failed + row.skipped, `${project} ${row.object} records`).toBe(source)
          const issues = json(await admin.request({ method: 'GET', url: `/api/v1/migration/${done.id}/issues?object=${row.object}&limit=200` }))
          expect(issues.data.filter((i: { kind: string }) => i.kind !== 'warning').length).toBe(row.failed + row.skipped)
          for (const i of issues.data) expect(i.reason.length, JSON.stringify(i)).toBeGreaterThan(10)

          for (const rel of RELATIONS[row.object] ?? []) {
            const fieldsKnown = (await conn.sobject(row.object).describe()).fields.some((f) => f.name === rel.field)
            if (!fieldsKnown) continue
            const sourceRows = await conn.query<Record<string, string | null>>(`SELECT Id, ${rel.field} FROM ${row.object}`, { autoFetch: true, maxFetch: 100_000 })
            for (const s of sourceRows.records) {
              const ref = s[rel.field]
              const mine = await sql<Record<string, string | null>>`SELECT * FROM ${sql.raw(table)} WHERE org_id = ${admin.orgId} AND src_id = ${s.Id}`.execute(db)
              if (mine.rows.length === 0) continue // failed or skipped, counted above
              const columns = Object.values(rel.to)
              if (!ref) {
                for (const c of columns) expect(mine.rows[0][c], `${row.object} ${s.Id} ${c}`).toBeNull()
                continue
              }
              const referenced = Object.entries(rel.to).find(([obj]) => report.objects.find((o: { name: string; key_prefix: string }) => o.name === obj)?.key_prefix === ref.slice(0, 3))
              if (!referenced) continue // points at an object outside the migration (Campaign, a custom object)
              const [object, column] = referenced
              const parent = await sql<{ id: string }>`SELECT id FROM ${sql.raw(TABLES[object])} WHERE org_id = ${admin.orgId} AND src_id = ${ref}`.execute(db)
              expect(mine.rows[0][column], `${project} ${row.object} ${s.Id}.${rel.field} -> ${object} ${ref}`).toBe(parent.rows[0]?.id ?? null)
              if (parent.rows[0]) linksChecked++
            }
          }
        }
      })
    }
  })
}
