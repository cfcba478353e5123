// Owns the describe bodies: describeGlobal (`/sobjects`) and per-object describe, generated from
// the in-code schema with every key the real bodies carry (checked against the fixtures in tests).
import type { ObjectInfo, SchemaIndex } from './schema/registry.ts'
import { describeField } from './schema/field-describe.ts'
import { MASTER_RECORD_TYPE_ID } from './schema/custom.ts'

const isSetting = (name: string) => name === 'Acme_Settings__c'
const isCompanion = (name: string) => /(Share|History|Feed|ChangeEvent)$/.test(name) || name.endsWith('__mdt')

function flags(info: ObjectInfo) {
  const d = info.def
  const data = d.createable !== false
  const companion = isCompanion(d.name)
  return {
    activateable: false,
    createable: data,
    custom: d.custom ?? d.name.endsWith('__c'),
    customSetting: isSetting(d.name),
    deepCloneable: false,
    deletable: data,
    deprecatedAndHidden: false,
    feedEnabled: d.feedEnabled ?? false,
    hasSubtypes: false,
    isInterface: false,
    isSubtype: false,
    keyPrefix: d.keyPrefix,
    label: d.label,
    labelPlural: d.labelPlural,
    layoutable: data,
    mergeable: ['Account', 'Contact', 'Lead', 'Case'].includes(d.name),
    mruEnabled: data,
    name: d.name,
    queryable: true,
    replicateable: !companion || d.name.endsWith('History'),
    retrieveable: true,
    searchable: data && !isSetting(d.name),
    triggerable: data,
    undeletable: data,
    updateable: data,
  }
}

function urls(version: string, name: string, full: boolean): Record<string, string> {
  const base = `/services/data/v${version}/sobjects/${name}`
  const u: Record<string, string> = { sobject: base, describe: `${base}/describe`, rowTemplate: `${base}/{ID}` }
  if (full) {
    Object.assign(u, { compactLayouts: `${base}/describe/compactLayouts`, approvalLayouts: `${base}/describe/approvalLayouts`, listviews: `${base}/listviews`, quickActions: `${base}/quickActions`, layouts: `${base}/describe/layouts` })
  }
  return u
}

export function describeGlobal(schema: SchemaIndex, version: string): Record<string, unknown> {
  return {
    encoding: 'UTF-8',
    maxBatchSize: 200,
    sobjects: schema.objects.map((info) => {
      const fl = flags(info)
      const { activateable, ...rest } = fl
      // Key order as in the real body: associate* sit between activateable and createable.
      return { activateable, associateEntityType: null, associateParentEntity: null, ...rest, urls: urls(version, info.def.name, fl.layoutable) }
    }),
  }
}

export function describeSObject(schema: SchemaIndex, info: ObjectInfo, version: string, baseUrl: string): Record<string, unknown> {
  const d = info.def
  const fl = flags(info)
  const rts = d.recordTypes ?? (fl.layoutable ? [] : null)
  const recordTypeInfos = rts === null ? [] : [
    ...rts.map((rt) => ({ active: true, available: true, defaultRecordTypeMapping: rt.isDefault ?? false, developerName: rt.developerName, master: false, name: rt.name, recordTypeId: rt.id, urls: { layout: `/services/data/v${version}/sobjects/${d.name}/describe/layouts/${rt.id}` } })),
    { active: true, available: true, defaultRecordTypeMapping: rts.length === 0, developerName: 'Master', master: true, name: 'Master', recordTypeId: MASTER_RECORD_TYPE_ID, urls: { layout: `/services/data/v${version}/sobjects/${d.name}/describe/layouts/${MASTER_RECORD_TYPE_ID}` } },
  ]
  const childRelationships = info.childList.map((c) => ({
    cascadeDelete: c.cascadeDelete, childSObject: c.childObject, deprecatedAndHidden: false, field: c.field,
    junctionIdListNames: [], junctionReferenceTo: [], relationshipName: c.relationshipName, restrictedDelete: false,
  }))
  const u = urls(version, d.name, fl.layoutable)
  if (fl.layoutable) Object.assign(u, { uiDetailTemplate: `${baseUrl}/{ID}`, uiEditTemplate: `${baseUrl}/{ID}/e`, uiNewRecord: `${baseUrl}/${d.keyPrefix}/e`, defaultValues: `/services/data/v${version}/sobjects/${d.name}/defaultValues?recordTypeId&fields` })
  return {
    actionOverrides: [],
    activateable: fl.activateable,
    associateEntityType: null,
    associateParentEntity: null,
    childRelationships,
    compactLayoutable: fl.layoutable,
    createable: fl.createable,
    custom: fl.custom,
    customSetting: fl.customSetting,
    deepCloneable: false,
    defaultImplementation: null,
    deletable: fl.deletable,
    deprecatedAndHidden: false,
    extendedBy: null,
    extendsInterfaces: null,
    feedEnabled: fl.feedEnabled,
    fields: d.fields.map(describeField),
    hasSubtypes: false,
    implementedBy: null,
    implementsInterfaces: null,
    isInterface: false,
    isSubtype: false,
    keyPrefix: d.keyPrefix,
    label: d.label,
    labelPlural: d.labelPlural,
    layoutable: fl.layoutable,
    listviewable: null,
    lookupLayoutable: null,
    mergeable: fl.mergeable,
    mruEnabled: fl.mruEnabled,
    name: d.name,
    namedLayoutInfos: [],
    networkScopeFieldName: null,
    queryable: true,
    recordTypeInfos,
    replicateable: fl.replicateable,
    retrieveable: true,
    searchLayoutable: fl.layoutable,
    searchable: fl.searchable,
    sobjectDescribeOption: 'FULL',
    supportedScopes: fl.layoutable ? [{ label: `All ${d.labelPlural.toLowerCase()}`, name: 'everything' }] : [],
    triggerable: fl.triggerable,
    undeletable: fl.undeletable,
    updateable: fl.updateable,
    urls: u,
  }
}
