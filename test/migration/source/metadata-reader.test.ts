// readSourceMetadata against the simulator's demo org: the inventory, describes, counts equal to
// SELECT COUNT(), automation (triggers, flows, workflow rules), users, record types, the daily
// allowance and bounded email samples.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { SourceSim } from '../../../tools/source-sim/main.ts'
import type { SourceGlobalEntry, SourceMetadata } from '../../../src/migration/migration.types.ts'
import { readSourceMetadata } from '../../../src/migration/source/metadata-reader.ts'
import type { SourceConnection } from '../../../src/migration/source/source-connection.ts'
import { allowLoopback, connectByOAuth, open, startSim } from './helpers.ts'

let sim: SourceSim
let sc: SourceConnection
let m: SourceMetadata
let offered: SourceGlobalEntry[] = []

/** Roughly the analysis' inventory filter (spec §1.3); the real one lives in analysis/. */
const inventory = (global: SourceGlobalEntry[]) => {
  offered = global
  return global
    .filter((g) => g.queryable && g.retrieveable && !g.deprecatedAndHidden && !g.customSetting)
    .filter((g) => !/(Share|History|Feed|ChangeEvent)$|__(mdt|e|x|b)$/.test(g.name))
    .map((g) => g.name)
}

beforeAll(async () => {
  allowLoopback()
  sim = await startSim()
  sc = await open(await connectByOAuth(sim))
  m = await readSourceMetadata(sc, { objectsToDescribe: inventory })
})
afterAll(() => sim?.close())

describe('readSourceMetadata (demo org)', () => {
  it('says which org, instance, API version and environment it read', () => {
    expect(m.instance_url).toBe(sim.url)
    expect(m.api_version).toBe('62.0')
    expect(m.organization_id).toBe(sim.production.orgId)
    expect(m.environment).toBe('production')
    expect(m.unreadable).toEqual([])
  })

  it('hands describeGlobal to the callback and describes exactly the objects it picked', () => {
    expect(offered.map((g) => g.name)).toEqual(m.global.map((g) => g.name))
    expect(m.global.find((g) => g.name === 'AccountShare')).toBeTruthy()
    const picked = inventory(m.global)
    expect(Object.keys(m.describes).sort()).toEqual([...picked].sort())
    for (const n of ['Account', 'Contact', 'Lead', 'Opportunity', 'Case', 'CaseComment', 'Task', 'Event', 'Product2', 'Project__c', 'acme__Subscription__c']) expect(picked).toContain(n)
    expect(picked).not.toContain('AccountShare')
    expect(picked).not.toContain('Region__mdt')
    const account = m.describes.Account
    expect(account.fields.find((f) => f.name === 'Days_Since_Created__c')?.calculated).toBe(true)
    expect(account.recordTypeInfos?.map((r) => r.developerName)).toEqual(['Business', 'Partner', 'Master'])
    expect(m.describes.Task.fields.find((f) => f.name === 'WhoId')?.referenceTo).toEqual(['Contact', 'Lead'])
  })

  it('counts every described object, equal to SELECT COUNT()', async () => {
    expect(Object.keys(m.counts).sort()).toEqual(Object.keys(m.describes).sort())
    for (const [object, count] of Object.entries(m.counts)) expect(count, object).toBe(await sc.count(object))
    expect(m.counts.Account).toBe(250)
    expect(m.counts.Contact).toBe(750)
  })

  it('reads triggers, flows and workflow rules, without attributes or ids', async () => {
    const tooling = await sc.request<{ totalSize: number }>('t', sc.path(`/tooling/query?q=${encodeURIComponent('SELECT Id FROM ApexTrigger')}`))
    expect(m.automation.triggers.length).toBe(tooling.totalSize)
    expect(m.automation.triggers[0]).toEqual({
      Name: 'AccountTrigger', TableEnumOrId: 'Account', Status: 'Active', NamespacePrefix: null,
      UsageBeforeInsert: true, UsageAfterInsert: true, UsageBeforeUpdate: true, UsageAfterUpdate: false, UsageBeforeDelete: true, UsageAfterDelete: true, UsageAfterUndelete: false,
    })
    expect(m.automation.flows.length).toBe(11)
    expect(m.automation.flows[0]).toEqual({
      ApiName: 'Account_Assignment', Label: 'Account Assignment', ProcessType: 'AutoLaunchedFlow', TriggerType: 'RecordAfterSave',
      RecordTriggerType: 'CreateAndUpdate', TriggerObjectOrEventLabel: 'Account', IsActive: true, NamespacePrefix: null,
    })
    expect(m.automation.workflow_rules.length).toBe(9)
    expect(m.automation.workflow_rules[0]).toEqual({ Name: 'Account rule 1', TableEnumOrId: 'Account', NamespacePrefix: null })
    expect(m.automation.unavailable).toEqual([])
  })

  it('reads users, record types and the daily API allowance', () => {
    expect(m.users.length).toBe(8)
    expect(m.users[0]).toEqual({ Id: expect.stringMatching(/^005/), Name: expect.any(String), Email: expect.stringContaining('@'), IsActive: expect.any(Boolean) })
    expect(m.record_types.map((r) => `${r.SobjectType}.${r.DeveloperName}`).sort()).toEqual(expect.arrayContaining(['Account.Business', 'Account.Partner']))
    expect(m.record_types.length).toBe(4)
    expect(m.limits).toEqual({ max: 100_000, remaining: expect.any(Number) })
    expect(m.limits!.remaining).toBeLessThan(100_000)
  })

  it('samples email addresses of Contact and Lead, bounded', async () => {
    expect(Object.keys(m.email_samples).sort()).toEqual(['Contact', 'Lead'])
    expect(m.email_samples.Contact.length).toBeGreaterThan(500)
    expect(m.email_samples.Contact.every((e) => typeof e === 'string' && e.length > 0)).toBe(true)
    const small = await readSourceMetadata(sc, { objectsToDescribe: () => ['Contact'], sampleEmails: 100 })
    expect(small.email_samples.Contact.length).toBe(100)
    expect(small.email_samples.Lead.length).toBe(100)
  })

  it('never has more calls in flight than its concurrency', async () => {
    let inFlight = 0
    let peak = 0
    const original = sc.request.bind(sc)
    const spy = vi.spyOn(sc, 'request').mockImplementation(async (what, req) => {
      inFlight++
      peak = Math.max(peak, inFlight)
      try {
        return await original(what, req)
      } finally {
        inFlight--
      }
    })
    try {
      await readSourceMetadata(sc, { objectsToDescribe: inventory, concurrency: 3 })
    } finally {
      spy.mockRestore()
    }
    // describeGlobal runs alone first; everything after goes through the limiter.
    expect(peak).toBeLessThanOrEqual(3)
    expect(peak).toBeGreaterThan(1)
  })
})
