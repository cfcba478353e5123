/**
 * Citus's query rule for a multi-tenant schema (citus_docs develop/migration_mt_query: "every query
 * ... filtered by the tenant id"; develop/reference_workarounds: FOR UPDATE works in single-shard
 * queries only), applied to one SQL text with PostgreSQL's own parser (libpg-query). A statement
 * passes when every query block that reads or writes a distributed table pins that table's org_id:
 * `org_id = x` or `org_id = ANY/IN (...)` among the block's top-level AND conditions (WHERE and
 * JOIN ON), or a join `a.org_id = b.org_id` to a table that is pinned; an INSERT names org_id
 * among its columns. Statements on docs/scale-out.md's allow-list (a fragment of their text)
 * pass as they are.
 */
import fs from 'node:fs'
import path from 'node:path'
import { loadModule, parseSync } from 'libpg-query'
import { DISTRIBUTION_COLUMN, roleOf } from '../../src/db/table-roles.ts'

type Node = Record<string, any>

export interface StatementViolation {
  statement: string
  problem: string
}

let loaded: Promise<void> | null = null
/** The parser is WebAssembly: load it once per process before the first check. */
export function loadSqlParser(): Promise<void> {
  loaded ??= loadModule()
  return loaded
}

interface Relation {
  table: string
  alias: string
  /**
   * A CTE or subquery in FROM: joining its org_id pins a table only when it reads a distributed
   * table itself (its own block is checked to be pinned); rows from VALUES or unnest may hold any
   * number of organizations.
   */
  derived?: { carriesOrg: boolean }
}

interface Block {
  relations: Relation[]
  /** Top-level AND conditions of WHERE and every JOIN ON of the block. */
  conditions: Node[]
  what: string
}

/** The conjuncts of a boolean expression: a AND (b AND c) -> [a, b, c]. */
function conjuncts(expr: Node | undefined): Node[] {
  if (!expr) return []
  if (expr.BoolExpr?.boolop === 'AND_EXPR') return (expr.BoolExpr.args as Node[]).flatMap(conjuncts)
  return [expr]
}

function columnName(expr: Node | undefined): { qualifier: string | null; column: string } | null {
  const fields = expr?.ColumnRef?.fields as Node[] | undefined
  if (!fields || fields.some((f) => !f.String)) return null
  const names = fields.map((f) => f.String.sval as string)
  return { qualifier: names.length > 1 ? names[names.length - 2]! : null, column: names[names.length - 1]! }
}

/** The FROM items of a block: tables (with alias) and JOIN conditions; subqueries are blocks of their own. */
function fromItems(items: Node[] | undefined, ctes: Map<string, boolean>, relations: Relation[], conditions: Node[]): void {
  for (const item of items ?? []) {
    if (item.RangeVar) {
      const table = item.RangeVar.relname as string
      const alias = (item.RangeVar.alias?.aliasname as string | undefined) ?? table
      const cte = item.RangeVar.schemaname ? undefined : ctes.get(table)
      relations.push(cte === undefined ? { table, alias } : { table, alias, derived: { carriesOrg: cte } })
    } else if (item.RangeSubselect?.alias) {
      relations.push({ table: '(subquery)', alias: item.RangeSubselect.alias.aliasname, derived: { carriesOrg: readsDistributed(item.RangeSubselect.subquery, ctes) } })
    } else if (item.JoinExpr) {
      fromItems([item.JoinExpr.larg, item.JoinExpr.rarg], ctes, relations, conditions)
      conditions.push(...conjuncts(item.JoinExpr.quals))
    }
  }
}

/** Whether a subtree reads a distributed table (directly or through a CTE that does). */
function readsDistributed(node: unknown, ctes: Map<string, boolean>): boolean {
  if (Array.isArray(node)) return node.some((n) => readsDistributed(n, ctes))
  if (!node || typeof node !== 'object') return false
  const n = node as Node
  if (n.RangeVar) {
    const cte = n.RangeVar.schemaname ? undefined : ctes.get(n.RangeVar.relname)
    if (cte !== undefined ? cte : roleOf(n.RangeVar.relname) === 'distributed') return true
  }
  return Object.values(n).some((v) => readsDistributed(v, ctes))
}

/** The distributed tables of a block that no condition pins to organizations. */
function unpinned(block: Block): Relation[] {
  const distributed = block.relations.filter((r) => !r.derived && roleOf(r.table) === 'distributed')
  if (distributed.length === 0) return []
  const ALL = '*' // an unqualified org_id among several tables: the one table that has it
  /** The alias a column belongs to in this block, ALL when unqualified among several, null for an outer query's column. */
  const owner = (qualifier: string | null): string | null => {
    if (qualifier === null) return block.relations.length === 1 ? block.relations[0]!.alias : ALL
    return block.relations.some((r) => r.alias === qualifier) ? qualifier : null
  }
  const pinned = new Set<string>()
  const pin = (alias: string) => (alias === ALL ? distributed.forEach((r) => pinned.add(r.alias)) : pinned.add(alias))
  const joins: [string, string][] = []
  for (const c of block.conditions) {
    const e = c.A_Expr
    if (!e || !['AEXPR_OP', 'AEXPR_OP_ANY', 'AEXPR_IN'].includes(e.kind)) continue
    if ((e.name as Node[] | undefined)?.[0]?.String?.sval !== '=') continue
    for (const [side, other] of [[e.lexpr, e.rexpr], [e.rexpr, e.lexpr]] as [Node, Node][]) {
      const col = columnName(side)
      if (col?.column !== DISTRIBUTION_COLUMN) continue
      const alias = owner(col.qualifier)
      if (alias === null) continue
      const otherCol = columnName(other)
      const otherOwner = otherCol ? owner(otherCol.qualifier) : null
      const derived = block.relations.find((r) => r.alias === otherOwner)?.derived
      if (derived) {
        if (derived.carriesOrg && otherCol?.column === DISTRIBUTION_COLUMN) pin(alias)
        continue
      }
      if (otherCol && otherOwner !== null) {
        // Both sides are this block's columns: a join on org_id carries a pin across, anything else pins nothing.
        if (otherCol.column === DISTRIBUTION_COLUMN && alias !== ALL && otherOwner !== ALL) joins.push([alias, otherOwner])
        continue
      }
      // A value, a parameter, a list or an outer query's column (a correlated subquery).
      pin(alias)
    }
  }
  for (let changed = true; changed; ) {
    changed = false
    for (const [a, b] of joins) {
      if (pinned.has(a) !== pinned.has(b)) {
        pinned.add(a)
        pinned.add(b)
        changed = true
      }
    }
  }
  return distributed.filter((r) => !pinned.has(r.alias))
}

/** Every query block of a statement (CTEs and subqueries included), each with its tables and conditions. */
function blocksOf(root: Node): Block[] {
  const blocks: Block[] = []
  const ctes = new Map<string, boolean>()
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit)
    if (!node || typeof node !== 'object') return
    const n = node as Node
    const statement = n.SelectStmt ?? n.UpdateStmt ?? n.DeleteStmt ?? n.InsertStmt
    for (const cte of (statement?.withClause?.ctes as Node[] | undefined) ?? []) ctes.set(cte.CommonTableExpr.ctename, readsDistributed(cte.CommonTableExpr.ctequery, ctes))
    // UNION and friends hold their arms in larg and rarg: each arm is a block, visited below.
    if (n.SelectStmt && n.SelectStmt.op === 'SETOP_NONE') {
      const relations: Relation[] = []
      const conditions = conjuncts(n.SelectStmt.whereClause)
      fromItems(n.SelectStmt.fromClause, ctes, relations, conditions)
      blocks.push({ relations, conditions, what: 'SELECT' })
    } else if (n.UpdateStmt) {
      const relations: Relation[] = [relationOf(n.UpdateStmt.relation)]
      const conditions = conjuncts(n.UpdateStmt.whereClause)
      fromItems(n.UpdateStmt.fromClause, ctes, relations, conditions)
      blocks.push({ relations, conditions, what: 'UPDATE' })
    } else if (n.DeleteStmt) {
      const relations: Relation[] = [relationOf(n.DeleteStmt.relation)]
      const conditions = conjuncts(n.DeleteStmt.whereClause)
      fromItems(n.DeleteStmt.usingClause, ctes, relations, conditions)
      blocks.push({ relations, conditions, what: 'DELETE' })
    } else if (n.InsertStmt) {
      const target = relationOf(n.InsertStmt.relation)
      const columns = ((n.InsertStmt.cols as Node[] | undefined) ?? []).map((c) => c.ResTarget?.name)
      // The org_id column carries the organization of each row; its value comes from the VALUES
      // or the SELECT, which is a block of its own.
      const ok = roleOf(target.table) !== 'distributed' || columns.includes(DISTRIBUTION_COLUMN)
      blocks.push({ relations: ok ? [] : [target], conditions: [], what: 'INSERT' })
    }
    for (const value of Object.values(n)) visit(value)
  }
  visit(root)
  return blocks
}

function relationOf(rangeVar: Node): Relation {
  return { table: rangeVar.relname, alias: rangeVar.alias?.aliasname ?? rangeVar.relname }
}

/** The fragments of docs/scale-out.md's allow-list ("Query rules" section, first column). */
export function allowList(root: string): string[] {
  const doc = fs.readFileSync(path.join(root, 'docs/scale-out.md'), 'utf8')
  const section = doc.split(/^## /m).find((s) => s.startsWith('Query rules')) ?? ''
  return [...section.matchAll(/^\|\s*`([^`]+)`\s*\|/gm)].map((m) => normalize(m[1]!))
}

export function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** The problems of one statement: none when it keeps the rule or is on the allow-list. */
export function checkStatement(text: string, allowed: readonly string[]): StatementViolation[] {
  const flat = normalize(text)
  if (allowed.some((fragment) => flat.includes(fragment))) return []
  let parsed: Node
  try {
    parsed = parseSync(text)
  } catch (err) {
    return [{ statement: flat, problem: `does not parse: ${(err as Error).message}` }]
  }
  return blocksOf(parsed).flatMap((block) =>
    unpinned(block).map((r) => ({
      statement: flat,
      problem: `${block.what} on distributed table ${r.table}${r.alias !== r.table ? ` (${r.alias})` : ''} without an ${DISTRIBUTION_COLUMN} filter`,
    })),
  )
}
