/**
 * How source picklist values become the service's enumerations: the platform's default values by
 * name, then the target value with the same wording ("On Hold" -> on_hold), then a few wording
 * rules for org-specific values ("Closed - Resolved" -> closed). Anything else gets the target's
 * default (the `fallback`) and the original value is kept in custom_fields by the transform.
 */
import type { FieldDef } from '../../records/contracts.ts'
import type { PicklistValueMapping } from '../migration.types.ts'

export interface EnumTable {
  /** The platform's default values (lower case) -> target value. */
  known: Readonly<Record<string, string>>
  /** Wording rules for org-specific values, tried in order after `known` and exact wording. */
  patterns: ReadonlyArray<readonly [RegExp, string]>
  /** What an unmatched value becomes: the target field's default. */
  fallback: string
  /** Why a default maps where it does, when that is a judgement call. */
  note?: string
}

const CASE_STATUS: EnumTable = {
  known: { new: 'new', working: 'working', escalated: 'escalated', 'on hold': 'on_hold', closed: 'closed' },
  patterns: [
    [/^closed\b|\bresolved\b|^done$/i, 'closed'],
    [/escalat/i, 'escalated'],
    [/\bhold\b|waiting|awaiting|pending/i, 'on_hold'],
    [/in progress|^open$|^assigned$/i, 'working'],
  ],
  fallback: 'new',
}

const CASE_PRIORITY: EnumTable = {
  known: { critical: 'critical', high: 'high', medium: 'medium', low: 'low', normal: 'medium', urgent: 'critical' },
  patterns: [[/critical|urgent|blocker|^p1$/i, 'critical']],
  fallback: 'medium',
}

const LEAD_STATUS: EnumTable = {
  known: {
    'open - not contacted': 'new',
    'working - contacted': 'working',
    'closed - converted': 'converted',
    'closed - not converted': 'unqualified',
    nurturing: 'nurturing',
    qualified: 'qualified',
    unqualified: 'unqualified',
    open: 'new',
    contacted: 'working',
  },
  patterns: [
    [/not converted|unqualified|disqualified|junk|\blost\b/i, 'unqualified'],
    [/converted/i, 'converted'],
    [/nurtur/i, 'nurturing'],
    [/qualified/i, 'qualified'],
    [/working|contacted|attempt/i, 'working'],
    [/^open\b|^new\b/i, 'new'],
  ],
  fallback: 'new',
}

const OPPORTUNITY_STAGE: EnumTable = {
  known: {
    prospecting: 'prospecting',
    qualification: 'qualification',
    'needs analysis': 'needs_analysis',
    'value proposition': 'needs_analysis',
    'id. decision makers': 'needs_analysis',
    'perception analysis': 'needs_analysis',
    'proposal/price quote': 'proposal',
    'negotiation/review': 'negotiation',
    'closed won': 'closed_won',
    'closed lost': 'closed_lost',
  },
  patterns: [
    [/closed.*won|^won\b/i, 'closed_won'],
    [/closed.*lost|^lost\b/i, 'closed_lost'],
    [/negotiat/i, 'negotiation'],
    [/proposal|quote/i, 'proposal'],
    [/qualif/i, 'qualification'],
    [/prospect|discovery/i, 'prospecting'],
    [/analysis|needs|decision|value/i, 'needs_analysis'],
  ],
  fallback: 'prospecting',
  note:
    'Value Proposition, Id. Decision Makers and Perception Analysis sit between needs analysis and proposal in the source\'s default sales process: they become needs_analysis, so the stage order is kept',
}

const TASK_STATUS: EnumTable = {
  known: {
    'not started': 'open',
    'in progress': 'in_progress',
    completed: 'completed',
    'waiting on someone else': 'in_progress',
    deferred: 'open',
    open: 'open',
    cancelled: 'cancelled',
    canceled: 'cancelled',
  },
  patterns: [
    [/complet|\bdone\b|closed/i, 'completed'],
    [/cancel/i, 'cancelled'],
    [/progress|waiting|started/i, 'in_progress'],
  ],
  fallback: 'open',
}

const TASK_PRIORITY: EnumTable = {
  known: { high: 'high', normal: 'normal', low: 'low', medium: 'normal' },
  patterns: [[/urgent|critical/i, 'high']],
  fallback: 'normal',
}

/** TaskSubtype -> activity kind: calls and emails logged as tasks keep their nature. */
const TASK_SUBTYPE: EnumTable = {
  known: { task: 'task', call: 'call', email: 'email', listemail: 'email', cadence: 'task', linkedin: 'task' },
  patterns: [],
  fallback: 'task',
}

/** The table of each enumeration a source value can land in, by `kind.field`. */
const ENUM_TABLES: Readonly<Record<string, EnumTable>> = {
  'case.status': CASE_STATUS,
  'case.priority': CASE_PRIORITY,
  'lead.status': LEAD_STATUS,
  'opportunity.stage': OPPORTUNITY_STAGE,
  'activity.status': TASK_STATUS,
  'activity.priority': TASK_PRIORITY,
  'activity.kind': TASK_SUBTYPE,
}

/** The table for an enumeration target; one with no known values when the service adds an enum later. */
export function enumTableFor(kind: string, target: FieldDef): EnumTable {
  return ENUM_TABLES[`${kind}.${target.name}`] ?? { known: {}, patterns: [], fallback: String(target.default ?? target.values?.[0] ?? '') }
}

/** "On Hold" -> "on_hold": the wording of a target value. */
function slug(s: string): string {
  return s
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
}

/** The target value for one source value, or null when nothing matches. */
export function matchEnumValue(table: EnumTable, targetValues: readonly string[], value: string): string | null {
  const key = value.trim().toLowerCase()
  // Own keys only: a source value "constructor" or "__proto__" must not find Object's members.
  if (Object.hasOwn(table.known, key)) return table.known[key]
  const s = slug(value)
  if (targetValues.includes(s)) return s
  for (const [re, target] of table.patterns) if (re.test(value)) return target
  return null
}

/**
 * Source values whose target value is not theirs alone: unmatched ones, and those that share a
 * target with another value (Deferred and Not Started both become `open`). The transform keeps the
 * original of these in custom_fields, so the difference survives the import.
 */
export function lossyValues(values: readonly PicklistValueMapping[]): Set<string> {
  const byTarget = new Map<string, number>()
  for (const v of values) if (v.target !== null) byTarget.set(v.target, (byTarget.get(v.target) ?? 0) + 1)
  const lossy = new Set<string>()
  for (const v of values) if (v.target === null || (byTarget.get(v.target) ?? 0) > 1) lossy.add(v.source)
  return lossy
}
