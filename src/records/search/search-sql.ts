/**
 * The one statement of a search across kinds. Every branch is an index range led by org_id
 * (migration 0015), bounded by the answer's limit, so its cost does not grow with the
 * organization's records:
 *
 * - exact and prefix: `lower(c)` between the query and the query followed by the highest code
 *   point, in the order of the (org_id, lower(c) text_pattern_ops) btree (`USING ~<~`: byte
 *   order, the index's; a plain ORDER BY sorts by collation, which that index cannot give, so
 *   every match would be read and sorted): exact matches come first. Any query length.
 * - substring (3 characters or more), on `contains` fields (names, subjects): `c ILIKE '%q%'`
 *   through the trigram GIN; on `email` fields, the start of the address's domain through its
 *   prefix btree (migration 0022). Shorter queries match prefixes only: one or two letters are in
 *   most values, so "contains" would list arbitrary records and, having no trigram, scan them all.
 * - a number (`42`, `#42`): that case number, through the (org_id, case_number) unique index.
 *
 * Scores: exact 1; prefix 0.6-0.9 and substring 0.2-0.5, higher as the query covers more of the
 * value. A record found by several branches keeps its best score; the answer is ordered by score,
 * then title. The substring scans run only when the other branches found fewer records than the
 * answer holds (they could not outrank them).
 */
import { escapeLike } from '../list-sql.ts'
import type { SearchPlan } from './search-fields.ts'
import { emailDomainSql, startsWithSql } from './match-sql.ts'

export interface SearchParams {
  orgId: string
  q: string
  caseNumber: number | null
  limit: number
}

/** Below this many characters a query matches prefixes only (no trigram to look up). */
export const SUBSTRING_MIN_LENGTH = 3

// $1 is the organization, $2 the query; the LIKE pattern and the case number are bound only when
// a branch uses them (a statement must use every parameter it is given).
const Q = 'CAST($2 AS text)'
const LOWER_Q = `lower(${Q})`
const COVERAGE = (value: string) => `length(${Q})::numeric / greatest(length(${value}), 1)`

/** Binds a value on first use and answers its placeholder ever after. */
function lazyParam(values: unknown[], value: unknown, cast: string): () => string {
  let placeholder: string | null = null
  return () => {
    if (placeholder === null) {
      values.push(value)
      placeholder = `CAST($${values.length} AS ${cast})`
    }
    return placeholder
  }
}

interface Bound {
  pattern: () => string
  caseNumber: () => string
}

function branch(plan: SearchPlan, score: string, where: string, orderBy: string, limit: number): string {
  const { kind } = plan
  return (
    `(SELECT '${kind.name}' AS kind, r.id, ${score} AS score, ${plan.titleSql} AS title, ${plan.subtitleSql} AS subtitle ` +
    `FROM ${kind.table} r WHERE r.org_id = $1 AND ${where}${orderBy ? ` ORDER BY ${orderBy}` : ''} LIMIT ${limit})`
  )
}

/** Exact, prefix and case-number branches: every hit scores 0.6 or more. */
function startBranchesOf(plan: SearchPlan, params: SearchParams, bound: Bound): string[] {
  const out = plan.columns.map(({ name }) => {
    const lowered = `lower(r.${name})`
    const score = `CASE WHEN ${lowered} = ${LOWER_Q} THEN 1 ELSE 0.6 + 0.3 * ${COVERAGE(`r.${name}`)} END`
    return branch(plan, score, startsWithSql(lowered, LOWER_Q), `${lowered} USING ~<~`, params.limit)
  })
  if (plan.matchesCaseNumber && params.caseNumber !== null) out.push(branch(plan, '1', `r.case_number = ${bound.caseNumber()}`, '', 1))
  return out
}

/** Substring branches (scores below 0.6), run only while the others found fewer than `limit` records. */
function containsBranchesOf(plan: SearchPlan, params: SearchParams, bound: Bound): string[] {
  if ([...params.q].length < SUBSTRING_MIN_LENGTH) return []
  // No column reference: PostgreSQL evaluates this once, before the scan, and skips the scan when false.
  const needed = `(SELECT count(DISTINCT id) FROM starts) < ${params.limit}`
  return plan.columns.flatMap(({ name, mode }) => {
    if (mode === 'contains') return [branch(plan, `0.2 + 0.3 * ${COVERAGE(`r.${name}`)}`, `r.${name} ILIKE ${bound.pattern()} AND ${needed}`, '', params.limit)]
    if (mode === 'email') {
      const domain = emailDomainSql(`r.${name}`)
      return [branch(plan, `0.2 + 0.3 * ${COVERAGE(domain)}`, `${startsWithSql(domain, LOWER_Q)} AND ${needed}`, '', params.limit)]
    }
    return []
  })
}

/**
 * The statement and its values, or null when the caller may search nothing. A value containing
 * the query always scores below one starting with it, so when the starts fill the answer the
 * substring scans, the costly part for a common word, are not run at all.
 */
export function searchSql(plans: SearchPlan[], params: SearchParams): { text: string; values: unknown[] } | null {
  const values: unknown[] = [params.orgId, params.q]
  const bound = { pattern: lazyParam(values, `%${escapeLike(params.q)}%`, 'text'), caseNumber: lazyParam(values, params.caseNumber, 'integer') }
  const starts = plans.flatMap((p) => startBranchesOf(p, params, bound))
  if (starts.length === 0) return null
  const contains = plans.flatMap((p) => containsBranchesOf(p, params, bound))
  if (!Number.isSafeInteger(params.limit) || params.limit < 1) throw new Error(`search limit must be a positive integer, got ${params.limit}`)
  // The limit is written into the text for the reason record.repository.ts gives (generic plans).
  const hits = contains.length ? `SELECT * FROM starts UNION ALL ${contains.join(' UNION ALL ')}` : 'SELECT * FROM starts'
  const text =
    `WITH starts AS MATERIALIZED (${starts.join(' UNION ALL ')}), hits AS (${hits}), ` +
    `best AS (SELECT DISTINCT ON (kind, id) kind, id, score, title, subtitle FROM hits ORDER BY kind, id, score DESC) ` +
    `SELECT kind, id, round(score, 3)::float8 AS score, title, subtitle FROM best ORDER BY score DESC, title, kind, id LIMIT ${params.limit}`
  return { text, values }
}
