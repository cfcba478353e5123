// Owns describing what an sObject-tree dataset brings that the built-in schema lacks: fields the
// files use on standard objects (e.g. the DE org's SLA__c) and whole custom objects (Space__c, ...).
// Types are inferred from the values; `@ref` values make lookups to the referenced record's type.
import type { FieldDef, ObjectDef } from '../schema/types.ts'
import { withSystem } from '../schema/dsl.ts'

export interface FieldSample { refTargets: Set<string>; kinds: Set<string>; maxLen: number }

const DATE = /^\d{4}-\d{2}-\d{2}$/
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/

export function sample(s: FieldSample | undefined, v: unknown, refTarget?: string): FieldSample {
  const out = s ?? { refTargets: new Set(), kinds: new Set(), maxLen: 0 }
  if (refTarget) out.refTargets.add(refTarget)
  else if (v === null || v === undefined) return out
  else if (typeof v === 'string') {
    out.kinds.add(DATE.test(v) ? 'date' : DATETIME.test(v) ? 'datetime' : EMAIL.test(v) ? 'email' : 'string')
    out.maxLen = Math.max(out.maxLen, v.length)
  } else out.kinds.add(typeof v === 'number' ? (Number.isInteger(v) ? 'int' : 'double') : typeof v === 'boolean' ? 'boolean' : 'string')
  return out
}

const plural = (label: string) => (label.endsWith('s') ? label : label.endsWith('y') ? label.slice(0, -1) + 'ies' : label + 's')
export const labelOf = (api: string) => api.replace(/__c$/, '').replace(/^[A-Za-z0-9]+__(?=.)/, '').replace(/_/g, ' ')

export function inferField(name: string, s: FieldSample, childObject: ObjectDef | { name: string; labelPlural: string }): FieldDef {
  if (s.refTargets.size > 0) {
    const relName = name.endsWith('__c') ? name.slice(0, -3) + '__r' : name.replace(/Id$/i, '')
    const childRel = childObject.name.endsWith('__c') ? plural(labelOf(childObject.name)).replace(/ /g, '_') + '__r' : childObject.labelPlural.replace(/ /g, '')
    return { name, type: 'reference', referenceTo: [...s.refTargets], relationshipName: relName, childRelationship: childRel }
  }
  const kinds = s.kinds
  const only = (k: string) => kinds.size === 1 && kinds.has(k)
  if (only('boolean')) return { name, type: 'boolean' }
  if (only('int') || (kinds.size > 0 && [...kinds].every((k) => k === 'int' || k === 'double'))) return { name, type: 'double', precision: 18, scale: only('int') ? 0 : 2 }
  if (only('date')) return { name, type: 'date' }
  if (only('datetime')) return { name, type: 'datetime' }
  if (only('email')) return { name, type: 'email' }
  if (s.maxLen > 255) return { name, type: 'textarea', length: 32768 }
  return { name, type: 'string', length: 255 }
}

/** An object the built-in schema does not know (custom objects, Campaign, Solution). */
export function inferObject(name: string, keyPrefix: string, samples: Map<string, FieldSample>): ObjectDef {
  const label = labelOf(name)
  const def: ObjectDef = { name, label, labelPlural: plural(label), keyPrefix, custom: name.endsWith('__c'), fields: [] }
  const body: FieldDef[] = []
  if (!samples.has('Name')) body.push({ name: 'Name', type: 'string', length: 80, nameField: true })
  for (const [field, s] of samples) {
    const fd = inferField(field, s, def)
    if (field === 'Name') fd.nameField = true
    body.push(fd)
  }
  def.fields = withSystem(body)
  return def
}
