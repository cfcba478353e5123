import { describe, expect, it } from 'vitest'
import { kindsByName } from '../../../src/records/kinds/index.ts'
import { CATALOGUE } from '../../../src/migration/mapping/catalogue.ts'
import { enumTableFor, matchEnumValue } from '../../../src/migration/mapping/picklist-maps.ts'
import { targetField } from '../../../src/migration/mapping/field-types.ts'
import { ruleProvided } from '../../../src/migration/mapping/record-rules.ts'
import { SUPPORTED_OBJECTS } from '../../../src/migration/migration.types.ts'

const enumOf = (kind: 'case' | 'lead' | 'opportunity' | 'activity', field: string) => {
  const def = targetField(kind, field)!
  return (value: string) => matchEnumValue(enumTableFor(kind, def), def.values!, value)
}

describe('the catalogue of supported objects', () => {
  it('covers every supported object with the support level of the spec', () => {
    expect(Object.keys(CATALOGUE).sort()).toEqual([...SUPPORTED_OBJECTS].sort())
    const automatic = SUPPORTED_OBJECTS.filter((o) => CATALOGUE[o].support === 'automatic')
    expect(automatic.sort()).toEqual(['Account', 'Case', 'CaseComment', 'Contact', 'Event', 'Task'])
    expect(SUPPORTED_OBJECTS.filter((o) => CATALOGUE[o].support === 'planned').sort()).toEqual(['Lead', 'Opportunity', 'Product2'])
  })

  it('maps only to fields that exist on the target kind, and never to case_number', () => {
    for (const cat of Object.values(CATALOGUE)) {
      for (const [source, entry] of Object.entries(cat.fields)) {
        const targets =
          entry.action === 'field' ? [entry.target, ...(entry.derived ?? []).map((d) => d.target)]
          : entry.action === 'owner' ? [entry.target]
          : entry.action === 'reference' ? Object.values(entry.targets)
          : []
        for (const t of targets) {
          expect(targetField(cat.target, t), `${cat.object}.${source} -> ${cat.target}.${t}`).toBeDefined()
          expect(t).not.toBe('case_number')
        }
        if (entry.action === 'reference') for (const t of Object.values(entry.targets)) expect(targetField(cat.target, t)!.type).toBe('ref')
      }
    }
  })

  it('fills every required field of every target kind from a standard field or a record rule', () => {
    for (const cat of Object.values(CATALOGUE)) {
      const filled = new Set(Object.values(cat.fields).flatMap((e) => (e.action === 'field' ? [e.target] : [])))
      for (const r of ruleProvided(cat.object)) filled.add(r)
      for (const def of kindsByName[cat.target].fields.filter((f) => f.required)) expect(filled, `${cat.object} -> ${def.name}`).toContain(def.name)
    }
  })
})

describe('picklist values of the source platform', () => {
  it('maps the default case statuses and priorities one to one, and "Closed - Resolved" by its wording', () => {
    const status = enumOf('case', 'status')
    expect(['New', 'Working', 'Escalated', 'On Hold', 'Closed'].map(status)).toEqual(['new', 'working', 'escalated', 'on_hold', 'closed'])
    expect(status('closed - resolved')).toBe('closed')
    expect(status('Waiting on Customer')).toBe('on_hold')
    expect(status('Reopened for audit')).toBeNull()
    const priority = enumOf('case', 'priority')
    expect(['High', 'Medium', 'Low', 'Critical', 'URGENT'].map(priority)).toEqual(['high', 'medium', 'low', 'critical', 'critical'])
  })

  it('maps the default lead statuses, with converted and not-converted leads apart', () => {
    const status = enumOf('lead', 'status')
    expect(['Open - Not Contacted', 'Working - Contacted', 'Closed - Converted', 'Closed - Not Converted', 'Nurturing', 'Qualified'].map(status)).toEqual([
      'new',
      'working',
      'converted',
      'unqualified',
      'nurturing',
      'qualified',
    ])
  })

  it('keeps the order of the default opportunity stages', () => {
    const stage = enumOf('opportunity', 'stage')
    const order = ['prospecting', 'qualification', 'needs_analysis', 'proposal', 'negotiation', 'closed_won', 'closed_lost']
    const mapped = ['Prospecting', 'Qualification', 'Needs Analysis', 'Value Proposition', 'Id. Decision Makers', 'Perception Analysis', 'Proposal/Price Quote', 'Negotiation/Review'].map(stage)
    expect(mapped).toEqual(['prospecting', 'qualification', 'needs_analysis', 'needs_analysis', 'needs_analysis', 'needs_analysis', 'proposal', 'negotiation'])
    const ranks = mapped.map((m) => order.indexOf(m!))
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks)
    expect(stage('Closed Won')).toBe('closed_won')
    expect(stage('Closed Lost')).toBe('closed_lost')
  })

  it('maps task statuses, priorities and subtypes', () => {
    const status = enumOf('activity', 'status')
    expect(['Not Started', 'In Progress', 'Completed', 'Waiting on someone else', 'Deferred'].map(status)).toEqual(['open', 'in_progress', 'completed', 'in_progress', 'open'])
    expect(['High', 'Normal', 'Low'].map(enumOf('activity', 'priority'))).toEqual(['high', 'normal', 'low'])
    expect(['Call', 'Email', 'ListEmail', 'Task', 'LinkedIn'].map(enumOf('activity', 'kind'))).toEqual(['call', 'email', 'email', 'task', 'task'])
  })
})
