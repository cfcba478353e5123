/**
 * The records a lead may be converted into instead of new ones (GET /leads/{id}/conversion-matches):
 * accounts whose domain or website is the lead's e-mail domain or whose name is its company, and
 * contacts with the lead's e-mail or name, best first. Converting into what exists keeps one
 * company from being entered three times (docs/api.md, Lead conversion).
 *
 * Each list is one statement. Contacts are found through the search indexes (lower(email),
 * lower(last_name): migrations 0015 and 0022); accounts are read along the organization's key with
 * each one's reasons computed, since a website has no index: a cost paid once per conversion
 * dialog, never by a list.
 */
import { sql } from 'kysely'
import type { AuthContext } from '../../shared/auth-context.ts'
import { NotFound } from '../../shared/errors.ts'
import { kindsByName } from '../kinds/index.ts'
import { recordForCaller, assertMayRead } from '../record-access.ts'
import { findRecordJson, type Executor } from '../record.repository.ts'
import { recordJsonText } from '../record-sql.ts'
import { escapeLike } from '../list-sql.ts'

export const MAX_MATCHES = 5

/** Why a record is suggested, strongest first. */
export type MatchReason = 'email' | 'domain' | 'website' | 'name' | 'similar_name'

export interface ConversionMatch {
  record: Record<string, unknown>
  matched_on: MatchReason[]
}

export interface ConversionMatches {
  accounts: ConversionMatch[]
  contacts: ConversionMatch[]
}

/**
 * Mailbox providers: a lead writing from one says nothing about their company, so its domain
 * suggests no account.
 */
const FREE_MAIL = new Set([
  'gmail.com', 'googlemail.com', 'yahoo.com', 'yahoo.co.uk', 'hotmail.com', 'outlook.com', 'live.com', 'msn.com', 'icloud.com', 'me.com', 'mac.com',
  'aol.com', 'proton.me', 'protonmail.com', 'gmx.com', 'gmx.de', 'gmx.net', 'web.de', 'yandex.ru', 'mail.ru', 'qq.com', '163.com', 'fastmail.com', 'zoho.com',
])

/** The company domain of an e-mail address, lower-cased; null for none or a mailbox provider's. */
export function companyDomain(email: unknown): string | null {
  if (typeof email !== 'string') return null
  const domain = email.slice(email.lastIndexOf('@') + 1).trim().toLowerCase()
  if (!email.includes('@') || !domain.includes('.') || FREE_MAIL.has(domain)) return null
  return domain
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null)

interface MatchRow {
  j: string
  reasons: MatchReason[]
}

export async function conversionMatches(executor: Executor, auth: AuthContext, leadId: string): Promise<ConversionMatches> {
  assertMayRead(kindsByName.lead, auth)
  const json = await findRecordJson(executor, auth.orgId, kindsByName.lead, leadId)
  if (!json) throw new NotFound('Lead')
  const lead = JSON.parse(json) as Record<string, unknown>
  const [accounts, contacts] = [await accountMatches(executor, auth.orgId, lead), await contactMatches(executor, auth.orgId, lead)]
  const shown = (kind: 'account' | 'contact') => (row: MatchRow): ConversionMatch => ({ record: recordForCaller(kindsByName[kind], auth, JSON.parse(row.j)), matched_on: row.reasons })
  return { accounts: accounts.map(shown('account')), contacts: contacts.map(shown('contact')) }
}

async function accountMatches(executor: Executor, orgId: string, lead: Record<string, unknown>): Promise<MatchRow[]> {
  const domain = companyDomain(lead.email)
  const company = text(lead.company)
  if (!domain && !company) return []
  const lowered = company?.toLowerCase() ?? null
  // The website's host, without a leading www., is the domain: https://www.acme.example/about.
  const host = sql`lower(regexp_replace(regexp_replace(r.website, '^[a-zA-Z]+://', ''), '^www\\.|[/:?#].*$', '', 'g'))`
  const reasons = sql`array_remove(ARRAY[
      CASE WHEN lower(r.domain) = ${domain} THEN 'domain' END,
      CASE WHEN ${host} = ${domain} THEN 'website' END,
      CASE WHEN lower(r.name) = ${lowered} THEN 'name' WHEN r.name ILIKE ${company ? `%${escapeLike(company)}%` : null} THEN 'similar_name' END
    ]::text[], NULL)`
  const res = await sql<MatchRow>`
    SELECT ${sql.raw(recordJsonText(kindsByName.account, 'r'))} AS j, m.reasons
    FROM accounts r CROSS JOIN LATERAL (SELECT ${reasons} AS reasons) m
    WHERE r.org_id = ${orgId} AND cardinality(m.reasons) > 0
    ORDER BY ${score(sql`m.reasons`)} DESC, r.id DESC
    LIMIT ${MAX_MATCHES}`.execute(executor)
  return res.rows
}

async function contactMatches(executor: Executor, orgId: string, lead: Record<string, unknown>): Promise<MatchRow[]> {
  const email = text(lead.email)?.toLowerCase() ?? null
  const last = text(lead.last_name)?.toLowerCase() ?? null
  const first = text(lead.first_name)?.toLowerCase() ?? null
  if (!email && !last) return []
  const reasons = sql`array_remove(ARRAY[
      CASE WHEN lower(r.email) = ${email} THEN 'email' END,
      CASE WHEN lower(r.last_name) = ${last} AND lower(coalesce(r.first_name, '')) = ${first ?? ''} THEN 'name' END
    ]::text[], NULL)`
  const res = await sql<MatchRow>`
    SELECT ${sql.raw(recordJsonText(kindsByName.contact, 'r'))} AS j, m.reasons
    FROM contacts r CROSS JOIN LATERAL (SELECT ${reasons} AS reasons) m
    WHERE r.org_id = ${orgId} AND (lower(r.email) = ${email} OR lower(r.last_name) = ${last}) AND cardinality(m.reasons) > 0
    ORDER BY ${score(sql`m.reasons`)} DESC, r.id DESC
    LIMIT ${MAX_MATCHES}`.execute(executor)
  return res.rows
}

/** A match's rank: the e-mail or domain outweighs the name, an exact name a similar one. */
function score(reasons: ReturnType<typeof sql>) {
  return sql`(CASE WHEN 'email' = ANY(${reasons}) THEN 8 ELSE 0 END + CASE WHEN 'domain' = ANY(${reasons}) OR 'website' = ANY(${reasons}) THEN 4 ELSE 0 END
    + CASE WHEN 'name' = ANY(${reasons}) THEN 3 WHEN 'similar_name' = ANY(${reasons}) THEN 1 ELSE 0 END)`
}
