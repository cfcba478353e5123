/**
 * Values the source accepted never cost a record. The Developer-Edition sample org holds two
 * contacts whose emails have an `&` in the domain (`j.davis@expressl&t.net`), which Cairn's email
 * rule refuses. Served with the real fixture files (linked by path, not copied) plus a case, a
 * task and an event of this test pointing at those contacts, the import keeps both contacts, their
 * emails in custom_fields with a warning each, and the case and activities linked to them.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { startSourceSim, type SourceSim } from '../../tools/source-sim/main.ts'
import { appPerFile, createOrgWithAdmin, json } from '../helpers/build-app.ts'
import { targets } from '../helpers/databases.ts'
import { analyze, configure, everything, run, sourceTokens } from './helpers.ts'

const DE_ORG = path.resolve(import.meta.dirname, '../../../shared/fixtures/salesforce/sobject-tree/de-org-sample-data')
const ODD_EMAILS = ['j.davis@expressl&t.net', 'b.levy@expressl&t.net']

/** Records of this test (the fixtures hold no case or activity of those contacts). */
const LINKED = {
  'Links.json': {
    records: [
      { attributes: { type: 'Case', referenceId: 'LinkCase1' }, Subject: 'Shipment lost', Status: 'New', Origin: 'Phone', ContactId: '@ContactRef5' },
      { attributes: { type: 'Task', referenceId: 'LinkTask1' }, Subject: 'Call back', Status: 'Not Started', Priority: 'Normal', WhoId: '@ContactRef12' },
      { attributes: { type: 'Event', referenceId: 'LinkEvent1' }, Subject: 'Visit', StartDateTime: '2024-03-01T10:00:00.000+0000', EndDateTime: '2024-03-01T11:00:00.000+0000', DurationInMinutes: 60, WhoId: '@ContactRef5' },
    ],
  },
}

function datasetDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-source-values-'))
  for (const file of ['Account.json', 'Contact.json']) fs.symlinkSync(path.join(DE_ORG, file), path.join(dir, file))
  for (const [file, body] of Object.entries(LINKED)) fs.writeFileSync(path.join(dir, file), JSON.stringify(body))
  return dir
}

for (const target of await targets()) {
  describe(`contacts with emails the source accepted migrate with their links on ${target}`, () => {
    let sim: SourceSim
    let dir: string
    beforeAll(async () => {
      dir = datasetDir()
      sim = await startSourceSim({ port: 0, host: '127.0.0.1', dataset: dir })
    })
    afterAll(async () => {
      await sim?.close()
      fs.rmSync(dir, { recursive: true, force: true })
    })
    const h = appPerFile(target, { ALLOW_PRIVATE_OUTBOUND: 'true' })

    it('imports every contact, keeps the odd emails in custom_fields with a warning, and links the case and activities', async () => {
      const admin = await createOrgWithAdmin(h.app)
      const analyzed = await analyze(admin, await sourceTokens(sim, { refresh: false }))
      expect(analyzed.status, analyzed.status_reason ?? '').toBe('analyzed')
      const report = json(await admin.request({ method: 'GET', url: `/api/v1/migration/${analyzed.id}/report` }))
      await configure(admin, analyzed.id, everything(report))
      const done = await run(admin, analyzed.id)
      expect(['completed', 'completed_with_errors'], done.status_reason ?? '').toContain(done.status)
      for (const row of done.progress) expect(row.failed + row.skipped, `${row.object} failed or skipped`).toBe(0)

      const db = h.app.db
      const contacts = await sql<{ id: string; email: string | null; custom_fields: Record<string, unknown>; src_id: string }>`
        SELECT id, email, custom_fields, src_id FROM contacts WHERE org_id = ${admin.orgId} AND custom_fields->>'Email' IS NOT NULL`.execute(db)
      expect(contacts.rows.map((c) => c.custom_fields.Email).sort()).toEqual([...ODD_EMAILS].sort())
      for (const c of contacts.rows) expect(c.email).toBeNull()

      const issues = json(await admin.request({ method: 'GET', url: `/api/v1/migration/${done.id}/issues?object=Contact&limit=200` }))
      const emailIssues = issues.data.filter((i: { code: string }) => i.code === 'invalid_email')
      expect(emailIssues.map((i: { src_id: string }) => i.src_id).sort()).toEqual(contacts.rows.map((c) => c.src_id).sort())
      for (const i of emailIssues) expect(i).toMatchObject({ kind: 'warning', field: 'Email' })

      const byEmail = new Map(contacts.rows.map((c) => [c.custom_fields.Email, c.id]))
      const kase = await sql<{ contact_id: string | null }>`SELECT contact_id FROM cases WHERE org_id = ${admin.orgId} AND subject = 'Shipment lost'`.execute(db)
      expect(kase.rows).toEqual([{ contact_id: byEmail.get('j.davis@expressl&t.net') }])
      const activities = await sql<{ subject: string; contact_id: string | null }>`SELECT subject, contact_id FROM activities WHERE org_id = ${admin.orgId} ORDER BY subject`.execute(db)
      expect(activities.rows).toEqual([
        { subject: 'Call back', contact_id: byEmail.get('b.levy@expressl&t.net') },
        { subject: 'Visit', contact_id: byEmail.get('j.davis@expressl&t.net') },
      ])

      // The imported contact is one the REST API reads and accepts back unchanged.
      const id = byEmail.get('j.davis@expressl&t.net')
      const got = await admin.request({ method: 'GET', url: `/api/v1/contacts/${id}` })
      expect(got.statusCode, got.body).toBe(200)
      const patched = await admin.request({ method: 'PATCH', url: `/api/v1/contacts/${id}`, payload: { email: json(got).email, custom_fields: json(got).custom_fields } })
      expect(patched.statusCode, patched.body).toBe(200)
    })
  })
}
