import { describe, expect, it } from 'vitest'
import { exclusionOf, objectsToDescribe, takeInventory } from '../../../src/migration/analysis/inventory.ts'
import type { SourceGlobalEntry } from '../../../src/migration/migration.types.ts'
import { describeFixture, globalEntryOf, globalFixture } from '../mapping/fixtures.ts'

const entry = (name: string, extra: Partial<SourceGlobalEntry> = {}): SourceGlobalEntry => ({
  name, label: name, custom: name.includes('__'), customSetting: false, queryable: true, retrieveable: true, deprecatedAndHidden: false, keyPrefix: null, ...extra,
})

describe('the inventory filter on the real describeGlobal', () => {
  const global = [...globalFixture(), globalEntryOf(describeFixture('Custom__c.describe.json'))]
  const inv = takeInventory(global)

  it('keeps the supported objects present and the other business objects', () => {
    expect(inv.supported.sort()).toEqual(['Account', 'Case', 'Contact', 'Event', 'Lead', 'Opportunity'])
    expect(inv.other.sort()).toEqual(['Campaign', 'CampaignMember', 'OpportunityContactRole', 'WorkOrder', 'WorkOrderLineItem'])
    expect(inv.custom).toEqual([])
  })

  it('drops the custom setting Custom__c by its customSetting flag', () => {
    expect(global.find((e) => e.name === 'Custom__c')).toMatchObject({ custom: true, customSetting: true })
    expect(exclusionOf(global.find((e) => e.name === 'Custom__c')!)).toBe('custom_setting')
    expect(objectsToDescribe(global)).not.toContain('Custom__c')
  })

  it('drops Share, History, Feed and ChangeEvent companions, setup objects and the rest of the platform', () => {
    const names = global.map((e) => e.name)
    const companions = names.filter((n) => /(Share|History|Feed|ChangeEvent)$/.test(n))
    expect(companions.length).toBeGreaterThan(20)
    for (const n of companions) expect(exclusionOf(global.find((e) => e.name === n)!), n).not.toBeNull()
    for (const n of ['User', 'Organization', 'UserRole', 'WebLink', 'UserAppInfo', 'WarrantyTerm']) expect(objectsToDescribe(global)).not.toContain(n)
    expect(inv.filtered.count).toBe(global.length - inv.supported.length - inv.other.length)
    expect(inv.filtered.by_reason).toMatchObject({ custom_setting: 1, setup: expect.any(Number), companion: expect.any(Number), not_readable: expect.any(Number) })
    // The examples show each kind of exclusion before showing more of one kind.
    expect(inv.filtered.examples).toEqual(expect.arrayContaining(['Custom__c', 'User', 'UserAppMenuCustomizationShare']))
  })
})

describe('exclusions', () => {
  it('follows the flags and suffixes of the spec', () => {
    expect(exclusionOf(entry('Vote', { queryable: false }))).toBe('not_readable')
    expect(exclusionOf(entry('OldThing', { deprecatedAndHidden: true }))).toBe('deprecated')
    for (const n of ['Region__mdt', 'Order_Event__e', 'Ext_Order__x', 'Archive__b', 'Project__Tag']) expect(exclusionOf(entry(n)), n).not.toBeNull()
    expect(exclusionOf(entry('Project__History'))).toBe('companion')
    expect(exclusionOf(entry('Project__ChangeEvent'))).toBe('companion')
    expect(exclusionOf(entry('Price_History__c'))).toBeNull()
    expect(exclusionOf(entry('acme__Subscription__c'))).toBeNull()
    expect(exclusionOf(entry('FlowDefinitionView'))).toBe('setup')
  })

  it('asks for the describes of everything it analyses, and the counts of emails and files', () => {
    const names = objectsToDescribe([entry('Account'), entry('Project__c'), entry('Campaign'), entry('EmailMessage'), entry('AccountShare'), entry('Acme_Settings__c', { customSetting: true })])
    expect(names).toEqual(['Account', 'Project__c', 'Campaign', 'EmailMessage'])
  })
})
