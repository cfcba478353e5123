/**
 * A batch's items checked on their own, before the database is asked anything: each against its
 * operation's JSON schema (the single write's body schema, plus `id` or `src_id`), then the rules
 * of a single write (decimals, custom_fields size and definitions, the kind's own rules), then for ids or src_ids
 * named twice. Every problem is collected, each naming its item's index and field.
 */
import type { ValidateFunction } from 'ajv'
import { validatorCompiler, fieldErrors } from '../../http/validation.ts'
import type { AuthContext } from '../../shared/auth-context.ts'
import { ValidationFailed, type FieldError } from '../../shared/errors.ts'
import type { RecordKind } from '../record-kind.ts'
import type { RowValues } from '../record.repository.ts'
import { rulesFor } from '../record-rules.ts'
import { uuidSchema } from '../../http/schemas.ts'
import { createBodySchema, patchBodySchema, schemaName } from '../record.schemas.ts'
import { toRowValues } from '../record.service.ts'
import { customFieldErrors, settledCustomFields } from '../custom-fields/custom-field-values.ts'
import type { CustomFieldDefinition } from '../custom-fields/definition.ts'
import { picklistErrors } from '../picklists/standard-picklists.ts'

export const BATCH_OPERATIONS = ['create', 'update', 'upsert', 'delete'] as const
export type BatchOperation = (typeof BATCH_OPERATIONS)[number]
export const MAX_BATCH_RECORDS = 1000

export interface CheckedItem {
  index: number
  /** update and delete: the record's id. */
  id?: string
  values: RowValues
}

type Schema = Record<string, unknown>

/** The JSON schema of one item of an operation (also shown in the OpenAPI document). */
export function batchItemSchema(kind: RecordKind, operation: BatchOperation): Schema {
  const create = createBodySchema(kind)
  const properties = create.properties as Schema
  switch (operation) {
    case 'create':
      return create
    case 'upsert':
      return { ...create, title: `${schemaName(kind)}UpsertItem`, required: [...new Set([...(create.required as string[]), 'src_id'])], properties: { ...properties, src_id: { ...(properties.src_id as Schema), type: 'string' } } }
    case 'update':
      return { ...patchBodySchema(kind), title: `${schemaName(kind)}UpdateItem`, minProperties: 2, required: ['id'], properties: { id: uuidSchema, ...properties } }
    case 'delete':
      return { type: 'object', additionalProperties: false, required: ['id'], properties: { id: uuidSchema } }
  }
}

const validators = new Map<string, ValidateFunction>()
function validatorFor(kind: RecordKind, operation: BatchOperation): ValidateFunction {
  const key = `${kind.name}:${operation}`
  let validate = validators.get(key)
  if (!validate) validators.set(key, (validate = validatorCompiler({ schema: batchItemSchema(kind, operation), httpPart: 'body', method: 'POST', url: '' }) as unknown as ValidateFunction))
  return validate
}

/** Problems of an item as `records[i].field`, so a client can find each one. */
function atIndex(index: number, errors: readonly FieldError[]): FieldError[] {
  return errors.map((e) => ({ index, field: e.field === '(body)' ? `records[${index}]` : `records[${index}].${e.field}`, message: e.message }))
}

export function batchInvalid(errors: FieldError[]): ValidationFailed {
  errors.sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
  const items = new Set(errors.map((e) => e.index)).size
  const shown = errors.slice(0, 5).map((e) => `${e.field} ${e.message}`).join('; ')
  return new ValidationFailed(`${items} of the batch's records cannot be written, so none was: ${shown}${errors.length > 5 ? '; ...' : ''}.`, errors)
}

/** `defs`: the organization's custom field definitions of the kind (an upsert item is a create body, so it names the required ones). */
export function checkItems(
  kind: RecordKind,
  operation: BatchOperation,
  items: readonly unknown[],
  auth: AuthContext,
  defs: readonly CustomFieldDefinition[],
  caseId?: string,
  picklists: ReadonlyMap<string, readonly string[]> = new Map(),
): CheckedItem[] {
  const { checked, errors } = checkEachItem(kind, operation, items, auth, defs, caseId, picklists)
  if (errors.length > 0) throw batchInvalid(errors)
  return checked
}

/**
 * The same checks, answering the items that passed and the problems of the others instead of
 * refusing all of them (a CSV import writes its good rows and reports the rest).
 */
export function checkEachItem(
  kind: RecordKind,
  operation: BatchOperation,
  items: readonly unknown[],
  auth: AuthContext,
  defs: readonly CustomFieldDefinition[],
  caseId?: string,
  /** The standard picklists' options values are checked against; CSV rows pass none (imports keep outside values, docs/custom-fields.md). */
  picklists: ReadonlyMap<string, readonly string[]> = new Map(),
): { checked: CheckedItem[]; errors: FieldError[] } {
  const validate = validatorFor(kind, operation)
  const rules = rulesFor(kind)
  const errors: FieldError[] = []
  const checked: CheckedItem[] = []
  const seen = new Map<string, number>()
  items.forEach((raw, index) => {
    if (!validate(raw)) {
      errors.push(...atIndex(index, fieldErrors(validate.errors ?? [], 'body')))
      return
    }
    const { id, ...body } = raw as Record<string, unknown>
    try {
      const values = toRowValues(kind, body)
      if (operation !== 'delete') {
        const custom = customFieldErrors(defs, values.customFields, operation === 'update' ? 'update' : 'create')
        if (custom.length > 0) {
          errors.push(...atIndex(index, custom))
          return
        }
        values.customFields = settledCustomFields(defs, values.customFields)
        const outside = picklistErrors(picklists, values.fields)
        if (outside.length > 0) {
          errors.push(...atIndex(index, outside))
          return
        }
      }
      if (operation === 'create' || operation === 'upsert') {
        // A comment written under a case belongs to that case, whatever else the item says.
        if (caseId) values.fields.case_id = caseId
        rules.beforeCreate?.(values, auth)
      } else if (operation === 'update') rules.beforeUpdate?.(values, auth)
      const key = operation === 'update' || operation === 'delete' ? (id as string).toLowerCase() : values.srcId
      if (typeof key === 'string') {
        const first = seen.get(key)
        if (first !== undefined) {
          const field = operation === 'update' || operation === 'delete' ? 'id' : 'src_id'
          errors.push({ index, field: `records[${index}].${field}`, message: `is the same as records[${first}].${field}: a batch writes each record once` })
          return
        }
        seen.set(key, index)
      }
      checked.push({ index, id: id === undefined ? undefined : (id as string).toLowerCase(), values })
    } catch (err) {
      if (!(err instanceof ValidationFailed)) throw err
      errors.push(...atIndex(index, err.errors ?? [{ field: '(body)', message: err.message }]))
    }
  })
  return { checked, errors }
}
