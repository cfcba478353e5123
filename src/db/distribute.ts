/**
 * `db distribute`: gives every table its Citus role from table-roles.ts (docs/scale-out.md,
 * "Distributing"). Idempotent: tables Citus already knows (pg_dist_partition) are left alone, so
 * the command can run after every deploy. Without the citus extension it changes nothing and says
 * what it would run, so the embedded database and plain PostgreSQL stay single-node.
 */
import { sql } from 'kysely'
import type { Database } from './connect.ts'
import { DISTRIBUTION_COLUMN, TABLE_ROLES, type TableRoleEntry } from './table-roles.ts'

export interface DistributeResult {
  citus: boolean
  message: string
  /** The statements run (citus present) or that would run (absent), in order. */
  statements: string[]
  /** Tables Citus already had as their role wants: nothing to do. */
  already: string[]
  /** Tables that stay on the coordinator only. */
  local: string[]
}

/** The first distributed table; every later one joins its colocation group. */
const COLOCATION_ANCHOR = TABLE_ROLES.find((t) => t.role === 'distributed')!.table

function statementFor(entry: TableRoleEntry): string | null {
  if (entry.role === 'reference') return `SELECT create_reference_table('${entry.table}')`
  if (entry.role === 'distributed') {
    // The anchor starts a colocation group of its own rather than joining one by column type alone.
    const colocateWith = entry.table === COLOCATION_ANCHOR ? 'none' : COLOCATION_ANCHOR
    return `SELECT create_distributed_table('${entry.table}', '${DISTRIBUTION_COLUMN}', colocate_with => '${colocateWith}')`
  }
  return null
}

/** What pg_dist_partition says of each table Citus knows: hash-distributed, or a reference table. */
async function citusRoles(database: Database): Promise<Map<string, 'distributed' | 'reference' | 'other'>> {
  const rows = await sql<{ table_name: string; partmethod: string; repmodel: string }>`
    SELECT c.relname AS table_name, p.partmethod::text AS partmethod, p.repmodel::text AS repmodel
    FROM pg_dist_partition p JOIN pg_class c ON c.oid = p.logicalrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema()`.execute(database.db)
  // partmethod 'h': hash-distributed; 'n' with repmodel 't': a reference table; 'n' with 's': a
  // Citus-local table (what Citus makes of a local table that gains a key to a reference table).
  return new Map(rows.rows.map((r) => [r.table_name, r.partmethod === 'h' ? 'distributed' : r.partmethod === 'n' && r.repmodel === 't' ? 'reference' : 'other']))
}

async function hasCitus(database: Database): Promise<boolean> {
  const r = await sql<{ present: boolean }>`SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') AS present`.execute(database.db)
  return r.rows[0]?.present === true
}

export async function distributeTables(database: Database): Promise<DistributeResult> {
  const local = TABLE_ROLES.filter((t) => t.role === 'local').map((t) => t.table)
  if (!(await hasCitus(database))) {
    return {
      citus: false,
      message: 'The citus extension is not installed in this database: nothing was changed. On a Citus coordinator this command runs the statements listed.',
      statements: TABLE_ROLES.map(statementFor).filter((s): s is string => s !== null),
      already: [],
      local,
    }
  }
  const known = await citusRoles(database)
  const statements: string[] = []
  const already: string[] = []
  for (const entry of TABLE_ROLES) {
    const statement = statementFor(entry)
    if (statement === null) continue
    if (known.get(entry.table) === entry.role) {
      already.push(entry.table)
      continue
    }
    await sql.raw(statement).execute(database.db)
    statements.push(statement)
  }
  return {
    citus: true,
    message: statements.length === 0 ? 'Every table already has its role: nothing to do.' : `Gave ${statements.length} tables their role.`,
    statements,
    already,
    local,
  }
}
