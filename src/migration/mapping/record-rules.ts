/**
 * What no single field mapping can say: values that depend on several source fields or on the
 * object itself. A converted lead is `converted` whatever its status says; an activity's `kind`
 * comes from its object; a missing subject gets a stand-in so the record is still imported; an
 * all-day event covers whole days. Each rule names the source fields it reads (the importer must
 * select them) and the target fields it fills (so validation knows they are not left empty).
 */
import { parseBoolean, parseDateTime } from './converters.ts'

export interface RuleTarget {
  fields: Record<string, unknown>
}

export interface RecordRule {
  reads: readonly string[]
  provides: readonly string[]
  /** A value the rule gives every record whose mapping leaves the field empty. */
  fixed?: Readonly<Record<string, unknown>>
  apply(read: (name: string) => unknown, out: RuleTarget): void
}

function isBlank(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === 'string' && v.trim() === '')
}

const leadConverted: RecordRule = {
  reads: ['IsConverted'],
  provides: [],
  apply(read, out) {
    if (parseBoolean(read('IsConverted')) === true) out.fields.status = 'converted'
  },
}

const fixedKind = (kind: 'task' | 'event'): RecordRule => ({
  reads: [],
  provides: ['kind'],
  fixed: { kind },
  apply(_read, out) {
    if (isBlank(out.fields.kind)) out.fields.kind = kind
  },
})

const taskSubject: RecordRule = {
  reads: ['TaskSubtype'],
  provides: ['subject'],
  apply(read, out) {
    if (!isBlank(out.fields.subject)) return
    const subtype = read('TaskSubtype')
    out.fields.subject = isBlank(subtype) ? 'Task' : String(subtype).trim()
  },
}

const eventSubject: RecordRule = {
  reads: [],
  provides: ['subject'],
  apply(_read, out) {
    if (isBlank(out.fields.subject)) out.fields.subject = 'Event'
  },
}

const caseSubject: RecordRule = {
  reads: ['CaseNumber'],
  provides: ['subject'],
  apply(read, out) {
    if (!isBlank(out.fields.subject)) return
    const n = read('CaseNumber')
    out.fields.subject = isBlank(n) ? 'Case' : `Case ${String(n).trim()}`
  },
}

const DAY_MS = 86_400_000

/**
 * The source stores an all-day event as midnight-to-midnight GMT of its days; the ActivityDate is
 * the day as the user picked it. start_at is midnight UTC of that day, end_at midnight UTC after
 * the last day (DurationInMinutes is 1440 per day).
 */
const eventAllDay: RecordRule = {
  reads: ['IsAllDayEvent', 'ActivityDate', 'DurationInMinutes'],
  provides: ['start_at', 'end_at'],
  apply(read, out) {
    if (parseBoolean(read('IsAllDayEvent')) !== true) return
    const day = read('ActivityDate')
    const start = parseDateTime(typeof day === 'string' ? day.slice(0, 10) : null)
    if (start === null) return
    const minutes = Number(read('DurationInMinutes'))
    const days = Number.isFinite(minutes) && minutes > 0 ? Math.max(1, Math.round(minutes / 1440)) : 1
    out.fields.start_at = start
    out.fields.end_at = new Date(Date.parse(start) + days * DAY_MS).toISOString()
  },
}

export const RECORD_RULES: Readonly<Record<string, readonly RecordRule[]>> = {
  Lead: [leadConverted],
  Case: [caseSubject],
  Task: [fixedKind('task'), taskSubject],
  Event: [fixedKind('event'), eventSubject, eventAllDay],
}

export function rulesFor(object: string): readonly RecordRule[] {
  return Object.hasOwn(RECORD_RULES, object) ? RECORD_RULES[object] : []
}

/** Target fields the rules of an object fill when the mapping leaves them empty. */
export function ruleProvided(object: string): Set<string> {
  return new Set(rulesFor(object).flatMap((r) => r.provides))
}
