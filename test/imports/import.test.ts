/**
 * CSV imports through the API on both databases: mapping from the header and given, deduplication
 * (a re-import updates), references by name and by src_id (a migration's source links too),
 * per-row issues with their row numbers and the issues file, counts and status values, refusals as
 * problems, and tenancy. The service runs as SERVICE_ROLE=web so each test runs the background job
 * itself, with the real runner.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { targets } from '../helpers/databases.ts'
import { appPerFile, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { createVia } from '../helpers/samples.ts'
import { runImports, startImport } from './helpers.ts'
import { addSourceLinks } from '../../src/migration/import/source-links.ts'

describe.each(await targets())('CSV imports on %s', (target) => {
  const ctx = appPerFile(target, { SERVICE_ROLE: 'web', IMPORT_MAX_FILE_BYTES: '65536' })
  let admin: Member

  beforeEach(async () => {
    admin = await createOrgWithAdmin(ctx.app)
  })

  async function importFile(parts: Record<string, string>, csv: string, m: Member = admin) {
    const res = await startImport(m, parts, csv)
    expect(res.statusCode, res.body).toBe(202)
    const started = json(res)
    expect(started.status).toBe('queued')
    expect(res.headers.location).toBe(`/api/v1/imports/${started.id}`)
    await runImports(ctx.app, target)
    const done = await m.request({ url: `/api/v1/imports/${started.id}` })
    expect(done.statusCode, done.body).toBe(200)
    return json(done)
  }

  const contacts = async () =>
    (await sql<Record<string, any>>`SELECT first_name, last_name, email, account_id, src_id, title FROM contacts WHERE org_id = ${admin.orgId} ORDER BY last_name, first_name`.execute(ctx.app.db)).rows

  it('maps columns from the header, imports every row and says which columns it left out', async () => {
    const csv = 'First Name,Last Name,E-mail,Title,Shoe size\r\nAda,Lovelace,ada@example.com,Countess,38\r\nAlan,Turing,alan@example.com,,44\r\n'
    const done = await importFile({ kind: 'contacts' }, csv)
    expect(done).toMatchObject({ kind: 'contacts', status: 'completed', total_rows: 2, processed: 2, created: 2, updated: 0, failed: 0, issue_count: 0 })
    expect(done.mapping).toEqual({ 'First Name': 'first_name', 'Last Name': 'last_name', 'E-mail': 'email', Title: 'title', 'Shoe size': null })
    expect(done.started_at).not.toBeNull()
    expect(done.finished_at).not.toBeNull()
    expect(await contacts()).toEqual([
      { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', account_id: null, src_id: null, title: 'Countess' },
      { first_name: 'Alan', last_name: 'Turing', email: 'alan@example.com', account_id: null, src_id: null, title: null },
    ])
  })

  it("maps a source platform's export by the migration's field names", async () => {
    const done = await importFile({ kind: 'accounts' }, 'Name,BillingCity,NumberOfEmployees,AnnualRevenue\nGlobex,Springfield,250,1250000.50\n')
    expect(done.mapping).toEqual({ Name: 'name', BillingCity: 'billing_city', NumberOfEmployees: 'employee_count', AnnualRevenue: 'annual_revenue' })
    const row = (await sql<any>`SELECT name, billing_city, employee_count, annual_revenue::text AS revenue FROM accounts WHERE org_id = ${admin.orgId}`.execute(ctx.app.db)).rows[0]
    expect(row).toEqual({ name: 'Globex', billing_city: 'Springfield', employee_count: 250, revenue: '1250000.50' })
  })

  it('uses a given mapping exactly: unnamed columns are left out', async () => {
    const mapping = JSON.stringify({ Surname: 'last_name', Mail: 'email' })
    const done = await importFile({ kind: 'contacts', mapping }, 'Surname,Mail,First Name\nHopper,grace@example.com,Grace\n')
    expect(done.mapping).toEqual({ Surname: 'last_name', Mail: 'email', 'First Name': null })
    expect(await contacts()).toEqual([{ first_name: null, last_name: 'Hopper', email: 'grace@example.com', account_id: null, src_id: null, title: null }])
  })

  describe('custom fields', () => {
    async function define(body: Record<string, unknown>) {
      const res = await admin.request({ method: 'POST', url: '/api/v1/custom-fields', payload: { kind: 'contact', ...body } })
      expect(res.statusCode, res.body).toBe(201)
    }
    const customOf = async () =>
      (await sql<{ last_name: string; custom_fields: Record<string, unknown> }>`SELECT last_name, custom_fields FROM contacts WHERE org_id = ${admin.orgId} ORDER BY last_name`.execute(ctx.app.db)).rows

    beforeEach(async () => {
      await define({ name: 'tier', label: 'Customer tier', type: 'picklist', options: ['Gold', 'Silver'] })
      await define({ name: 'score', label: 'Score', type: 'number' })
      await define({ name: 'vip', label: 'VIP', type: 'boolean' })
      await define({ name: 'renewal_on', label: 'Renewal date', type: 'date' })
    })

    it('fills them from columns titled by name, label or as the export titles them, typed as defined', async () => {
      const csv = 'last_name,Customer tier,custom_fields.score,vip,Renewal date\nLovelace,gold,12.5,yes,2027-01-31\nTuring,,7,no,\n'
      const done = await importFile({ kind: 'contacts' }, csv)
      expect(done).toMatchObject({ status: 'completed', created: 2, failed: 0 })
      expect(done.mapping).toEqual({ last_name: 'last_name', 'Customer tier': 'custom_fields.tier', 'custom_fields.score': 'custom_fields.score', vip: 'custom_fields.vip', 'Renewal date': 'custom_fields.renewal_on' })
      expect(await customOf()).toEqual([
        { last_name: 'Lovelace', custom_fields: { tier: 'Gold', score: 12.5, vip: true, renewal_on: '2027-01-31' } },
        { last_name: 'Turing', custom_fields: { score: 7, vip: false } },
      ])
    })

    it('reports a bad value on its row and column, and updates only the custom fields a row has', async () => {
      await createVia(admin, 'contact', { last_name: 'Lovelace', email: 'ada@example.com', custom_fields: { tier: 'Silver', score: 1 } })
      const csv = 'email,last_name,Customer tier,Score\nada@example.com,Lovelace,Gold,\nalan@example.com,Turing,Bronze,3\ngrace@example.com,Hopper,,many\n'
      const done = await importFile({ kind: 'contacts', dedupe_by: 'email' }, csv)
      expect(done).toMatchObject({ status: 'completed_with_errors', updated: 1, created: 0, failed: 2 })
      const issues = (await admin.request({ url: `/api/v1/imports/${done.id}/issues.csv` })).body
      expect(issues.split('\r\n').slice(1, -1).map((line: string) => line.split(',').slice(0, 3))).toEqual([
        ['3', 'Customer tier', 'custom_fields.tier'],
        ['4', 'Score', 'custom_fields.score'],
      ])
      // The matched record keeps the custom field the file did not fill (score), as a PATCH would.
      expect(await customOf()).toEqual([{ last_name: 'Lovelace', custom_fields: { tier: 'Gold', score: 1 } }])
    })

    it('reads back its own export: export, delete, import restores the custom fields', async () => {
      await createVia(admin, 'contact', { last_name: 'Lovelace', custom_fields: { tier: 'Gold', score: 12.5, vip: true, renewal_on: '2027-01-31' } })
      const exported = await admin.request({ url: '/api/v1/contacts/export.csv' })
      expect(exported.statusCode).toBe(200)
      await sql`DELETE FROM contacts WHERE org_id = ${admin.orgId}`.execute(ctx.app.db)
      const done = await importFile({ kind: 'contacts' }, exported.body)
      expect(done).toMatchObject({ status: 'completed', created: 1, failed: 0 })
      expect(await customOf()).toEqual([{ last_name: 'Lovelace', custom_fields: { tier: 'Gold', score: 12.5, vip: true, renewal_on: '2027-01-31' } }])
    })

    it('refuses a mapping to a custom field the kind does not have', async () => {
      const res = await startImport(admin, { kind: 'contacts', mapping: JSON.stringify({ last_name: 'last_name', Shoe: 'custom_fields.shoe' }) }, 'last_name,Shoe\nLovelace,38\n')
      expect(res.statusCode).toBe(400)
      expect(json(res).detail).toContain('shoe is not a custom field of contacts')
    })
  })

  it('deduplicates by email: a matching record is updated, not duplicated, also within one file', async () => {
    await createVia(admin, 'contact', { last_name: 'Lovelace', email: 'Ada@Example.com', title: 'Old title' })
    const csv = 'last_name,email,title\nLovelace,ada@example.com,Countess\nTuring,alan@example.com,Mathematician\nTuring,ALAN@example.com,Codebreaker\n'
    const first = await importFile({ kind: 'contacts', dedupe_by: 'email' }, csv)
    expect(first).toMatchObject({ status: 'completed', processed: 3, created: 1, updated: 2, failed: 0 })
    expect((await contacts()).map((c) => [c.last_name, c.email, c.title])).toEqual([
      ['Lovelace', 'ada@example.com', 'Countess'],
      ['Turing', 'ALAN@example.com', 'Codebreaker'],
    ])
    // Importing the same file again updates every row and creates nothing.
    const again = await importFile({ kind: 'contacts', dedupe_by: 'email' }, csv)
    expect(again).toMatchObject({ created: 0, updated: 3 })
    expect(await contacts()).toHaveLength(2)
  })

  it('deduplicates by src_id and by domain', async () => {
    const csv = 'src_id,last_name\nS-1,Lovelace\nS-2,Turing\n'
    expect(await importFile({ kind: 'contacts', dedupe_by: 'src_id' }, csv)).toMatchObject({ created: 2, updated: 0 })
    expect(await importFile({ kind: 'contacts', dedupe_by: 'src_id' }, 'src_id,last_name\nS-1,Byron\n')).toMatchObject({ created: 0, updated: 1 })
    expect((await contacts()).map((c) => [c.src_id, c.last_name])).toEqual([['S-1', 'Byron'], ['S-2', 'Turing']])
    await createVia(admin, 'account', { name: 'Globex', domain: 'globex.com' })
    expect(await importFile({ kind: 'accounts', dedupe_by: 'domain' }, 'name,domain\nGlobex Corporation,GLOBEX.com\n')).toMatchObject({ created: 0, updated: 1 })
    const names = (await sql<{ name: string }>`SELECT name FROM accounts WHERE org_id = ${admin.orgId}`.execute(ctx.app.db)).rows
    expect(names).toEqual([{ name: 'Globex Corporation' }])
  })

  it('resolves references by id, src_id and name, and reports unknown and ambiguous ones', async () => {
    const globex = await createVia(admin, 'account', { name: 'Globex  Corp' })
    const initech = await createVia(admin, 'account', { name: 'Initech', src_id: 'ACC-9' })
    await createVia(admin, 'account', { name: 'Twin' })
    await createVia(admin, 'account', { name: 'twin' })
    const csv = ['last_name,account', `ById,${initech.id}`, 'BySrcId,ACC-9', 'ByName,globex corp', 'Unknown,Nobody Inc', 'Ambiguous,Twin', 'NoAccount,'].join('\n')
    const done = await importFile({ kind: 'contacts' }, csv)
    expect(done).toMatchObject({ status: 'completed_with_errors', processed: 6, created: 4, failed: 2, issue_count: 2 })
    const byName = new Map((await contacts()).map((c) => [c.last_name, c.account_id]))
    expect(Object.fromEntries(byName)).toEqual({ ById: initech.id, BySrcId: initech.id, ByName: globex.id, NoAccount: null })
    const issues = await admin.request({ url: `/api/v1/imports/${done.id}/issues.csv` })
    expect(issues.statusCode).toBe(200)
    expect(issues.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(issues.body).toBe(
      'row,column,field,message\r\n' +
        '5,account,account_id,"names no account of this organization (by id, src_id or name)"\r\n' +
        '6,account,account_id,names several accounts by name: give the id or src_id of the one meant\r\n',
    )
  })

  it("follows a migration's source links: a source id it matched to an existing record leads there", async () => {
    const acme = await createVia(admin, 'account', { name: 'Acme' })
    const ada = await createVia(admin, 'contact', { last_name: 'Lovelace', src_id: 'C-OWN' })
    // As a migration's deduplication leaves them (src/migration/import/source-links.ts).
    await addSourceLinks(ctx.app.db, admin.orgId, crypto.randomUUID(), 'account', [{ src_id: 'SF-ACC-1', record_id: acme.id }], new Date())
    await addSourceLinks(ctx.app.db, admin.orgId, crypto.randomUUID(), 'contact', [{ src_id: 'SF-CON-1', record_id: ada.id }], new Date())
    expect(await importFile({ kind: 'contacts' }, 'last_name,account\nTuring,SF-ACC-1\n')).toMatchObject({ created: 1, failed: 0 })
    // Matched through the link, the record is updated and keeps its own src_id.
    expect(await importFile({ kind: 'contacts', dedupe_by: 'src_id' }, 'src_id,last_name,title\nSF-CON-1,Lovelace,Countess\n')).toMatchObject({ created: 0, updated: 1 })
    expect((await contacts()).map((c) => [c.last_name, c.src_id, c.title, c.account_id])).toEqual([
      ['Lovelace', 'C-OWN', 'Countess', null],
      ['Turing', null, null, acme.id],
    ])
  })

  it('turns each invalid value into an issue naming row and column, and imports the other rows', async () => {
    const csv = [
      'name,stage,amount,close_date,probability',
      'Good,Proposal,1000.50,2026-12-01,50',
      'Bad amount,proposal,"1,000",2026-12-01,',
      'Bad date,proposal,10,2026-02-30,',
      'Bad stage,almost won,10,,',
      ',proposal,10,,',
      'Too many cells,proposal,10,,,extra',
      '',
      'Negative,closed_lost,-250,,0',
    ].join('\n')
    const done = await importFile({ kind: 'opportunities' }, csv)
    expect(done).toMatchObject({ status: 'completed_with_errors', total_rows: 7, processed: 7, created: 2, failed: 5 })
    const lines = (await admin.request({ url: `/api/v1/imports/${done.id}/issues.csv` })).body.trim().split('\r\n')
    expect(lines[0]).toBe('row,column,field,message')
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 3).join(','))).toEqual(['3,amount,amount', '4,close_date,close_date', '5,stage,stage', '6,name,name', '7,,'])
    expect(lines[3]).toContain('must be one of: ')
    const rows = (await sql<any>`SELECT name, stage, amount::text AS amount FROM opportunities WHERE org_id = ${admin.orgId} ORDER BY name`.execute(ctx.app.db)).rows
    expect(rows).toEqual([
      { name: 'Good', stage: 'proposal', amount: '1000.50' },
      { name: 'Negative', stage: 'closed_lost', amount: '-250.00' },
    ])
  })

  it('emits the usual events for the records it writes', async () => {
    const hook = await admin.request({ method: 'POST', url: '/api/v1/webhooks', payload: { url: 'https://93.184.215.14/hook', events: ['contact.created', 'contact.updated'] } })
    expect(hook.statusCode, hook.body).toBe(201)
    await createVia(admin, 'contact', { last_name: 'Old', email: 'old@example.com' })
    await importFile({ kind: 'contacts', dedupe_by: 'email' }, 'last_name,email\nNew,new@example.com\nOlder,old@example.com\n')
    const types = (await sql<{ event_type: string }>`SELECT event_type FROM webhook_deliveries WHERE org_id = ${admin.orgId} ORDER BY event_type`.execute(ctx.app.db)).rows.map((r) => r.event_type)
    expect(types).toEqual(['contact.created', 'contact.created', 'contact.updated'])
  })

  it('ends failed, keeping what it wrote, when the stored file stops being CSV', async () => {
    const res = await startImport(admin, { kind: 'accounts' }, 'name\nA\nB\n')
    expect(res.statusCode).toBe(202)
    await sql`UPDATE import_file_chunks SET data = ${Buffer.from('name\nA\n"B\nC')} WHERE org_id = ${admin.orgId}`.execute(ctx.app.db)
    await runImports(ctx.app, target)
    const done = json(await admin.request({ url: `/api/v1/imports/${json(res).id}` }))
    expect(done.status).toBe('failed')
    expect(done.status_reason).toMatch(/could not be read/)
  })

  it('refuses what it cannot import with a problem, before anything is written', async () => {
    const problem = async (parts: Record<string, string>, csv: string | undefined, status: number, field?: string) => {
      const res = await startImport(admin, parts, csv)
      expect(res.statusCode, res.body).toBe(status)
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
      if (field) expect(json(res).errors.map((e: any) => e.field)).toContain(field)
      return json(res)
    }
    await problem({ kind: 'contacts' }, undefined, 400, 'file')
    await problem({ kind: 'widgets' }, 'name\nA\n', 400, 'kind')
    await problem({}, 'name\nA\n', 400, 'kind')
    await problem({ kind: 'contacts', mapping: '{not json' }, 'last_name\nA\n', 400, 'mapping')
    await problem({ kind: 'contacts', mapping: '["last_name"]' }, 'last_name\nA\n', 400, 'mapping')
    await problem({ kind: 'contacts', mapping: JSON.stringify({ last_name: 'surname' }) }, 'last_name\nA\n', 400, 'mapping.last_name')
    await problem({ kind: 'contacts', mapping: JSON.stringify({ Missing: 'last_name' }) }, 'last_name\nA\n', 400, 'mapping.Missing')
    await problem({ kind: 'leads', mapping: JSON.stringify({ last_name: 'last_name', converted: 'converted_account_id' }) }, 'last_name,converted\nA,x\n', 400, 'mapping.converted')
    await problem({ kind: 'contacts', dedupe_by: 'phone' }, 'last_name\nA\n', 400, 'dedupe_by')
    await problem({ kind: 'accounts', dedupe_by: 'email' }, 'name\nA\n', 400, 'dedupe_by')
    await problem({ kind: 'contacts', dedupe_by: 'email' }, 'last_name\nA\n', 400, 'dedupe_by')
    await problem({ kind: 'contacts' }, 'first_name\nA\n', 400, 'mapping')
    await problem({ kind: 'contacts' }, 'Colour,Size\nred,2\n', 400, 'mapping')
    await problem({ kind: 'contacts' }, '', 400, 'file')
    await problem({ kind: 'contacts' }, 'last_name\n"unclosed\n', 400, 'file')
    await problem({ kind: 'contacts' }, Buffer.from([0x6c, 0x61, 0x73, 0x74, 0x5f, 0x6e, 0x61, 0x6d, 0x65, 0x0a, 0xff, 0xfe, 0x0a]) as unknown as string, 400, 'file')
    const large = await problem({ kind: 'contacts' }, `last_name\n${'x'.repeat(70_000)}\n`, 413)
    expect(large.code).toBe('payload_too_large')
    const json415 = await admin.request({ method: 'POST', url: '/api/v1/imports', payload: { kind: 'contacts' } })
    expect(json415.statusCode).toBe(415)
    const left = (await sql<{ n: number }>`SELECT (SELECT count(*) FROM imports)::int + (SELECT count(*) FROM import_file_chunks)::int AS n`.execute(ctx.app.db)).rows[0].n
    expect(left).toBe(0)
  })

  it("keeps each organization's imports to itself", async () => {
    const done = await importFile({ kind: 'accounts' }, 'name\nA\n"=HYPERLINK(""http://x"")"\n')
    const other = await createOrgWithAdmin(ctx.app, 'Other')
    expect((await other.request({ url: `/api/v1/imports/${done.id}` })).statusCode).toBe(404)
    expect((await other.request({ url: `/api/v1/imports/${done.id}/issues.csv` })).statusCode).toBe(404)
    expect(json(await other.request({ url: '/api/v1/imports' })).data).toEqual([])
    expect(json(await admin.request({ url: '/api/v1/imports' })).data.map((i: any) => i.id)).toEqual([done.id])
  })
})
