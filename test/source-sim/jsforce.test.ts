// Proof of fidelity: the real, unmodified jsforce v3 client against the simulator over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type jsforce from 'jsforce'
import { login, start, VERSION } from './helpers.ts'
import type { SourceSim } from '../../tools/source-sim/main.ts'

let sim: SourceSim
let conn: jsforce.Connection

beforeAll(async () => {
  sim = await start()
  conn = await login(sim)
})
afterAll(() => sim?.close())

describe('jsforce v3 against the simulator', () => {
  it('logs in with the OAuth web server flow (PKCE) and gets the org/user ids from the identity URL', async () => {
    expect(conn.instanceUrl).toBe(sim.url)
    expect(conn.userInfo?.organizationId).toBe(sim.production.orgId)
    expect(conn.userInfo?.id).toBe(sim.production.userId)
    expect(conn.refreshToken).toMatch(/^5Aep/)
    const id = await conn.identity()
    expect(id.organization_id).toBe(sim.production.orgId)
    expect(id.user_id).toBe(sim.production.userId)
  })

  it('describeGlobal and describe', async () => {
    const g = await conn.describeGlobal()
    const names = g.sobjects.map((s) => s.name)
    for (const n of ['Account', 'Contact', 'Case', 'CaseComment', 'Task', 'Event', 'Lead', 'Opportunity', 'Product2', 'User', 'Project__c', 'acme__Subscription__c']) expect(names).toContain(n)
    const d = await conn.sobject('Task').describe()
    const who = d.fields.find((f) => f.name === 'WhoId')!
    expect(who.referenceTo).toEqual(['Contact', 'Lead'])
    expect((who as unknown as Record<string, unknown>).polymorphicForeignKey).toBe(true)
    const acc = await conn.describe('Account')
    expect(acc.recordTypeInfos.map((r) => (r as unknown as { developerName: string }).developerName)).toEqual(['Business', 'Partner', 'Master'])
    expect(acc.fields.find((f) => f.name === 'Days_Since_Created__c')?.calculated).toBe(true)
    expect(acc.fields.find((f) => f.name === 'Industry')?.picklistValues?.length).toBeGreaterThan(5)
    await expect(conn.describe('Nope__c')).rejects.toMatchObject({ errorCode: 'NOT_FOUND' })
  })

  it('query with autoFetch follows nextRecordsUrl over many pages', async () => {
    const seen: string[] = []
    const result = await conn
      .query('SELECT Id, Name, Account.Name FROM Contact')
      .on('record', (r: { Id: string }) => seen.push(r.Id))
      .run({ autoFetch: true, maxFetch: 100_000, headers: { 'Sforce-Query-Options': 'batchSize=200' } })
    expect(result.totalSize).toBe(750)
    expect(result.records.length).toBe(750)
    expect(new Set(seen).size).toBe(750)
    expect([...seen].sort()).toEqual(seen) // natural order = Id order
  })

  it('queryMore continues from a locator (nextRecordsUrl last path segment)', async () => {
    const first = await conn.request<{ totalSize: number; done: boolean; nextRecordsUrl: string; records: unknown[] }>({
      method: 'GET', url: `/services/data/v${VERSION}/query?q=${encodeURIComponent('SELECT Id FROM Case')}`, headers: { 'Sforce-Query-Options': 'batchSize=200' },
    })
    expect(first.done).toBe(false)
    expect(first.records.length).toBe(200)
    const next = await conn.queryMore(first.nextRecordsUrl)
    expect(next.records.length).toBe(200)
    expect(next.totalSize).toBe(first.totalSize)
  })

  it('SObject find/retrieve, scanAll (queryAll) and TYPEOF through the SOQL builder', async () => {
    const found = await conn.sobject('Contact').find({ LastName: { $like: 'S%' } }, ['Id', 'LastName', 'Account.Name']).sort('-CreatedDate').limit(5).execute()
    expect(found.length).toBe(5)
    expect(found.every((c) => String(c.LastName).toLowerCase().startsWith('s'))).toBe(true)
    const one = await conn.sobject('Account').retrieve(found[0].Account ? (await conn.query<{ AccountId: string }>(`SELECT AccountId FROM Contact WHERE Id = '${found[0].Id}'`)).records[0].AccountId : '')
    expect(one.Id).toMatch(/^001/)
    const all = await conn.query('SELECT COUNT() FROM Account', { scanAll: true })
    const live = await conn.query('SELECT COUNT() FROM Account')
    expect(all.totalSize).toBeGreaterThan(live.totalSize)
    const ev = await conn.query<{ Who: { attributes: { type: string } } | null }>('SELECT Id, TYPEOF Who WHEN Contact THEN LastName, Email WHEN Lead THEN LastName, Company END FROM Event LIMIT 50')
    expect(ev.records.some((r) => r.Who?.attributes.type === 'Lead')).toBe(true)
  })

  it('tooling.query for triggers, flows and workflow rules; FlowDefinitionView through /query', async () => {
    const t = await conn.tooling.query<{ TableEnumOrId: string; Status: string }>('SELECT Id, Name, TableEnumOrId, Status, UsageAfterInsert FROM ApexTrigger')
    expect(t.totalSize).toBeGreaterThan(0)
    const f = await conn.tooling.query("SELECT Id, MasterLabel, Status, ProcessType FROM Flow WHERE Status = 'Active'")
    expect(f.records.length).toBeGreaterThan(0)
    const w = await conn.tooling.query('SELECT Id, Name, TableEnumOrId, NamespacePrefix FROM WorkflowRule')
    expect(w.totalSize).toBeGreaterThan(0)
    const v = await conn.query<{ IsActive: boolean }>('SELECT DurableId, ApiName, ProcessType, TriggerType, TriggerObjectOrEventLabel, IsActive FROM FlowDefinitionView WHERE IsActive = true')
    expect(v.records.every((r) => r.IsActive)).toBe(true)
  })

  it('bulk2.query returns every record as CSV rows', async () => {
    const records = await (await conn.bulk2.query('SELECT Id, Name, Account.Name FROM Contact', { pollInterval: 50, pollTimeout: 10_000 })).toArray()
    expect(records.length).toBe(750)
    expect(records[0]).toHaveProperty('Id')
    expect(records[0]).toHaveProperty('Account.Name')
  })

  it('limits and limitInfo from Sforce-Limit-Info', async () => {
    const limits = await conn.limits()
    expect(limits.DailyApiRequests.Max).toBe(100_000)
    expect(limits.DailyApiRequests.Remaining).toBeLessThan(100_000)
    expect(conn.limitInfo.apiUsage?.limit).toBe(100_000)
    const rc = await conn.request<{ sObjects: Array<{ count: number; name: string }> }>(`/services/data/v${VERSION}/limits/recordCount?sObjects=Account,Contact,Bogus`)
    expect(rc.sObjects).toEqual([{ count: 250, name: 'Account' }, { count: 750, name: 'Contact' }])
  })

  it('refreshes the access token after the session expires', async () => {
    const before = conn.accessToken
    let refreshed = false
    conn.on('refresh', () => { refreshed = true })
    sim.control.expireSessions()
    const r = await conn.query('SELECT COUNT() FROM Account')
    expect(r.totalSize).toBe(250)
    expect(refreshed).toBe(true)
    expect(conn.accessToken).not.toBe(before)
  })

  it('refreshes on short token lifetimes during a long autoFetch', async () => {
    const c = await login(sim)
    sim.control.setTokenTtl(0.3)
    try {
      let n = 0
      await c.query('SELECT Id FROM CaseComment').on('record', () => { n++ }).run({ autoFetch: true, maxFetch: 100_000, headers: { 'Sforce-Query-Options': 'batchSize=200' } })
      expect(n).toBe(1400)
    } finally {
      sim.control.setTokenTtl(7200)
    }
  })

  it('logs in to the sandbox flavour: a second org with its own data', async () => {
    const sb = await login(sim, { sandbox: true })
    expect(sb.userInfo?.organizationId).toBe(sim.sandbox.orgId)
    expect(sim.sandbox.orgId).not.toBe(sim.production.orgId)
    const a = await sb.query<{ Id: string }>('SELECT Id FROM Account LIMIT 1')
    expect(a.records[0].Id.slice(3, 5)).toBe('7Q')
    const count = await sb.query('SELECT COUNT() FROM Account')
    expect(count.totalSize).toBe(40)
  })

  it('surfaces platform errors as jsforce errors with the errorCode', async () => {
    await expect(conn.query('SELECT Id FROM Account GROUP BY Name')).rejects.toMatchObject({ errorCode: 'MALFORMED_QUERY' })
    await expect(conn.query('SELECT Nope FROM Account')).rejects.toMatchObject({ errorCode: 'INVALID_FIELD' })
    await expect(conn.query('SELECT Id FROM Nope')).rejects.toMatchObject({ errorCode: 'INVALID_TYPE' })
    await expect(conn.queryMore('garbage')).rejects.toMatchObject({ errorCode: 'INVALID_QUERY_LOCATOR' })
  })
})
