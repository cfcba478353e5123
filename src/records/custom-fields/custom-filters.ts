/**
 * List filters on custom fields (docs/api.md, Lists; docs/custom-fields.md, Filters):
 * `custom_fields.<name>=value` for equality, `custom_fields.<name>[gte|gt|lte|lt]=value` on number
 * and date fields, `custom_fields.<name>[in]=a,b` on picklists. The query schema admits any such
 * name; the definitions of the caller's organization decide here whether the field exists and how
 * its value reads. The conditions are JSON operators on `custom_fields`, with no index: they narrow
 * the organization's rows as it is scanned (docs/custom-fields.md states the cost).
 */
import { ValidationFailed, type FieldError } from '../../shared/errors.ts'
import type { RecordKind } from '../record-kind.ts'
import type { Executor, ListOptions } from '../record.repository.ts'
import { MAX_IN_VALUES } from '../list-params.ts'
import type { CustomFieldType } from './definition.ts'
import { selectDefinitions } from './definitions.repository.ts'
import type { CustomFilter, CustomFilterOp } from './custom-filter-params.ts'

export { customFilterParamSchemas, parseCustomFilterParams, type CustomFilter, type CustomFilterOp } from './custom-filter-params.ts'


const NUMBER = /^-?\d{1,16}(\.\d{1,10})?$/

function validDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false
  const d = new Date(`${text}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text
}

/** The typed value of one filter, or the reason it cannot be one. */
function typedValue(type: CustomFieldType, options: readonly string[], op: CustomFilterOp, text: string): { value: unknown } | { problem: string } {
  if (op === 'in') {
    if (type !== 'picklist') return { problem: '[in] works on picklist fields only' }
    const values = [...new Set(text.split(','))]
    if (values.length > MAX_IN_VALUES) return { problem: `takes at most ${MAX_IN_VALUES} values` }
    const unknown = values.find((v) => !options.includes(v))
    return unknown === undefined ? { value: values } : { problem: `"${unknown}" is not an option (${options.join(', ')})` }
  }
  if (op !== 'eq' && type !== 'number' && type !== 'date') return { problem: `[${op}] works on number and date fields only` }
  switch (type) {
    case 'number':
      return NUMBER.test(text) ? { value: Number(text) } : { problem: 'must be a number such as 42 or -1.5' }
    case 'date':
      return validDate(text) ? { value: text } : { problem: 'must be a date, YYYY-MM-DD' }
    case 'boolean':
      return text === 'true' || text === 'false' ? { value: text === 'true' } : { problem: 'must be true or false' }
    case 'picklist':
      return options.includes(text) ? { value: text } : { problem: `must be one of: ${options.join(', ')}` }
    case 'text':
      return { value: text }
  }
}

/** The list options with their custom filters checked and typed; 400 naming each that is not. */
export async function resolveCustomFilters<T extends Omit<ListOptions, 'limit'>>(db: Executor, orgId: string, kind: RecordKind, opts: T): Promise<T> {
  if (!opts.custom?.length) return opts
  const defs = new Map((await selectDefinitions(db, orgId, kind.name)).map((d) => [d.name, d]))
  const errors: FieldError[] = []
  const custom: CustomFilter[] = []
  for (const f of opts.custom) {
    const field = `custom_fields.${f.name}${f.op === 'eq' ? '' : `[${f.op}]`}`
    const def = defs.get(f.name)
    if (!def) {
      errors.push({ field, message: `${f.name} is not a custom field of ${kind.labelPlural.toLowerCase()}` })
      continue
    }
    const typed = typedValue(def.type, def.options, f.op, String(f.value))
    if ('problem' in typed) errors.push({ field, message: typed.problem })
    else custom.push({ name: f.name, op: f.op, value: typed.value, type: def.type })
  }
  if (errors.length) throw new ValidationFailed(`Invalid custom field filter: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}.`, errors)
  return { ...opts, custom }
}

const OPS: Record<Exclude<CustomFilterOp, 'eq' | 'in'>, string> = { gte: '>=', gt: '>', lte: '<=', lt: '<' }

/** SQL conditions on alias `r` for resolved filters; `param` binds a value and answers its placeholder. */
export function customFilterConditions(filters: readonly CustomFilter[], param: (value: unknown, cast?: string) => string): string[] {
  return filters.map((f) => {
    if (!f.type) throw new Error(`custom filter ${f.name} was not resolved against the definitions`)
    // Containment, so a number matches 5 and 5.0 alike and a boolean only a boolean.
    if (f.op === 'eq') return `r.custom_fields @> ${param(JSON.stringify({ [f.name]: f.value }), 'jsonb')}`
    // Bound only where used: PostgreSQL cannot type a parameter the statement never mentions.
    const key = param(f.name, 'text')
    if (f.op === 'in') return `(r.custom_fields ->> ${key}) = ANY(${param(f.value, 'text[]')})`
    // Values written before the field was defined may be of another JSON type: they match no range.
    if (f.type === 'number') return `(CASE WHEN jsonb_typeof(r.custom_fields -> ${key}) = 'number' THEN CAST(r.custom_fields ->> ${key} AS numeric) END) ${OPS[f.op]} ${param(f.value, 'numeric')}`
    // ISO dates order as text.
    return `(CASE WHEN jsonb_typeof(r.custom_fields -> ${key}) = 'string' THEN r.custom_fields ->> ${key} END) ${OPS[f.op]} ${param(f.value, 'text')}`
  })
}
