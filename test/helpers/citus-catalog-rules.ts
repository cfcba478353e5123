/**
 * Citus's documented schema rules (citus_docs develop/reference_ddl: "Primary keys and uniqueness
 * constraints must include the distribution column", the list of foreign keys Citus can create;
 * develop/reference_workarounds), read from the catalog of a plain PostgreSQL or PGlite database
 * and checked against the roles in src/db/table-roles.ts. Each rule answers a list of violations,
 * one readable line each, so a test shows all of them at once.
 */
import { sql, type Kysely } from 'kysely'
import { DISTRIBUTION_COLUMN, type TableRole } from '../../src/db/table-roles.ts'

export interface RoleOf {
  (table: string): TableRole | null
}

async function tablesOf(db: Kysely<any>, schema: string): Promise<string[]> {
  const r = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = ${schema} AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`.execute(db)
  return r.rows.map((x) => x.name)
}

/** Every table has a role, and every role names a table. */
export async function tablesWithoutRole(db: Kysely<any>, schema: string, roleOf: RoleOf, listed: readonly string[]): Promise<string[]> {
  const tables = await tablesOf(db, schema)
  return [
    ...tables.filter((t) => roleOf(t) === null).map((t) => `${t}: a table without a role in src/db/table-roles.ts`),
    ...listed.filter((t) => !tables.includes(t)).map((t) => `${t}: has a role but is not a table`),
  ]
}

/** Distributed tables: org_id NOT NULL, a primary key, and org_id in every unique key. */
export async function uniqueKeysWithoutOrg(db: Kysely<any>, schema: string, roleOf: RoleOf): Promise<string[]> {
  const problems: string[] = []
  const cols = await sql<{ table_name: string; not_null: boolean }>`
    SELECT c.relname AS table_name, a.attnotnull AS not_null
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = ${DISTRIBUTION_COLUMN} AND NOT a.attisdropped
    WHERE n.nspname = ${schema} AND c.relkind IN ('r', 'p')`.execute(db)
  const orgColumn = new Map(cols.rows.map((r) => [r.table_name, r.not_null]))
  const keys = await sql<{ table_name: string; index_name: string; primary: boolean; columns: string[] | string }>`
    SELECT c.relname AS table_name, ic.relname AS index_name, i.indisprimary AS primary,
      ARRAY(SELECT a.attname::text FROM unnest(i.indkey) WITH ORDINALITY k(attnum, ord)
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum ORDER BY k.ord) AS columns
    FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_class ic ON ic.oid = i.indexrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = ${schema} AND i.indisunique ORDER BY 1, 2`.execute(db)
  for (const table of await tablesOf(db, schema)) {
    if (roleOf(table) !== 'distributed') continue
    if (orgColumn.get(table) === undefined) problems.push(`${table}: distributed without an ${DISTRIBUTION_COLUMN} column`)
    else if (!orgColumn.get(table)) problems.push(`${table}: ${DISTRIBUTION_COLUMN} may be null`)
    const ofTable = keys.rows.filter((k) => k.table_name === table)
    if (!ofTable.some((k) => k.primary)) problems.push(`${table}: distributed without a primary key`)
    for (const k of ofTable) {
      if (!asArray(k.columns).includes(DISTRIBUTION_COLUMN)) problems.push(`${table}: unique key ${k.index_name} (${asArray(k.columns).join(', ')}) does not include ${DISTRIBUTION_COLUMN}`)
    }
  }
  return problems
}

/** No user triggers on distributed or reference tables (the write path writes tombstones itself). */
export async function triggersOnShardedTables(db: Kysely<any>, schema: string, roleOf: RoleOf): Promise<string[]> {
  const r = await sql<{ table_name: string; trigger_name: string }>`
    SELECT c.relname AS table_name, t.tgname AS trigger_name FROM pg_trigger t
    JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = ${schema} AND NOT t.tgisinternal ORDER BY 1, 2`.execute(db)
  return r.rows.filter((t) => roleOf(t.table_name) !== 'local').map((t) => `${t.table_name}: trigger ${t.trigger_name} on a ${roleOf(t.table_name)} table`)
}

interface ForeignKey {
  name: string
  from_table: string
  to_table: string
  from_columns: string[]
  to_columns: string[]
}

async function foreignKeys(db: Kysely<any>, schema: string): Promise<ForeignKey[]> {
  const r = await sql<{ name: string; from_table: string; to_table: string; from_columns: string[] | string; to_columns: string[] | string }>`
    SELECT con.conname AS name, f.relname AS from_table, t.relname AS to_table,
      ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY k(attnum, ord)
            JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum ORDER BY k.ord) AS from_columns,
      ARRAY(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY k(attnum, ord)
            JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum ORDER BY k.ord) AS to_columns
    FROM pg_constraint con JOIN pg_class f ON f.oid = con.conrelid JOIN pg_class t ON t.oid = con.confrelid
    JOIN pg_namespace n ON n.oid = f.relnamespace
    WHERE con.contype = 'f' AND n.nspname = ${schema} ORDER BY 2, 1`.execute(db)
  return r.rows.map((k) => ({ ...k, from_columns: asArray(k.from_columns), to_columns: asArray(k.to_columns) }))
}

/**
 * The foreign keys Citus can create: distributed -> distributed only when the key pairs org_id
 * with org_id (colocated), distributed -> reference, reference -> reference, local <-> reference
 * (no CASCADE from a reference to a local table), local -> local. Never into a distributed table
 * from anything else, never from a distributed table into a local one.
 */
export async function foreignKeysCitusRefuses(db: Kysely<any>, schema: string, roleOf: RoleOf): Promise<string[]> {
  const problems: string[] = []
  for (const k of await foreignKeys(db, schema)) {
    const from = roleOf(k.from_table)
    const to = roleOf(k.to_table)
    const where = `${k.from_table}.${k.name} (${k.from_columns.join(', ')}) -> ${k.to_table} (${k.to_columns.join(', ')})`
    if (to === 'distributed' && from !== 'distributed') problems.push(`${where}: a ${from} table references a distributed table`)
    if (from === 'distributed' && to === 'local') problems.push(`${where}: a distributed table references a local table`)
    if (from === 'distributed' && to === 'distributed') {
      const at = k.from_columns.indexOf(DISTRIBUTION_COLUMN)
      if (at < 0 || k.to_columns[at] !== DISTRIBUTION_COLUMN) problems.push(`${where}: between distributed tables without ${DISTRIBUTION_COLUMN} on both sides`)
    }
  }
  return problems
}

/** `db distribute` runs in list order: a foreign key's target must come before the table holding it. */
export async function foreignKeysOutOfOrder(db: Kysely<any>, schema: string, order: readonly string[]): Promise<string[]> {
  return (await foreignKeys(db, schema))
    .filter((k) => k.from_table !== k.to_table && order.indexOf(k.to_table) > order.indexOf(k.from_table))
    .map((k) => `${k.from_table}.${k.name}: references ${k.to_table}, which table-roles.ts lists later`)
}

/** Distributed tables number per organization (org_counters), never from one global sequence. */
export async function globalSequencesOnDistributedTables(db: Kysely<any>, schema: string, roleOf: RoleOf): Promise<string[]> {
  const r = await sql<{ table_name: string; column_name: string }>`
    SELECT c.relname AS table_name, a.attname AS column_name
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE n.nspname = ${schema} AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
      AND (a.attidentity <> '' OR pg_get_expr(d.adbin, d.adrelid) LIKE 'nextval(%')
    ORDER BY 1, 2`.execute(db)
  return r.rows.filter((x) => roleOf(x.table_name) === 'distributed').map((x) => `${x.table_name}.${x.column_name}: numbered by a global sequence`)
}

// PGlite answers name[]/text[] arrays as arrays; keep a string form working too.
function asArray(v: string[] | string): string[] {
  return Array.isArray(v) ? v : v.replace(/^\{|\}$/g, '').split(',').filter(Boolean)
}
