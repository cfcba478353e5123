/**
 * Finds records of several kinds by name, email, domain or number for one caller: what the command
 * palette and `GET /api/v1/search` answer. Only kinds and fields the caller may read take part
 * (search-fields.ts); the statement is search-sql.ts's, scoped by the caller's organization.
 */
import { CompiledQuery } from 'kysely'
import type { AuthContext } from '../../shared/auth-context.ts'
import type { Executor } from '../record.repository.ts'
import { searchPlans, SEARCH_KINDS, type SearchKindName } from './search-fields.ts'
import { searchSql } from './search-sql.ts'

export interface SearchHit {
  kind: SearchKindName
  id: string
  title: string
  subtitle: string | null
  score: number
}

export interface SearchOptions {
  q: string
  kinds?: readonly SearchKindName[]
  limit: number
}

/** `42` or `#42`: a case number (at most 9 digits, so always an integer column's value). */
const CASE_NUMBER = /^#?(\d{1,9})$/

export async function searchRecords(executor: Executor, caller: Pick<AuthContext, 'orgId' | 'scopes'>, options: SearchOptions): Promise<SearchHit[]> {
  const q = options.q.trim()
  if (q === '') return []
  const number = CASE_NUMBER.exec(q)
  const params = { orgId: caller.orgId, q, caseNumber: number ? Number(number[1]) : null, limit: options.limit }
  const statement = searchSql(searchPlans(caller, options.kinds ?? SEARCH_KINDS), params)
  if (!statement) return []
  const res = await executor.executeQuery<SearchHit>(CompiledQuery.raw(statement.text, statement.values))
  return res.rows
}
