// Owns the generated org's customisations: custom fields on standard objects (one from a managed
// package, namespace `acme`), a formula field per object, record types, and two custom objects:
// `Project__c` (unmanaged, lookup to Account) and `acme__Subscription__c` (managed-package,
// master-detail to Account). These are what the analyzer must score as partial / manual review.
import type { ObjectDef, RecordTypeDef } from './types.ts'
import { f, pick, ref, withSystem } from './dsl.ts'
import { makeId } from '../ids.ts'

export const MASTER_RECORD_TYPE_ID = '012000000000000AAA'

export function recordTypes(pod: string, object: string): RecordTypeDef[] {
  const names: Record<string, string[]> = { Account: ['Business', 'Partner'], Case: ['Support', 'Internal'] }
  const base = object === 'Account' ? 0 : 10
  return (names[object] ?? []).map((n, i) => ({ developerName: n, name: n + (n === 'Support' ? ' Case' : ''), id: makeId('012', pod, base + i), isDefault: i === 0 }))
}

/** Adds the generated org's custom fields and record types to the standard objects (in place). */
export function customiseStandard(objects: ObjectDef[], pod: string): void {
  const by = new Map(objects.map((o) => [o.name, o]))
  const add = (name: string, ...fields: ObjectDef['fields']) => {
    const o = by.get(name)!
    // Custom fields sit before the audit fields, like in the real bodies.
    const at = o.fields.findIndex((x) => x.name === 'OwnerId' || x.name === 'CreatedDate')
    o.fields.splice(at < 0 ? o.fields.length : at, 0, ...fields)
  }
  add('Account',
    pick('Customer_Tier__c', ['Bronze', 'Silver', 'Gold', 'Platinum']),
    f('acme__Health_Score__c', 'double', { precision: 5, scale: 1, label: 'Health Score' }),
    f('Legacy_Id__c', 'string', { length: 40, externalId: true, unique: true }),
    f('Days_Since_Created__c', 'double', { precision: 18, scale: 0, formula: 'TODAY() - DATEVALUE(CreatedDate)', createable: false }),
  )
  add('Contact',
    pick('Preferred_Language__c', ['English', 'French', 'German', 'Japanese', 'Arabic', 'Russian']),
    f('Secondary_Email__c', 'email'),
  )
  add('Case',
    f('SLA_Breached__c', 'boolean', { formula: 'AND(NOT(IsClosed), NOW() - CreatedDate > 2)', createable: false }),
    f('Engineering_Ticket__c', 'string', { length: 12 }),
  )
  add('Opportunity', f('Discount__c', 'percent', { precision: 5, scale: 2 }))
  for (const name of ['Account', 'Case']) by.get(name)!.recordTypes = recordTypes(pod, name)
}

export function customObjects(): ObjectDef[] {
  return [
    {
      name: 'Project__c', label: 'Project', labelPlural: 'Projects', keyPrefix: 'a00', custom: true,
      fields: withSystem([
        f('Name', 'string', { length: 80, nameField: true, label: 'Project Name' }),
        ref('Account__c', ['Account'], 'Account__r', 'Projects__r'),
        pick('Status__c', ['Planned', 'Active', 'On Hold', 'Done']),
        f('Budget__c', 'currency', { precision: 16, scale: 2 }),
        f('Start_Date__c', 'date'),
        f('Is_Overdue__c', 'boolean', { formula: "AND(ISPICKVAL(Status__c, 'Active'), Start_Date__c < TODAY() - 180)", createable: false }),
      ]),
    },
    {
      name: 'acme__Subscription__c', label: 'Subscription', labelPlural: 'Subscriptions', keyPrefix: 'a01', custom: true,
      fields: withSystem([
        f('Name', 'string', { length: 80, nameField: true, label: 'Subscription Number', autoNumber: true, createable: false }),
        ref('acme__Account__c', ['Account'], 'acme__Account__r', 'acme__Subscriptions__r', { nillable: false, cascadeDelete: true }),
        pick('acme__Plan__c', ['Starter', 'Team', 'Enterprise']),
        f('acme__Seats__c', 'double', { precision: 18, scale: 0 }),
        f('acme__Renewal_Date__c', 'date'),
      ], { owner: false }),
    },
  ]
}
