/**
 * Managing custom field definitions: the rules a definition must follow beyond its JSON schema
 * (names unique and not a built-in field's, picklist options, a cap per kind) and what a change may
 * do to records that already hold values (docs/custom-fields.md, "Changing and deleting").
 */
import { writeTransaction } from '../../db/write-transaction.ts'
import type { WriteReceipt } from '../../shared/auth-context.ts'
import { CompiledQuery } from 'kysely'
import { Conflict, NotFound, ValidationFailed } from '../../shared/errors.ts'
import { uuidv7 } from '../../shared/ids.ts'
import { kindsByName } from '../kinds/index.ts'
import type { KindName } from '../record-kind.ts'
import type { Executor } from '../record.repository.ts'
import { clashesWithBuiltIn, MAX_DEFINITIONS_PER_KIND, type CustomFieldDefinition, type CustomFieldType } from './definition.ts'
import { countDefinitions, countValues, deleteDefinitionRow, insertDefinition, selectDefinition, selectDefinitions, updateDefinitionRow } from './definitions.repository.ts'

export interface NewDefinition {
  kind: KindName
  name: string
  label: string
  type: CustomFieldType
  options?: string[]
  required?: boolean
}

export type DefinitionChange = Partial<Pick<CustomFieldDefinition, 'label' | 'type' | 'options' | 'required'>>

/** Picklists need their options (distinct); other types take none. */
function checkedOptions(type: CustomFieldType, options: string[] | undefined): string[] {
  if (type !== 'picklist') {
    if (options && options.length > 0) throw new ValidationFailed('Only picklists take options.', [{ field: 'options', message: 'only picklists take options' }])
    return []
  }
  const trimmed = (options ?? []).map((o) => o.trim())
  if (trimmed.length === 0) throw new ValidationFailed('A picklist needs at least one option.', [{ field: 'options', message: 'a picklist needs at least one option' }])
  const blank = trimmed.findIndex((o) => o === '')
  if (blank >= 0) throw new ValidationFailed('Options cannot be blank.', [{ field: `options[${blank}]`, message: 'cannot be blank' }])
  const repeated = trimmed.findIndex((o, i) => trimmed.indexOf(o) !== i)
  if (repeated >= 0) throw new ValidationFailed(`The option "${trimmed[repeated]}" is listed twice.`, [{ field: `options[${repeated}]`, message: 'is listed twice' }])
  return trimmed
}

/** Every definition of the organization, or of one kind: what export adds as columns. */
export function listCustomFieldDefinitions(db: Executor, orgId: string, kind?: KindName): Promise<CustomFieldDefinition[]> {
  return selectDefinitions(db, orgId, kind)
}

export async function getDefinition(db: Executor, orgId: string, id: string): Promise<CustomFieldDefinition> {
  const found = await selectDefinition(db, orgId, id)
  if (!found) throw new NotFound('Custom field')
  return found
}

export async function createDefinition(db: Executor, orgId: string, input: NewDefinition, receipt?: WriteReceipt, now = new Date()): Promise<CustomFieldDefinition> {
  const kind = kindsByName[input.kind]
  if (clashesWithBuiltIn(kind, input.name)) {
    throw new ValidationFailed(`${input.name} is a built-in field of ${kind.labelPlural.toLowerCase()}.`, [{ field: 'name', message: `is a built-in field of ${kind.labelPlural.toLowerCase()}` }])
  }
  const options = checkedOptions(input.type, input.options)
  const label = input.label.trim()
  if (!label) throw new ValidationFailed('The label cannot be blank.', [{ field: 'label', message: 'cannot be blank' }])
  return writeTransaction(db, receipt, async (trx) => {
    // Serialises creations per organization and kind, so the cap holds under concurrency.
    await trx.executeQuery(sqlLock(orgId, input.kind))
    if ((await countDefinitions(trx, orgId, input.kind)) >= MAX_DEFINITIONS_PER_KIND) {
      throw new ValidationFailed(`${kind.labelPlural} already have ${MAX_DEFINITIONS_PER_KIND} custom fields, the most a kind can have.`, [{ field: 'kind', message: `has ${MAX_DEFINITIONS_PER_KIND} custom fields already` }])
    }
    try {
      return await insertDefinition(trx, orgId, { id: uuidv7(now), kind: input.kind, name: input.name, label, type: input.type, options, required: input.required ?? false }, now)
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw new Conflict(`${kind.labelPlural} already have a custom field named ${input.name}.`)
      throw err
    }
  })
}

function sqlLock(orgId: string, kind: string): CompiledQuery {
  return CompiledQuery.raw('SELECT pg_advisory_xact_lock(hashtext($1))', [`custom_fields:${orgId}:${kind}`])
}

/**
 * Label, options and `required` change freely (values stay as they are; the new rules apply to the
 * next write that sends the field). The type changes only while no record holds a value.
 */
export async function changeDefinition(db: Executor, orgId: string, id: string, change: DefinitionChange, receipt?: WriteReceipt, now = new Date()): Promise<CustomFieldDefinition> {
  return writeTransaction(db, receipt, async (trx) => {
    const current = await selectDefinition(trx, orgId, id, true)
    if (!current) throw new NotFound('Custom field')
    const type = change.type ?? current.type
    if (type !== current.type) {
      const holding = await countValues(trx, orgId, kindsByName[current.kind], current.name)
      if (holding > 0) {
        throw new Conflict(`${holding} record${holding === 1 ? '' : 's'} hold${holding === 1 ? 's' : ''} a value of ${current.name}; its type can change only while no record has one. Create a new field instead.`)
      }
    }
    const options = checkedOptions(type, change.options ?? (type === current.type ? current.options : undefined))
    const label = (change.label ?? current.label).trim()
    if (!label) throw new ValidationFailed('The label cannot be blank.', [{ field: 'label', message: 'cannot be blank' }])
    return updateDefinitionRow(trx, orgId, id, { label, type, options, required: change.required ?? current.required }, now)
  })
}

/** Deletes the definition only: records keep their values under the name, no longer checked or shown as a field. */
export async function deleteDefinition(db: Executor, orgId: string, id: string, receipt?: WriteReceipt): Promise<void> {
  if (!(await writeTransaction(db, receipt, (trx) => deleteDefinitionRow(trx, orgId, id)))) throw new NotFound('Custom field')
}
