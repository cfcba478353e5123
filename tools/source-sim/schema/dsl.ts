// Owns the little helpers that keep object definitions short: system fields every object has,
// compound address groups, lookups and picklists.
import type { FieldDef, FieldType } from './types.ts'

export const f = (name: string, type: FieldType, opts: Partial<FieldDef> = {}): FieldDef => ({ name, type, ...opts })

export const ref = (name: string, to: string[], relationshipName: string | null, childRelationship?: string, opts: Partial<FieldDef> = {}): FieldDef =>
  ({ name, type: 'reference', referenceTo: to, relationshipName, childRelationship, ...opts })

export const pick = (name: string, values: string[], opts: Partial<FieldDef> = {}): FieldDef => ({ name, type: 'picklist', picklist: values, ...opts })

/** Id first, audit fields at the end, as in the real bodies. */
export function withSystem(body: FieldDef[], opts: { owner?: string[] | false; deletable?: boolean } = {}): FieldDef[] {
  const head: FieldDef[] = [f('Id', 'id', { nillable: false, createable: false })]
  if (opts.deletable !== false) head.push(f('IsDeleted', 'boolean', { nillable: false, label: 'Deleted' }))
  const tail: FieldDef[] = []
  if (opts.owner !== false) tail.push(ref('OwnerId', opts.owner ?? ['User'], 'Owner', undefined, { nillable: false, label: 'Owner ID' }))
  tail.push(
    f('CreatedDate', 'datetime', { nillable: false }),
    ref('CreatedById', ['User'], 'CreatedBy', undefined, { nillable: false, createable: false }),
    f('LastModifiedDate', 'datetime', { nillable: false }),
    ref('LastModifiedById', ['User'], 'LastModifiedBy', undefined, { nillable: false, createable: false }),
    f('SystemModstamp', 'datetime', { nillable: false }),
  )
  return [...head, ...body, ...tail]
}

/** A compound address: the components carry compoundFieldName, the compound itself is read-only. */
export function address(prefix: string): FieldDef[] {
  const c = prefix + 'Address'
  const p = (s: string) => (prefix ? prefix + s : s)
  return [
    f(p('Street'), 'textarea', { length: 255, compoundFieldName: c }),
    f(p('City'), 'string', { length: 40, compoundFieldName: c }),
    f(p('State'), 'string', { length: 80, compoundFieldName: c }),
    f(p('PostalCode'), 'string', { length: 20, compoundFieldName: c }),
    f(p('Country'), 'string', { length: 80, compoundFieldName: c }),
    f(p('Latitude'), 'double', { compoundFieldName: c, precision: 18, scale: 15 }),
    f(p('Longitude'), 'double', { compoundFieldName: c, precision: 18, scale: 15 }),
    pick(p('GeocodeAccuracy'), ['Address', 'NearAddress', 'Block', 'Street', 'ExtendedZip', 'Zip', 'City', 'County', 'State', 'Unknown'], { compoundFieldName: c }),
    f(c, 'address', { createable: false }),
  ]
}

export const LEAD_SOURCES = ['Web', 'Phone Inquiry', 'Partner Referral', 'Purchased List', 'Other']
export const INDUSTRIES = ['Agriculture', 'Banking', 'Biotechnology', 'Chemicals', 'Communications', 'Construction', 'Consulting', 'Education', 'Electronics', 'Energy', 'Engineering', 'Entertainment', 'Environmental', 'Finance', 'Food & Beverage', 'Government', 'Healthcare', 'Hospitality', 'Insurance', 'Machinery', 'Manufacturing', 'Media', 'Not For Profit', 'Recreation', 'Retail', 'Shipping', 'Technology', 'Telecommunications', 'Transportation', 'Utilities', 'Other']
export const OPP_STAGES = ['Prospecting', 'Qualification', 'Needs Analysis', 'Value Proposition', 'Id. Decision Makers', 'Perception Analysis', 'Proposal/Price Quote', 'Negotiation/Review', 'Closed Won', 'Closed Lost']
export const CASE_STATUSES = ['New', 'Working', 'Escalated', 'Closed']
