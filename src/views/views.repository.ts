/** SQL of saved views (migration 0036). Every statement is scoped by the organization first. */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../db/database.ts'

export interface ViewRow {
  id: string
  kind: string
  name: string
  shared: boolean
  owner_user_id: string
  columns: string[]
  filters: Record<string, string>
  sort: string | null
  created_at: string
  updated_at: string
}

export type ViewContent = Pick<ViewRow, 'name' | 'shared' | 'columns' | 'filters' | 'sort'>

const COLUMNS = sql.raw(`id, kind, name, shared, owner_user_id, columns::text AS columns, filters::text AS filters, sort,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at`)

type Stored = Omit<ViewRow, 'columns' | 'filters'> & { columns: string; filters: string }

function fromRow(r: Stored): ViewRow {
  return { ...r, columns: JSON.parse(r.columns) as string[], filters: JSON.parse(r.filters) as Record<string, string> }
}

/** The views a person sees: their own and the organization's shared ones, of one kind or all, by kind then name. */
export async function selectVisibleViews(db: Kysely<DB>, orgId: string, userId: string, kind?: string): Promise<ViewRow[]> {
  const res = await sql<Stored>`SELECT ${COLUMNS} FROM saved_views
    WHERE org_id = ${orgId} ${kind ? sql`AND kind = ${kind}` : sql``} AND (owner_user_id = ${userId} OR shared)
    ORDER BY kind, lower(name), id`.execute(db)
  return res.rows.map(fromRow)
}

export async function selectView(db: Kysely<DB>, orgId: string, id: string, forUpdate = false): Promise<ViewRow | null> {
  const res = await sql<Stored>`SELECT ${COLUMNS} FROM saved_views WHERE org_id = ${orgId} AND id = ${id} ${forUpdate ? sql`FOR UPDATE` : sql``}`.execute(db)
  return res.rows[0] ? fromRow(res.rows[0]) : null
}

export async function countOwnViews(db: Kysely<DB>, orgId: string, userId: string, kind: string): Promise<number> {
  const res = await sql<{ n: number }>`SELECT count(*)::int AS n FROM saved_views WHERE org_id = ${orgId} AND kind = ${kind} AND owner_user_id = ${userId}`.execute(db)
  return Number(res.rows[0].n)
}

export async function insertView(db: Kysely<DB>, orgId: string, view: { id: string; kind: string; owner_user_id: string } & ViewContent, now: Date): Promise<ViewRow> {
  const res = await sql<Stored>`INSERT INTO saved_views (org_id, id, owner_user_id, kind, name, shared, columns, filters, sort, created_at, updated_at)
    VALUES (${orgId}, ${view.id}, ${view.owner_user_id}, ${view.kind}, ${view.name}, ${view.shared},
      CAST(${JSON.stringify(view.columns)} AS jsonb), CAST(${JSON.stringify(view.filters)} AS jsonb), ${view.sort}, ${now.toISOString()}, ${now.toISOString()})
    RETURNING ${COLUMNS}`.execute(db)
  return fromRow(res.rows[0])
}

export async function updateView(db: Kysely<DB>, orgId: string, id: string, view: ViewContent, now: Date): Promise<ViewRow> {
  const res = await sql<Stored>`UPDATE saved_views SET name = ${view.name}, shared = ${view.shared}, columns = CAST(${JSON.stringify(view.columns)} AS jsonb),
      filters = CAST(${JSON.stringify(view.filters)} AS jsonb), sort = ${view.sort}, updated_at = ${now.toISOString()}
    WHERE org_id = ${orgId} AND id = ${id} RETURNING ${COLUMNS}`.execute(db)
  return fromRow(res.rows[0])
}

export async function deleteView(db: Kysely<DB>, orgId: string, id: string): Promise<void> {
  await sql`DELETE FROM saved_views WHERE org_id = ${orgId} AND id = ${id}`.execute(db)
}
