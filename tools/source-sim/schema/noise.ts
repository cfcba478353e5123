// Owns the objects a real describeGlobal lists that a migration must skip: Share, History, Feed
// and ChangeEvent companions, a custom setting and a custom metadata type. They are describable
// and queryable (with no rows) so the analyzer's inventory filter is exercised, not bypassed.
import type { ObjectDef } from './types.ts'
import { f, ref } from './dsl.ts'

export function noiseObjects(): ObjectDef[] {
  const base = (name: string, label: string, prefix: string | null, extra: ObjectDef['fields']): ObjectDef => ({
    name, label, labelPlural: label + 's', keyPrefix: prefix, createable: false,
    fields: [f('Id', 'id', { nillable: false }), ...extra, f('CreatedDate', 'datetime', { nillable: false })],
  })
  return [
    base('AccountShare', 'Account Share', '00r', [ref('AccountId', ['Account'], 'Account'), f('AccountAccessLevel', 'picklist', { picklist: ['Read', 'Edit', 'All'] })]),
    base('AccountHistory', 'Account History', '017', [ref('AccountId', ['Account'], 'Account'), f('Field', 'picklist'), f('OldValue', 'anyType'), f('NewValue', 'anyType')]),
    base('AccountFeed', 'Account Feed', '0D5', [ref('ParentId', ['Account'], 'Parent'), f('Body', 'textarea', { length: 10000 })]),
    base('AccountChangeEvent', 'Account Change Event', '1CE', [f('ReplayId', 'string')]),
    base('CaseHistory', 'Case History', '017', [ref('CaseId', ['Case'], 'Case'), f('Field', 'picklist')]),
    { ...base('Acme_Settings__c', 'Acme Settings', 'a0A', [f('Name', 'string', { nameField: true }), f('Endpoint__c', 'url')]), custom: true },
    { ...base('Region__mdt', 'Region', 'm00', [f('DeveloperName', 'string'), f('Label', 'string')]), custom: true },
  ]
}
