// The deterministic generator: same seed, same data (in-process and over HTTP from two servers);
// realistic relationships; the data-quality hazards real orgs have; ids that sort in creation order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateOrg } from '../../tools/source-sim/data/generator.ts'
import { GENERATED_OBJECTS } from '../../tools/source-sim/data/gen-plan.ts'
import { standardObjects } from '../../tools/source-sim/schema/standard.ts'
import { customiseStandard, customObjects } from '../../tools/source-sim/schema/custom.ts'
import { api, start, token } from './helpers.ts'
import type { SourceSim } from '../../tools/source-sim/main.ts'

const defs = (() => {
  const std = standardObjects()
  customiseStandard(std, '5g')
  return [...std, ...customObjects()]
})()

function snapshot(seed: number, accounts: number): string[] {
  const data = generateOrg({ seed, accounts }, '5g')
  const out: string[] = []
  for (const name of GENERATED_OBJECTS) {
    const d = data.get(name)!
    const def = defs.find((x) => x.name === name)!
    for (const i of [0, 1, 2, 7, 39, Math.floor(d.live / 2), d.live - 1, d.total - 1]) {
      out.push(JSON.stringify([name, d.id(i), ...def.fields.map((f) => d.value(i, f.name) ?? null)]))
    }
  }
  return out
}

describe('generator determinism', () => {
  it('gives identical records for one seed across runs, different ones for another seed', () => {
    const a = snapshot(7, 500)
    expect(snapshot(7, 500)).toEqual(a)
    const other = snapshot(8, 500)
    expect(other.filter((line, i) => line !== a[i]).length).toBeGreaterThan(a.length / 2)
  })

  it('computes a million-record object lazily: any index, no precomputation', () => {
    const t0 = performance.now()
    const data = generateOrg({ seed: 1, accounts: 100_000, counts: { Contact: 1_000_000 } }, '5g')
    const c = data.get('Contact')!
    expect(c.live).toBe(1_000_000)
    expect(c.indexOf(c.id(999_999))).toBe(999_999)
    expect(c.value(999_999, 'AccountId')).toMatch(/^001/)
    expect(performance.now() - t0).toBeLessThan(1000)
  })

  it('is identical across two simulators started with the same seed', async () => {
    const [s1, s2] = await Promise.all([start({ dataset: 'generated', seed: 99, accounts: 120 }), start({ dataset: 'generated', seed: 99, accounts: 120 })])
    try {
      const [t1, t2] = await Promise.all([token(s1), token(s2)])
      for (const soql of ['SELECT Id, Name, Email, AccountId, Account.Name, CreatedDate FROM Contact', 'SELECT Id, Subject, Status, (SELECT Id, CommentBody FROM CaseComments) FROM Case', 'SELECT Id, WhoId, WhatId, Subject FROM Task']) {
        const path = `/services/data/v62.0/query?q=${encodeURIComponent(soql)}`
        const [a, b] = await Promise.all([api(s1, t1, path), api(s2, t2, path)])
        expect(a.body).toEqual(b.body)
      }
    } finally {
      await Promise.all([s1.close(), s2.close()])
    }
  })
})

describe('generated demo org content', () => {
  let sim: SourceSim
  let tok: string
  const q = async (soql: string, all = false) => {
    const r = await api(sim, tok, `/services/data/v62.0/${all ? 'queryAll' : 'query'}?q=${encodeURIComponent(soql)}`)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    return r.body as { totalSize: number; records: Array<Record<string, any>> }
  }
  beforeAll(async () => {
    sim = await start()
    tok = await token(sim)
  })
  afterAll(() => sim?.close())

  it('has every object in realistic proportions, a few thousand records in all', async () => {
    const rc = (await api(sim, tok, '/services/data/v62.0/limits/recordCount')).body.sObjects as Array<{ name: string; count: number }>
    const n = (name: string) => rc.find((s) => s.name === name)!.count
    for (const name of GENERATED_OBJECTS) expect(n(name), name).toBeGreaterThan(0)
    expect(n('Contact')).toBeGreaterThan(n('Account'))
    expect(n('CaseComment')).toBeGreaterThan(n('Case'))
    const total = GENERATED_OBJECTS.reduce((s, o) => s + n(o), 0)
    expect(total).toBeGreaterThan(2000)
    expect(total).toBeLessThan(10_000)
  })

  it('ids carry the right key prefixes and sort in creation order', async () => {
    const prefixes: Record<string, string> = { Account: '001', Contact: '003', Case: '500', CaseComment: '00a', Task: '00T', Event: '00U', Lead: '00Q', Opportunity: '006', Product2: '01t', User: '005', Project__c: 'a00', acme__Subscription__c: 'a01' }
    for (const [obj, p] of Object.entries(prefixes)) {
      const r = await q(`SELECT Id, CreatedDate FROM ${obj}`)
      const ids = r.records.map((x) => x.Id as string)
      expect(ids.every((id) => id.startsWith(p) && id.length === 18), obj).toBe(true)
      expect([...ids].sort(), obj).toEqual(ids)
      const dates = r.records.map((x) => x.CreatedDate as string)
      expect([...dates].sort(), obj).toEqual(dates)
    }
  })

  it('has case comment threads in order, and cases without comments (null subquery)', async () => {
    const r = await q('SELECT Id, (SELECT Id, CreatedDate FROM CaseComments ORDER BY CreatedDate) FROM Case')
    expect(r.records.some((c) => c.CaseComments === null)).toBe(true)
    const withThreads = r.records.filter((c) => c.CaseComments)
    expect(withThreads.length).toBeGreaterThan(r.records.length / 2)
    for (const c of withThreads) {
      const ids = c.CaseComments.records.map((x: { Id: string }) => x.Id)
      expect([...ids].sort()).toEqual(ids) // thread order = id order
    }
  })

  it('links activities through polymorphic WhoId/WhatId and has converted leads and stages', async () => {
    const t = await q('SELECT WhoId, WhatId FROM Task')
    const who = new Set(t.records.map((x) => (x.WhoId as string | null)?.slice(0, 3)))
    const what = new Set(t.records.map((x) => (x.WhatId as string | null)?.slice(0, 3)))
    for (const p of ['003', '00Q']) expect(who).toContain(p)
    for (const p of ['001', '006', '500']) expect(what).toContain(p)
    const conv = await q('SELECT Id, ConvertedAccountId, ConvertedContactId, Status FROM Lead WHERE IsConverted = true')
    expect(conv.totalSize).toBeGreaterThan(0)
    expect(conv.records.every((l) => l.Status === 'Closed - Converted' && String(l.ConvertedAccountId).startsWith('001'))).toBe(true)
    const stages = await q('SELECT StageName, IsClosed, IsWon FROM Opportunity')
    expect(new Set(stages.records.map((o) => o.StageName)).size).toBeGreaterThan(5)
    expect(stages.records.every((o) => o.IsWon === (o.StageName === 'Closed Won'))).toBe(true)
  })

  it('contains the data-quality problems real orgs have', async () => {
    const contacts = (await q('SELECT Id, Email, LastName, FirstName, AccountId, Account.Name FROM Contact')).records
    const norm = new Map<string, string[]>()
    for (const c of contacts) if (c.Email) norm.set(c.Email.trim().toLowerCase(), [...(norm.get(c.Email.trim().toLowerCase()) ?? []), c.Email])
    const dups = [...norm.values()].filter((v) => v.length > 1 && new Set(v).size > 1)
    expect(dups.length, 'duplicate emails differing in case/whitespace').toBeGreaterThan(5)
    expect(contacts.some((c) => c.AccountId && c.Account === null), 'orphaned AccountId').toBe(true)
    expect(contacts.some((c) => c.LastName === ''), 'empty required LastName').toBe(true)
    expect(contacts.some((c) => /[\u3040-\u30ff\u4e00-\u9fff\u0400-\u04ff\u0600-\u06ff]/.test(`${c.FirstName} ${c.LastName}`)), 'non-Latin names').toBe(true)
    const hostile = await q("SELECT Id FROM Contact WHERE LastName LIKE '%<script>%' OR LastName LIKE '%DROP TABLE%' OR LastName LIKE '=HYPERLINK%'")
    expect(hostile.totalSize, 'hostile strings').toBeGreaterThan(0)
    expect((await q('SELECT COUNT() FROM Lead WHERE Company = null')).totalSize, 'empty required Company').toBeGreaterThan(0)
    const cases = (await q('SELECT Description FROM Case')).records
    expect(cases.some((c) => (c.Description ?? '').length === 32000), 'very long text').toBe(true)
    const del = await q('SELECT Id, IsDeleted FROM Account WHERE IsDeleted = true', true)
    expect(del.totalSize, 'soft-deleted rows only through queryAll').toBeGreaterThan(0)
    expect((await q('SELECT COUNT() FROM Account WHERE IsDeleted = true')).totalSize).toBe(0)
  })

  it('carries custom objects/fields and automation metadata', async () => {
    const s = await q('SELECT Id, Name, acme__Account__c, acme__Account__r.Name, acme__Plan__c FROM acme__Subscription__c LIMIT 5')
    expect(s.records[0].acme__Account__r.Name).toBeTruthy()
    const a = await q('SELECT Id, Customer_Tier__c, acme__Health_Score__c, (SELECT Id FROM Projects__r), (SELECT Id FROM acme__Subscriptions__r) FROM Account LIMIT 20')
    expect(a.records.some((r) => r.Projects__r)).toBe(true)
    const triggers = await api(sim, tok, `/services/data/v62.0/tooling/query?q=${encodeURIComponent("SELECT Id, TableEnumOrId FROM ApexTrigger WHERE Status = 'Active'")}`)
    expect(new Set(triggers.body.records.map((r: { TableEnumOrId: string }) => r.TableEnumOrId)).size).toBeGreaterThan(3)
  })
})
