/**
 * Search across kinds (GET /api/v1/search): what it matches (names, emails, domains, codes, case
 * numbers), how it ranks, what a token's scopes let it see, tenancy, literal wildcards, short
 * queries and bad input; and that every searched column has migration 0015's two indexes.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { targets } from '../helpers/databases.ts'
import { createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { createVia } from '../helpers/samples.ts'
import { api, oauthHarnessPerFile, obtainTokens, type OAuthHarness, type TestClient } from '../oauth/helpers.ts'
import { recordReads } from '../../src/records/index.ts'
import { kindsByName } from '../../src/records/contracts.ts'
import { searchPlans } from '../../src/records/search/search-fields.ts'
import type { Scope } from '../../src/shared/auth-context.ts'

interface Hit {
  kind: string
  id: string
  title: string
  subtitle: string | null
  score: number
}

describe.each(await targets())('record search on %s', (target) => {
  let h: OAuthHarness
  let admin: Member
  let client: TestClient
  oauthHarnessPerFile(target, (...world) => ([h, admin, client] = world))

  async function search(member: Member, query: string): Promise<Hit[]> {
    const res = await member.request({ method: 'GET', url: `/api/v1/search?${query}` })
    expect(res.statusCode, res.body).toBe(200)
    return json(res).data
  }
  const q = (text: string, extra = '') => `q=${encodeURIComponent(text)}${extra}`

  describe('with a few records of every kind', () => {
    let ids: Record<string, string>
    beforeEach(async () => {
      const acme = await createVia(admin, 'account', { name: 'Acme Corporation', domain: 'acme.example' })
      const acmeLabs = await createVia(admin, 'account', { name: 'Acme', domain: 'labs.example' })
      const ada = await createVia(admin, 'contact', { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@engines.example' })
      const lead = await createVia(admin, 'lead', { first_name: 'Grace', last_name: 'Hopper', company: 'Navy Labs', email: 'grace@navy.example' })
      const opp = await createVia(admin, 'opportunity', { name: 'Acme renewal', amount: 52000 })
      const product = await createVia(admin, 'product', { name: 'Difference Engine', code: 'DE-100' })
      const kase = await createVia(admin, 'case', { subject: 'Engine overheats' })
      const task = await createVia(admin, 'activity', { kind: 'task', subject: 'Call Ada about the engine' })
      ids = { acme: acme.id, acmeLabs: acmeLabs.id, ada: ada.id, lead: lead.id, opp: opp.id, product: product.id, case: kase.id, caseNumber: String(kase.case_number), task: task.id }
    })

    it('finds records by name, email, domain, code and case number across kinds', async () => {
      expect((await search(admin, q('lovelace'))).map((r) => r.id)).toEqual([ids.ada])
      const byEmail = await search(admin, q('grace@navy'))
      expect(byEmail).toEqual([{ kind: 'lead', id: ids.lead, title: 'Grace Hopper', subtitle: 'Navy Labs · grace@navy.example', score: expect.any(Number) }])
      expect((await search(admin, q('acme.example'))).map((r) => r.id)).toEqual([ids.acme])
      expect((await search(admin, q('de-100'))).map((r) => [r.kind, r.subtitle])).toEqual([['product', 'DE-100']])
      for (const text of [ids.caseNumber, `#${ids.caseNumber}`]) {
        const hits = await search(admin, q(text))
        expect(hits[0], text).toMatchObject({ kind: 'case', id: ids.case, title: 'Engine overheats', subtitle: `#${ids.caseNumber}`, score: 1 })
      }
      // One query, several kinds: product, case and activity all mention engines.
      const engines = await search(admin, q('engine'))
      expect(new Set(engines.map((r) => r.kind))).toEqual(new Set(['product', 'case', 'activity', 'contact']))
    })

    it('ranks exact matches, then prefixes, then values that merely contain the text', async () => {
      const hits = await search(admin, q('acme'))
      expect(hits.map((r) => r.id)).toEqual([ids.acmeLabs, ids.acme, ids.opp])
      expect(hits[0].score).toBe(1)
      expect(hits[1].score).toBeGreaterThan(0.6)
      expect(hits[1].score).toBeLessThan(1)
      const contains = await search(admin, q('corporation'))
      expect(contains).toHaveLength(1)
      expect(contains[0].score).toBeLessThan(0.6)
    })

    it('searches only the kinds asked for, and answers at most limit results', async () => {
      expect((await search(admin, q('engine', '&kinds=case,activity'))).map((r) => r.kind).sort()).toEqual(['activity', 'case'])
      expect(await search(admin, q('acme', '&limit=1'))).toHaveLength(1)
    })

    it('matches e-mail addresses, domains and codes from their start, and an address also from its domain', async () => {
      const ids_ = async (query: string) => (await search(admin, q(query))).map((r) => r.id)
      expect(await ids_('ada@eng')).toEqual([ids.ada])
      expect(await ids_('engines.ex')).toEqual([ids.ada])
      expect(await ids_('navy.example')).toEqual([ids.lead])
      expect(await ids_('labs.exa')).toEqual([ids.acmeLabs])
      expect(await ids_('de-1')).toEqual([ids.product])
      // Not from the middle: these values are indexed by their start only (migration 0022).
      for (const middle of ['@engines', 'gines.example', 'cme.example', 'e-100']) expect(await ids_(middle), middle).toEqual([])
      // A list's q reads the same way, and still finds names and subjects anywhere.
      const listed = async (kind: string, query: string) => json(await admin.request({ method: 'GET', url: `/api/v1/${kind}?q=${encodeURIComponent(query)}` })).data.map((r: { id: string }) => r.id)
      expect(await listed('contacts', 'ENGINES')).toEqual([ids.ada])
      expect(await listed('contacts', 'ada@')).toEqual([ids.ada])
      expect(await listed('contacts', 'velac')).toEqual([ids.ada])
      expect(await listed('contacts', 'gines')).toEqual([])
      expect(await listed('leads', 'navy')).toEqual([ids.lead])
      expect(await listed('accounts', 'acme.ex')).toEqual([ids.acme])
      expect(await listed('accounts', 'me.example')).toEqual([])
    })

    it('matches prefixes only for one or two characters, and substrings from three', async () => {
      // "Lovelace" starts with "lo" and contains "ov" and "ove"; "Engine overheats" contains "ove".
      expect((await search(admin, q('lo'))).map((r) => r.id)).toEqual([ids.ada])
      expect((await search(admin, q('ov'))).map((r) => r.id)).toEqual([])
      expect((await search(admin, q('ove'))).map((r) => r.id).sort()).toEqual([ids.ada, ids.case].sort())
    })

    it('shows a token only the kinds its scopes read: products need erp:read', async () => {
      const crmOnly = (await obtainTokens(h.app, admin, client, { scope: 'crm:read' })).access_token
      const withErp = (await obtainTokens(h.app, admin, client, { scope: 'crm:read erp:read' })).access_token
      const writeOnly = (await obtainTokens(h.app, admin, client, { scope: 'crm:write' })).access_token
      const kindsSeen = async (token: string) => json((await api(h.app, token, { url: `/api/v1/search?${q('engine')}` }))).data.map((r: Hit) => r.kind).sort()
      expect(await kindsSeen(crmOnly)).toEqual(['activity', 'case', 'contact'])
      expect(await kindsSeen(withErp)).toEqual(['activity', 'case', 'contact', 'product'])
      // Asking for products explicitly does not get them either.
      expect(json(await api(h.app, crmOnly, { url: `/api/v1/search?${q('engine', '&kinds=product')}` })).data).toEqual([])
      const refused = await api(h.app, writeOnly, { url: `/api/v1/search?${q('engine')}` })
      expect(refused.statusCode).toBe(403)
      expect(json(refused).code).toBe('insufficient_scope')
    })

    it("never shows another organization's records", async () => {
      const other = await createOrgWithAdmin(h.app, 'Other')
      await createVia(other, 'account', { name: 'Acme Other', domain: 'acme.other' })
      expect(await search(other, q('lovelace'))).toEqual([])
      expect((await search(other, q('acme'))).map((r) => r.title)).toEqual(['Acme Other'])
      expect((await search(admin, q('acme'))).map((r) => r.title)).not.toContain('Acme Other')
      expect(await search(other, q(ids.caseNumber))).toEqual([])
    })
  })

  it('takes % and _ literally', async () => {
    const pct = await createVia(admin, 'account', { name: '100% Cotton' })
    await createVia(admin, 'account', { name: '1000 Cotton' })
    const under = await createVia(admin, 'account', { name: 'snake_case Ltd' })
    await createVia(admin, 'account', { name: 'snakeXcase Ltd' })
    expect((await search(admin, q('100%'))).map((r) => r.id)).toEqual([pct.id])
    expect((await search(admin, q('e_c'))).map((r) => r.id)).toEqual([under.id])
    expect((await search(admin, q('%'))).map((r) => r.id)).toEqual([])
    // The list's `q` filter, which the same indexes serve, keeps its literal reading too.
    expect(json(await admin.request({ method: 'GET', url: `/api/v1/accounts?q=${encodeURIComponent('0%')}` })).data.map((r: { id: string }) => r.id)).toEqual([pct.id])
  })

  it('answers 400 for a missing, blank or too long q, an unknown kind and a limit out of range', async () => {
    const cases: [string, string][] = [
      ['', 'validation_failed'],
      ['q=', 'validation_failed'],
      ['q=%20%20', 'validation_failed'],
      [q('x'.repeat(101)), 'validation_failed'],
      [q('acme', '&kinds=case_comment'), 'validation_failed'],
      [q('acme', '&kinds=account,'), 'validation_failed'],
      [q('acme', '&limit=51'), 'invalid_limit'],
      [q('acme', '&limit=0'), 'invalid_limit'],
      [q('acme', '&sort=name'), 'validation_failed'],
    ]
    for (const [query, code] of cases) {
      const res = await admin.request({ method: 'GET', url: `/api/v1/search?${query}` })
      expect(res.statusCode, query).toBe(400)
      expect(json(res).code, query).toBe(code)
    }
    expect(json(await admin.request({ method: 'GET', url: `/api/v1/search?${q('acme', '&limit=51')}` })).detail).toBe('limit must be an integer from 1 to 50.')
    expect((await admin.request({ method: 'GET', url: `/api/v1/search?${q('x'.repeat(100))}` })).statusCode).toBe(200)
    // Text PostgreSQL cannot store (NUL) is a 400, as in a list's q, never a 500.
    for (const url of ['/api/v1/search?q=a%00b', '/api/v1/accounts?q=a%00b']) expect((await admin.request({ method: 'GET', url })).statusCode, url).toBe(400)
    const stored = await admin.request({ method: 'POST', url: '/api/v1/accounts', payload: { name: 'a\u0000b' } })
    expect(stored.statusCode, stored.body).toBe(400)
  })

  it('indexes every searched column the way it is searched, led by org_id (migrations 0015 and 0022)', async () => {
    const rows = await sql<{ tablename: string; indexdef: string }>`SELECT tablename, indexdef FROM pg_indexes WHERE schemaname = current_schema()`.execute(h.app.db)
    for (const name of recordReads.SEARCH_KINDS) {
      const kind = kindsByName[name]
      const defs = rows.rows.filter((r) => r.tablename === kind.table).map((r) => r.indexdef)
      for (const f of kind.fields.filter((x) => x.search)) {
        const label = `${kind.table}.${f.name} (${f.search})`
        expect(defs.some((d) => d.includes(`(org_id, lower(${f.name}) text_pattern_ops)`)), `${label} prefix`).toBe(true)
        // Trigrams only where a value is matched anywhere: they are most of what search costs a write.
        expect(defs.some((d) => d.includes(`USING gin (org_id, ${f.name} gin_trgm_ops)`)), `${label} trigram`).toBe(f.search === 'contains')
        const domainIndexed = defs.some((d) => d.includes(`(org_id, lower(split_part(${f.name}, '@'::text, 2)) text_pattern_ops)`))
        expect(domainIndexed, `${label} domain`).toBe(f.search === 'email')
      }
    }
    // Migration 0020: each trigram GIN merges its pending list at 64 MB, not 4 MB (cheaper bulk writes).
    const options = await sql<{ relname: string; reloptions: string[] | null }>`SELECT relname, reloptions FROM pg_class WHERE relname LIKE '%\_trgm\_idx'`.execute(h.app.db)
    expect(options.rows.length).toBeGreaterThanOrEqual(10)
    for (const r of options.rows) expect(r.reloptions ?? [], r.relname).toContain('gin_pending_list_limit=65536')
  })
})

describe('what search may match for a caller', () => {
  const crmRead: { scopes: ReadonlySet<Scope> } = { scopes: new Set(['crm:read']) }
  const withErp: { scopes: ReadonlySet<Scope> } = { scopes: new Set(['crm:read', 'erp:read']) }

  it('never matches or shows a field hidden from the caller', () => {
    // A variant of opportunities whose next_step were ERP data and searched.
    const opportunity = { ...kindsByName.opportunity, fields: kindsByName.opportunity.fields.map((f) => (f.name === 'next_step' ? { ...f, erp: true, search: 'contains' as const } : f)) }
    const kinds = { ...kindsByName, opportunity }
    const plan = (caller: typeof crmRead) => searchPlans(caller, ['opportunity'], kinds)[0]
    expect(plan(crmRead).columns.map((c) => c.name)).toEqual(['name'])
    expect(plan(withErp).columns.map((c) => c.name)).toEqual(['name', 'next_step'])
    const stages = { ...kindsByName.opportunity, fields: kindsByName.opportunity.fields.map((f) => (f.name === 'stage' ? { ...f, erp: true } : f)) }
    expect(searchPlans(crmRead, ['opportunity'], { ...kindsByName, opportunity: stages })[0].subtitleSql).toBe('NULL')
  })

  it('leaves out the kinds the caller may not read', () => {
    expect(searchPlans(crmRead, recordReads.SEARCH_KINDS).map((p) => p.kind.name)).not.toContain('product')
    expect(searchPlans(withErp, recordReads.SEARCH_KINDS).map((p) => p.kind.name)).toContain('product')
    expect(searchPlans({ scopes: new Set(['crm:write'] as const) }, recordReads.SEARCH_KINDS)).toEqual([])
  })
})
