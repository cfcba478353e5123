/**
 * `GET /{kind}/export.csv` on both databases: the list's filters, sort and refusals, columns as the
 * caller's scopes allow (amounts need erp:read, products the catalog scope), RFC 4180 quoting and
 * formula injection neutralised (negative numbers kept as numbers), every page of a large list, and
 * pages read only as the client takes them (constant memory).
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { parse } from 'csv-parse/sync'
import { targets } from '../helpers/databases.ts'
import { json, type Member } from '../helpers/build-app.ts'
import { api, oauthHarnessPerFile, obtainTokens, type OAuthHarness, type TestClient } from '../oauth/helpers.ts'
import { openExport } from '../../src/imports/export.routes.ts'
import { kindsByName } from '../../src/records/contracts.ts'
import { ALL_SCOPES, type AuthContext } from '../../src/shared/auth-context.ts'

describe.each(await targets())('CSV export on %s', (target) => {
  let h: OAuthHarness
  let admin: Member
  let client: TestClient
  oauthHarnessPerFile(target, (...world) => ([h, admin, client] = world))

  async function batch(path: string, records: Record<string, unknown>[]) {
    for (let i = 0; i < records.length; i += 1000) {
      const res = await admin.request({ method: 'POST', url: `/api/v1/${path}/batch`, payload: { operation: 'create', records: records.slice(i, i + 1000) } })
      expect(res.statusCode, res.body).toBe(200)
    }
  }

  /** The rows of a CSV answer, the byte-order mark checked and dropped. */
  function rowsOf(body: string): string[][] {
    expect(body.startsWith('\uFEFF')).toBe(true)
    return parse(body.slice(1), { relax_column_count: false }) as string[][]
  }

  async function exportAs(url: string, m: Member = admin) {
    const res = await m.request({ url })
    expect(res.statusCode, res.body).toBe(200)
    return res
  }

  beforeEach(async () => {
    await batch('opportunities', [
      { name: 'Alpha', stage: 'proposal', amount: '50000.00', close_date: '2026-07-01' },
      { name: 'Beta', stage: 'negotiation', amount: '-1250.50', close_date: '2026-03-01' },
      { name: '=HYPERLINK("http://evil.example","click")', stage: 'proposal', amount: '10.00' },
      { name: '-2+3', stage: 'prospecting', description: 'line one\nline "two", with comma' },
      { name: '@SUM(A1)', stage: 'closed_won' },
    ])
  })

  it('gives each defined custom field a column, filters by it, and keeps undefined keys as JSON', async () => {
    for (const def of [
      { kind: 'opportunity', name: 'tier', label: 'Tier', type: 'picklist', options: ['Gold', 'Silver'] },
      { kind: 'opportunity', name: 'score', label: 'Score', type: 'number' },
      { kind: 'opportunity', name: 'deal_type', label: 'Type', type: 'text' },
    ]) expect((await admin.request({ method: 'POST', url: '/api/v1/custom-fields', payload: def })).statusCode).toBe(201)
    await batch('opportunities', [
      { name: 'Gamma', custom_fields: { tier: 'Gold', score: -7, legacy_code: 'X1' } },
      { name: 'Delta', custom_fields: { tier: 'Silver' } },
    ])
    const [header, ...rows] = rowsOf((await exportAs('/api/v1/opportunities/export.csv?sort=name')).body)
    const at = (name: string) => header.indexOf(name)
    // Custom fields titled by their labels; "Type" is a built-in label, so that custom field keeps its API name.
    expect(header.slice(at('Source ID'), at('Created at'))).toEqual(['Source ID', 'Tier', 'Score', 'custom_fields.deal_type', 'Other custom fields'])
    const gamma = rows.find((r) => r[at('Name')] === 'Gamma')!
    expect([gamma[at('Tier')], gamma[at('Score')], gamma[at('Other custom fields')]]).toEqual(['Gold', '-7', '{"legacy_code":"X1"}'])
    const delta = rows.find((r) => r[at('Name')] === 'Delta')!
    expect([delta[at('Score')], delta[at('Other custom fields')]]).toEqual(['', ''])
    const gold = rowsOf((await exportAs('/api/v1/opportunities/export.csv?custom_fields.tier=Gold')).body).slice(1)
    expect(gold.map((r) => r[at('Name')])).toEqual(['Gamma'])
  })

  it('answers every record of the list with a header of field labels, references by name beside their ids, as a download', async () => {
    const res = await exportAs('/api/v1/opportunities/export.csv')
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="opportunities-\d{4}-\d{2}-\d{2}\.csv"$/)
    const [header, ...rows] = rowsOf(res.body)
    const fields = kindsByName.opportunity.fields.flatMap((f) => (f.type === 'ref' || f.type === 'user' ? [f.label, `${f.label} ID`] : [f.label]))
    expect(header).toEqual(['ID', ...fields, 'Source ID', 'Other custom fields', 'Created at', 'Updated at'])
    expect(rows).toHaveLength(5)
    // Same order as the list: newest first.
    const list = json(await admin.request({ url: '/api/v1/opportunities?limit=10' })).data
    expect(rows.map((r) => r[0])).toEqual(list.map((r: any) => r.id))
  })

  it('neutralises formulas but keeps negative numbers numeric, and quotes as RFC 4180 says', async () => {
    const res = await exportAs('/api/v1/opportunities/export.csv?sort=name')
    const [header, ...rows] = rowsOf(res.body)
    const col = (name: string) => header.indexOf(name)
    const byName = new Map(rows.map((r) => [r[col('Name')], r]))
    expect([...byName.keys()].sort()).toEqual(["'-2+3", '\'=HYPERLINK("http://evil.example","click")', "'@SUM(A1)", 'Alpha', 'Beta'].sort())
    expect(byName.get('Beta')![col('Amount')]).toBe('-1250.50')
    expect(byName.get("'-2+3")![col('Description')]).toBe('line one\nline "two", with comma')
    // The raw text: the quote doubled inside a quoted cell, lines ended by CRLF.
    expect(res.body).toContain('"\'=HYPERLINK(""http://evil.example"",""click"")"')
    expect(res.body.split('\r\n').length).toBeGreaterThan(6)
  })

  it("takes the list's filters and sort, and answers the list's problems", async () => {
    const proposal = rowsOf((await exportAs('/api/v1/opportunities/export.csv?stage=proposal&sort=-amount')).body)
    const nameCol = proposal[0].indexOf('Name')
    expect(proposal.slice(1).map((r) => r[nameCol])).toEqual(['Alpha', '\'=HYPERLINK("http://evil.example","click")'])
    const ranged = rowsOf((await exportAs('/api/v1/opportunities/export.csv?close_date[lt]=2026-06-01')).body)
    expect(ranged.slice(1).map((r) => r[nameCol])).toEqual(['Beta'])
    for (const [query, code] of [
      ['limit=0', 'invalid_limit'],
      ['limit=201', 'invalid_limit'],
      ['cursor=nope', 'invalid_cursor'],
      ['sort=colour', 'validation_failed'],
      ['amount[gte]=12,5', 'validation_failed'],
      ['stage=won-ish', 'validation_failed'],
    ]) {
      const res = await admin.request({ url: `/api/v1/opportunities/export.csv?${query}` })
      expect(res.statusCode, query).toBe(400)
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(json(res).code, query).toBe(code)
    }
  })

  it('shows only what the token may read: no amount column without erp:read, no products without it', async () => {
    const read = (await obtainTokens(h.app, admin, client, { scope: 'crm:read' })).access_token
    const erp = (await obtainTokens(h.app, admin, client, { scope: 'crm:read erp:read' })).access_token
    const write = (await obtainTokens(h.app, admin, client, { scope: 'crm:write' })).access_token
    const plain = await api(h.app, read, { url: '/api/v1/opportunities/export.csv' })
    expect(plain.statusCode, plain.body).toBe(200)
    const header = rowsOf(plain.body)[0]
    expect(header).not.toContain('Amount')
    expect(header).toContain('Stage')
    const withErp = await api(h.app, erp, { url: '/api/v1/opportunities/export.csv' })
    expect(rowsOf(withErp.body)[0]).toContain('Amount')
    // Sorting or filtering by amount is reading it.
    const sorted = await api(h.app, read, { url: '/api/v1/opportunities/export.csv?sort=amount' })
    expect(sorted.statusCode).toBe(403)
    expect(sorted.headers['www-authenticate']).toContain('insufficient_scope')
    expect((await api(h.app, read, { url: '/api/v1/products/export.csv' })).statusCode).toBe(403)
    expect((await api(h.app, erp, { url: '/api/v1/products/export.csv' })).statusCode).toBe(200)
    expect((await api(h.app, write, { url: '/api/v1/opportunities/export.csv' })).statusCode).toBe(403)
    expect((await api(h.app, null, { url: '/api/v1/opportunities/export.csv' })).statusCode).toBe(401)
    // Importing is writing: crm:read alone may not start one.
    const refused = await api(h.app, read, { method: 'POST', url: '/api/v1/imports', headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x--\r\n' })
    expect(refused.statusCode).toBe(403)
  })

  it('exports every page of a large list, in order, each record once', async () => {
    await batch('accounts', Array.from({ length: 2500 }, (_, i) => ({ name: `Account ${String(i).padStart(5, '0')}`, industry: i % 2 ? 'Retail' : 'Energy' })))
    const rows = rowsOf((await exportAs('/api/v1/accounts/export.csv?sort=name&limit=200')).body)
    expect(rows).toHaveLength(2501)
    const names = rows.slice(1).map((r) => r[rows[0].indexOf('Name')])
    expect(names).toEqual(Array.from({ length: 2500 }, (_, i) => `Account ${String(i).padStart(5, '0')}`))
    const retail = rowsOf((await exportAs('/api/v1/accounts/export.csv?q=Account%2000')).body)
    expect(retail).toHaveLength(1 + 1000)
  })

  it('reads a page only when the client has taken the previous ones', async () => {
    await batch('accounts', Array.from({ length: 2000 }, (_, i) => ({ name: `Account ${String(i).padStart(5, '0')}` })))
    const auth: AuthContext = { orgId: admin.orgId, userId: admin.userId, role: 'admin', scopes: new Set(ALL_SCOPES), via: 'session' }
    const stream = await openExport(h.app.db, auth, kindsByName.account, { sort: 'name', limit: 100 })
    const it = stream[Symbol.asyncIterator]()
    // The header, then the first page.
    const first = String((await it.next()).value) + String((await it.next()).value)
    expect(first).toContain('Account 00000')
    // Written after the export started, sorting last: only a lazily read page can contain it.
    await batch('accounts', [{ name: 'Zebra late arrival' }])
    let rest = ''
    for (let r = await it.next(); !r.done; r = await it.next()) rest += String(r.value)
    expect(rest).toContain('Zebra late arrival')
    expect((first + rest).split('\r\n').filter(Boolean)).toHaveLength(1 + 2001)
  })
})
