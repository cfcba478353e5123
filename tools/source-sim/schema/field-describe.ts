// Owns turning a compact FieldDef into a describe `fields[]` entry carrying every key a real
// describe body carries (57 keys, checked against the fixtures in tests). Defaults follow what the
// real bodies show for each type (byteLength = 3 x length, soapType per type, and so on).
import type { FieldDef, FieldType } from './types.ts'

const SOAP: Record<FieldType, string> = {
  id: 'tns:ID', boolean: 'xsd:boolean', string: 'xsd:string', textarea: 'xsd:string', picklist: 'xsd:string',
  multipicklist: 'xsd:string', combobox: 'xsd:string', reference: 'tns:ID', currency: 'xsd:double',
  percent: 'xsd:double', double: 'xsd:double', int: 'xsd:int', long: 'xsd:long', date: 'xsd:date',
  datetime: 'xsd:dateTime', time: 'xsd:time', email: 'xsd:string', phone: 'xsd:string', url: 'xsd:string',
  address: 'urn:address', location: 'urn:location', encryptedstring: 'xsd:string', base64: 'xsd:base64Binary',
  anyType: 'xsd:anyType',
}

const TEXTY = new Set<FieldType>(['string', 'textarea', 'picklist', 'multipicklist', 'combobox', 'email', 'phone', 'url', 'encryptedstring'])
const SYSTEM = new Set(['Id', 'IsDeleted', 'CreatedDate', 'CreatedById', 'LastModifiedDate', 'LastModifiedById', 'SystemModstamp'])

export function defaultLength(type: FieldType): number {
  switch (type) {
    case 'id': case 'reference': return 18
    case 'textarea': return 32000
    case 'email': case 'string': return 80
    case 'phone': case 'picklist': return 40
    case 'url': return 255
    case 'multipicklist': return 4099
    case 'combobox': return 255
    default: return 0
  }
}

function humanize(name: string): string {
  const base = name.replace(/__c$|__r$/, '').replace(/^[a-zA-Z0-9]+__/, '').replace(/Id$/, name === 'Id' ? 'Id' : ' ID')
  return base.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').trim()
}

export function describeField(f: FieldDef): Record<string, unknown> {
  const t = f.type
  const length = TEXTY.has(t) || t === 'id' || t === 'reference' ? (f.length ?? defaultLength(t)) : 0
  const numeric = t === 'currency' || t === 'percent' || t === 'double'
  const system = SYSTEM.has(f.name)
  const calculated = f.formula !== undefined
  const createable = f.createable ?? (!system && !calculated && !f.autoNumber && t !== 'address' && t !== 'location')
  const references = f.referenceTo ?? []
  const picklist = (f.picklist ?? []).map((v, i) => ({ active: true, defaultValue: false, label: v, validFor: null, value: v, _i: i }))
    .map(({ _i, ...p }) => p)
  const filterable = t !== 'textarea' || length <= 255
  return {
    aggregatable: filterable && t !== 'address' && t !== 'location',
    aiPredictionField: false,
    autoNumber: f.autoNumber ?? false,
    byteLength: length * 3 > 0 ? length * 3 : 0,
    calculated,
    calculatedFormula: f.formula ?? null,
    cascadeDelete: f.cascadeDelete ?? false,
    caseSensitive: false,
    compoundFieldName: f.compoundFieldName ?? null,
    controllerName: null,
    createable,
    custom: f.custom ?? f.name.endsWith('__c'),
    defaultValue: t === 'boolean' && !calculated ? false : null,
    defaultValueFormula: null,
    defaultedOnCreate: system || t === 'boolean' || f.name === 'OwnerId',
    dependentPicklist: false,
    deprecatedAndHidden: false,
    digits: t === 'int' ? 9 : 0,
    displayLocationInDecimal: false,
    encrypted: t === 'encryptedstring',
    externalId: f.externalId ?? false,
    extraTypeInfo: t === 'textarea' ? (f.htmlFormatted ? 'richtextarea' : length > 255 ? 'plaintextarea' : null) : null,
    filterable,
    filteredLookupInfo: null,
    formulaTreatNullNumberAsZero: false,
    groupable: filterable && !numeric && t !== 'datetime' && t !== 'address' && t !== 'location',
    highScaleNumber: false,
    htmlFormatted: f.htmlFormatted ?? false,
    idLookup: t === 'id' || (f.externalId ?? false),
    inlineHelpText: null,
    label: f.label ?? humanize(f.name),
    length,
    mask: null,
    maskType: null,
    name: f.name,
    nameField: f.nameField ?? false,
    namePointing: references.length > 1,
    nillable: f.nillable ?? (!system && t !== 'boolean'),
    permissionable: !system && (f.nillable ?? true) && t !== 'id',
    picklistValues: picklist,
    polymorphicForeignKey: references.length > 1,
    precision: numeric ? (f.precision ?? 18) : 0,
    queryByDistance: false,
    referenceTargetField: null,
    referenceTo: references,
    relationshipName: f.relationshipName ?? null,
    relationshipOrder: null,
    restrictedDelete: false,
    restrictedPicklist: false,
    scale: numeric ? (f.scale ?? 2) : 0,
    searchPrefilterable: t === 'reference',
    soapType: SOAP[t],
    sortable: filterable && t !== 'address' && t !== 'location',
    type: t,
    unique: f.unique ?? false,
    updateable: createable && !system && f.name !== 'Id',
    writeRequiresMasterRead: false,
  }
}
