/**
 * What search matches on and shows, per kind and per caller: the kind's `search` fields as match
 * columns, its title and a short subtitle (email, domain, case number...). Derived from the kind
 * definitions through the scope rule (record-access.ts): a kind the caller may not read is not
 * searched at all, and a field hidden from the caller (ERP) is neither matched nor shown, so a
 * search can never tell a value the caller could not read.
 */
import type { AuthContext } from '../../shared/auth-context.ts'
import type { KindName, RecordKind, SearchMode } from '../record-kind.ts'
import { kindsByName } from '../kinds/index.ts'
import { hiddenFields, mayRead } from '../record-access.ts'

type Caller = Pick<AuthContext, 'scopes'>

/**
 * The kinds search covers, in the order results of equal score are grouped. Case comments are
 * found through their case: a comment has no page of its own and its body is long text
 * (migration 0015 indexes no comment column).
 */
export const SEARCH_KINDS = ['account', 'contact', 'lead', 'opportunity', 'product', 'case', 'activity'] as const satisfies readonly KindName[]
export type SearchKindName = (typeof SEARCH_KINDS)[number]

/** Fields a result's subtitle shows after its title, when set. */
const SUBTITLE_FIELDS: Record<SearchKindName, readonly string[]> = {
  account: ['domain'],
  contact: ['email'],
  lead: ['company', 'email'],
  opportunity: ['stage'],
  product: ['code'],
  case: ['case_number'],
  activity: ['kind'],
}

export interface SearchPlan {
  kind: RecordKind
  /** Text columns matched, each the way its field says (migrations 0015 and 0022 index each way). */
  columns: { name: string; mode: SearchMode }[]
  /** Case numbers are matched exactly when the query is a number. */
  matchesCaseNumber: boolean
  /** SQL of the title and subtitle, on alias `r`. */
  titleSql: string
  subtitleSql: string
}

function subtitlePartSql(kind: RecordKind, name: string): string {
  const field = kind.fields.find((f) => f.name === name)!
  if (field.type === 'integer') return `'#' || r.${name}`
  // Enumerations read as words: `closed_won` -> `Closed won`.
  if (field.type === 'enum') return `upper(left(r.${name}, 1)) || replace(substr(r.${name}, 2), '_', ' ')`
  return `r.${name}`
}

/**
 * The kinds this caller may search (all of `wanted` it may read), each with what it may match.
 * `kinds` is the kind definitions (tests pass variants).
 */
export function searchPlans(caller: Caller, wanted: readonly SearchKindName[], kinds: Pick<Record<KindName, RecordKind>, SearchKindName> = kindsByName): SearchPlan[] {
  const plans: SearchPlan[] = []
  for (const name of SEARCH_KINDS) {
    const kind = kinds[name]
    if (!wanted.includes(name) || !mayRead(kind, caller)) continue
    const hidden = hiddenFields(kind, caller)
    const shown = (field: string) => !hidden.includes(field)
    const columns = kind.fields.flatMap((f) => (f.search && shown(f.name) ? [{ name: f.name, mode: f.search }] : []))
    const matchesCaseNumber = name === 'case' && shown('case_number')
    if (columns.length === 0 && !matchesCaseNumber) continue
    const title = kind.titleFields.filter(shown).map((f) => `r.${f}`)
    const subtitle = SUBTITLE_FIELDS[name].filter(shown).map((f) => subtitlePartSql(kind, f))
    plans.push({
      kind,
      columns,
      matchesCaseNumber,
      titleSql: title.length ? `concat_ws(' ', ${title.join(', ')})` : `''`,
      subtitleSql: subtitle.length ? `NULLIF(concat_ws(' · ', ${subtitle.join(', ')}), '')` : 'NULL',
    })
  }
  return plans
}
