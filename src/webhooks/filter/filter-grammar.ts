/**
 * The grammar of a webhook's filter (docs/webhooks.md, Filters) and its check on save: shape, size,
 * fields that exist on the kinds the endpoint subscribes to, values of the field's type, and fields
 * the registrant may read. Every refusal names the part of the filter it is about
 * (`filter.all[1].gte`), so an editor can put the message beside it.
 */
import { kindsByName, type FieldDef, type FieldType } from '../../records/contracts.ts'
import { ValidationFailed, type FieldError } from '../../shared/errors.ts'
import type { EventEntity } from '../../events/index.ts'

export type Comparison = 'eq' | 'ne' | 'in' | 'gt' | 'gte' | 'lt' | 'lte'
export type Scalar = string | number | boolean | null

export type WebhookFilter =
  | { all: WebhookFilter[] }
  | { any: WebhookFilter[] }
  | { not: WebhookFilter }
  | { changed: string }
  | ({ field: string } & Partial<Record<Exclude<Comparison, 'in'>, Scalar>> & { in?: Scalar[] })

export const COMPARISONS: readonly Comparison[] = ['eq', 'ne', 'in', 'gt', 'gte', 'lt', 'lte']
const ORDERED: ReadonlySet<Comparison> = new Set(['gt', 'gte', 'lt', 'lte'])
const ORDERED_TYPES: ReadonlySet<FieldType> = new Set(['decimal', 'integer', 'date', 'datetime'])

export const FILTER_LIMITS = { depth: 4, conditions: 20, inValues: 100, bytes: 4096 } as const

/** Fields every event object carries besides its kind's own. */
const COMMON_FIELDS: readonly FieldDef[] = [
  { name: 'id', type: 'ref', label: 'Id' },
  { name: 'created_at', type: 'datetime', label: 'Created' },
  { name: 'updated_at', type: 'datetime', label: 'Updated' },
]

interface Context {
  fields: Map<string, FieldDef[]>
  mayReadErp: boolean
  errors: FieldError[]
  conditions: number
}

/** The kinds behind the subscribed event names (`opportunity.stage_changed` -> opportunity). */
function subscribedFields(events: readonly string[]): Map<string, FieldDef[]> {
  const fields = new Map<string, FieldDef[]>()
  const entities = new Set(events.map((e) => e.slice(0, e.indexOf('.')) as EventEntity))
  for (const entity of entities) {
    const kind = kindsByName[entity]
    if (!kind) continue
    for (const f of [...COMMON_FIELDS, ...kind.fields]) fields.set(f.name, [...(fields.get(f.name) ?? []), f])
  }
  return fields
}

/**
 * The filter as stored, or null for "no filter"; throws 400 validation_failed listing every problem.
 * `events` are the endpoint's (checked) subscriptions; `mayReadErp` whether the endpoint receives
 * amounts (its registrant had erp:read).
 */
export function checkFilter(filter: unknown, events: readonly string[], mayReadErp: boolean): WebhookFilter | null {
  if (filter === null || filter === undefined) return null
  const ctx: Context = { fields: subscribedFields(events), mayReadErp, errors: [], conditions: 0 }
  if (JSON.stringify(filter).length > FILTER_LIMITS.bytes) {
    ctx.errors.push({ field: 'filter', message: `must be at most ${FILTER_LIMITS.bytes} bytes of JSON` })
  } else {
    node(filter, 'filter', 1, ctx)
    if (ctx.conditions > FILTER_LIMITS.conditions) ctx.errors.push({ field: 'filter', message: `has ${ctx.conditions} conditions; at most ${FILTER_LIMITS.conditions}` })
  }
  if (ctx.errors.length > 0) {
    throw new ValidationFailed(`The filter is not valid: ${ctx.errors.map((e) => `${e.field} ${e.message}`).join('; ')}.`, ctx.errors)
  }
  return filter as WebhookFilter
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function node(value: unknown, at: string, depth: number, ctx: Context): void {
  if (!isObject(value)) {
    ctx.errors.push({ field: at, message: 'must be an object: {"all": [...]}, {"any": [...]}, {"not": {...}}, {"changed": field} or {"field": name, <comparison>: value}' })
    return
  }
  const keys = Object.keys(value)
  if ('all' in value || 'any' in value) {
    const op = 'all' in value ? 'all' : 'any'
    if (keys.length !== 1) return void ctx.errors.push({ field: at, message: `"${op}" must be the only key of its object` })
    group(value[op], `${at}.${op}`, depth, ctx)
    return
  }
  if ('not' in value) {
    if (keys.length !== 1) return void ctx.errors.push({ field: at, message: '"not" must be the only key of its object' })
    if (depth >= FILTER_LIMITS.depth) return void ctx.errors.push({ field: `${at}.not`, message: `nests deeper than ${FILTER_LIMITS.depth} levels` })
    node(value.not, `${at}.not`, depth + 1, ctx)
    return
  }
  ctx.conditions++
  if ('changed' in value) {
    if (keys.length !== 1) return void ctx.errors.push({ field: at, message: '"changed" must be the only key of its object' })
    fieldNamed(value.changed, `${at}.changed`, ctx)
    return
  }
  if (!('field' in value)) return void ctx.errors.push({ field: at, message: `needs "field" (or one of all, any, not, changed); found ${keys.map((k) => `"${k}"`).join(', ') || 'nothing'}` })
  const defs = fieldNamed(value.field, `${at}.field`, ctx)
  const ops = keys.filter((k) => k !== 'field')
  const unknown = ops.filter((k) => !COMPARISONS.includes(k as Comparison))
  if (unknown.length > 0) return void ctx.errors.push({ field: `${at}.${unknown[0]}`, message: `is not a comparison; use one of ${COMPARISONS.join(', ')}` })
  if (ops.length !== 1) return void ctx.errors.push({ field: at, message: `needs exactly one comparison (${COMPARISONS.join(', ')}) beside "field"` })
  if (defs) comparison(ops[0] as Comparison, value[ops[0]], defs, `${at}.${ops[0]}`, ctx)
}

function group(items: unknown, at: string, depth: number, ctx: Context): void {
  if (!Array.isArray(items) || items.length === 0) return void ctx.errors.push({ field: at, message: 'must be a non-empty array of filters' })
  if (depth >= FILTER_LIMITS.depth) return void ctx.errors.push({ field: at, message: `nests deeper than ${FILTER_LIMITS.depth} levels` })
  items.forEach((item, i) => node(item, `${at}[${i}]`, depth + 1, ctx))
}

/** The definitions of the field on the subscribed kinds, or null (with an error) when it has none. */
function fieldNamed(name: unknown, at: string, ctx: Context): FieldDef[] | null {
  if (typeof name !== 'string' || name === '') return (ctx.errors.push({ field: at, message: 'must be a field name' }), null)
  const defs = ctx.fields.get(name)
  if (!defs) {
    const known = [...ctx.fields.keys()].sort().join(', ')
    ctx.errors.push({ field: at, message: `"${name}" is not a field of the subscribed records (${known || 'no events subscribed'})` })
    return null
  }
  if (!ctx.mayReadErp && defs.some((d) => d.erp)) {
    ctx.errors.push({ field: at, message: `"${name}" needs the scope erp:read: this endpoint receives it as null` })
    return null
  }
  return defs
}

function comparison(op: Comparison, value: unknown, defs: FieldDef[], at: string, ctx: Context): void {
  const types = new Set(defs.map((d) => d.type))
  if (ORDERED.has(op) && ![...types].some((t) => ORDERED_TYPES.has(t))) {
    return void ctx.errors.push({ field: at, message: `compares by order, which needs a number, amount or date field; "${defs[0].name}" is ${[...types].join('/')}` })
  }
  if (op === 'in') {
    if (!Array.isArray(value) || value.length === 0 || value.length > FILTER_LIMITS.inValues) {
      return void ctx.errors.push({ field: at, message: `must be an array of 1 to ${FILTER_LIMITS.inValues} values` })
    }
    value.forEach((v, i) => scalar(v, defs, `${at}[${i}]`, ctx, false))
    return
  }
  scalar(value, defs, at, ctx, ORDERED.has(op))
}

/** A value the field can hold: an enum's value, a number for numbers, a date for dates... */
function scalar(value: unknown, defs: FieldDef[], at: string, ctx: Context, ordered: boolean): void {
  if (value === null) {
    if (ordered) ctx.errors.push({ field: at, message: 'cannot be null in an order comparison' })
    return
  }
  const fits = defs.some((d) => fitsType(value, d))
  if (fits) return
  const d = defs[0]
  const expected =
    d.type === 'enum' ? `one of ${[...new Set(defs.flatMap((x) => x.values ?? []))].join(', ')}` :
    d.type === 'decimal' || d.type === 'integer' ? 'a number' :
    d.type === 'boolean' ? 'true or false' :
    d.type === 'date' ? 'a date (YYYY-MM-DD)' :
    d.type === 'datetime' ? 'an RFC 3339 time' : 'a string'
  ctx.errors.push({ field: at, message: `${JSON.stringify(value)} is not a value of "${d.name}": expected ${expected}` })
}

const DATE = /^\d{4}-\d{2}-\d{2}$/
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/

function fitsType(value: unknown, d: FieldDef): boolean {
  switch (d.type) {
    case 'enum':
      return typeof value === 'string' && (d.values ?? []).includes(value)
    case 'decimal':
      return (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value))
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value)
    case 'boolean':
      return typeof value === 'boolean'
    case 'date':
      return typeof value === 'string' && DATE.test(value) && !Number.isNaN(Date.parse(value))
    case 'datetime':
      return typeof value === 'string' && DATETIME.test(value) && !Number.isNaN(Date.parse(value))
    default:
      return typeof value === 'string'
  }
}
