/**
 * SQL of custom field definitions (migration 0016). Every function takes the executor and the
 * organization first, like the record repositories.
 */
import { sql } from 'kysely'
import type { Executor } from '../record.repository.ts'
import type { KindName, RecordKind } from '../record-kind.ts'
import type { CustomFieldDefinition, CustomFieldType } from './definition.ts'

interface Row {
  id: string
  kind: KindName
  name: string
  label: string
  type: CustomFieldType
  options: string
  required: boolean
  created_at: string
  updated_at: string
}

const COLUMNS = sql.raw(`id, kind, name, label, type, options::text AS options, required,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at`)

function fromRow(r: Row): CustomFieldDefinition {
  return { ...r, options: JSON.parse(r.options) as string[] }
}

/** An organization's definitions, of one kind or all, by kind then creation. */
export async function selectDefinitions(db: Executor, orgId: string, kind?: KindName): Promise<CustomFieldDefinition[]> {
  const res = await sql<Row>`SELECT ${COLUMNS} FROM custom_field_definitions
    WHERE org_id = ${orgId} ${kind ? sql`AND kind = ${kind}` : sql``} ORDER BY kind, created_at, id`.execute(db)
  return res.rows.map(fromRow)
}

export async function selectDefinition(db: Executor, orgId: string, id: string, forUpdate = false): Promise<CustomFieldDefinition | null> {
  const res = await sql<Row>`SELECT ${COLUMNS} FROM custom_field_definitions WHERE org_id = ${orgId} AND id = ${id} ${forUpdate ? sql`FOR UPDATE` : sql``}`.execute(db)
  return res.rows[0] ? fromRow(res.rows[0]) : null
}

export async function countDefinitions(db: Executor, orgId: string, kind: KindName): Promise<number> {
  const res = await sql<{ n: number }>`SELECT count(*)::int AS n FROM custom_field_definitions WHERE org_id = ${orgId} AND kind = ${kind}`.execute(db)
  return Number(res.rows[0].n)
}

export async function insertDefinition(db: Executor, orgId: string, d: Omit<CustomFieldDefinition, 'created_at' | 'updated_at'>, now: Date): Promise<CustomFieldDefinition> {
  const res = await sql<Row>`INSERT INTO custom_field_definitions (org_id, id, kind, name, label, type, options, required, created_at, updated_at)
    VALUES (${orgId}, ${d.id}, ${d.kind}, ${d.name}, ${d.label}, ${d.type}, CAST(${JSON.stringify(d.options)} AS jsonb), ${d.required}, ${now.toISOString()}, ${now.toISOString()})
    RETURNING ${COLUMNS}`.execute(db)
  return fromRow(res.rows[0])
}

export async function updateDefinitionRow(db: Executor, orgId: string, id: string, d: Pick<CustomFieldDefinition, 'label' | 'type' | 'options' | 'required'>, now: Date): Promise<CustomFieldDefinition> {
  const res = await sql<Row>`UPDATE custom_field_definitions
    SET label = ${d.label}, type = ${d.type}, options = CAST(${JSON.stringify(d.options)} AS jsonb), required = ${d.required}, updated_at = ${now.toISOString()}
    WHERE org_id = ${orgId} AND id = ${id} RETURNING ${COLUMNS}`.execute(db)
  return fromRow(res.rows[0])
}

export async function deleteDefinitionRow(db: Executor, orgId: string, id: string): Promise<boolean> {
  const res = await sql`DELETE FROM custom_field_definitions WHERE org_id = ${orgId} AND id = ${id}`.execute(db)
  return Number(res.numAffectedRows ?? 0) > 0
}

/**
 * How many records of the kind hold a non-null value under the key: a scan of the organization's
 * records (no index on custom_fields), run only when an administrator changes a field's type.
 */
export async function countValues(db: Executor, orgId: string, kind: RecordKind, name: string): Promise<number> {
  const res = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.raw(kind.table)}
    WHERE org_id = ${orgId} AND jsonb_typeof(custom_fields -> ${name}) IS NOT NULL AND jsonb_typeof(custom_fields -> ${name}) <> 'null'`.execute(db)
  return Number(res.rows[0].n)
}
