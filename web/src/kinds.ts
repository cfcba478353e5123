// UI metadata derived from the backend's record kind definitions: which kinds appear in the app,
// their icons and list columns, record titles, and how field values read as text.
import type { ComponentType } from 'react'
import {
  IconBuilding,
  IconUser,
  IconUserSearch,
  IconTargetArrow,
  IconPackage,
  IconLifebuoy,
  IconCalendarEvent,
  type IconProps,
} from '@tabler/icons-react'
import { kindsByName, type FieldDef, type KindName, type RecordKind } from '../../src/web-contracts.ts'

export type { FieldDef, KindName, RecordKind }

/** A record as the API returns it: the kind's fields plus the common ones. */
export interface CrmRecord {
  id: string
  src_id: string | null
  custom_fields: Record<string, unknown> | null
  created_at: string
  updated_at: string
  [field: string]: unknown
}

interface KindUi {
  kind: RecordKind
  icon: ComponentType<IconProps>
  /** Fields shown as table columns after the title. */
  columns: string[]
}

const ui = (name: KindName, icon: ComponentType<IconProps>, columns: string[]): KindUi => ({ kind: kindsByName[name], icon, columns })

/** The kinds in navigation order (case comments live inside their case). */
export const appKinds: readonly KindUi[] = [
  ui('account', IconBuilding, ['industry', 'type', 'phone', 'billing_city', 'owner_id']),
  ui('contact', IconUser, ['email', 'title', 'account_id', 'phone', 'owner_id']),
  ui('lead', IconUserSearch, ['company', 'status', 'email', 'source', 'owner_id']),
  ui('opportunity', IconTargetArrow, ['account_id', 'stage', 'amount', 'close_date', 'owner_id']),
  ui('product', IconPackage, ['code', 'family', 'unit_price', 'is_active']),
  ui('case', IconLifebuoy, ['case_number', 'status', 'priority', 'account_id', 'owner_id']),
  ui('activity', IconCalendarEvent, ['kind', 'status', 'priority', 'due_date', 'owner_id']),
]

export function kindUiByPath(path: string | undefined): KindUi | undefined {
  return appKinds.find((k) => k.kind.path === path)
}

export function kindUiByName(name: KindName): KindUi | undefined {
  return appKinds.find((k) => k.kind.name === name)
}

export function fieldOf(kind: RecordKind, name: string): FieldDef | undefined {
  return kind.fields.find((f) => f.name === name)
}

export function recordTitle(kind: RecordKind, record: Record<string, unknown> | undefined): string {
  if (!record) return ''
  const parts = kind.titleFields.map((f) => record[f]).filter((v) => v !== null && v !== undefined && v !== '')
  const title = parts.map(String).join(' ').trim()
  if (kind.name === 'case' && record.case_number != null) return `#${record.case_number} ${title}`.trim()
  return title || `Untitled ${kind.label.toLowerCase()}`
}

/** "closed_won" -> "Closed won". */
export function humanize(value: string): string {
  const s = value.replace(/_/g, ' ')
  return s.charAt(0).toUpperCase() + s.slice(1)
}

/** Lower-case singular label for buttons and messages: "New opportunity". */
export function lowerLabel(kind: RecordKind): string {
  return kind.label.toLowerCase()
}

export function writableFields(kind: RecordKind): FieldDef[] {
  return kind.fields.filter((f) => !f.readOnly)
}

/** Filter controls on the list page: enum and boolean fields marked `filter`. */
export function listFilterFields(kind: RecordKind): FieldDef[] {
  return kind.fields.filter((f) => f.filter && (f.type === 'enum' || f.type === 'boolean'))
}

const BADGE_COLORS: Record<string, string> = {
  new: 'blue',
  working: 'cyan',
  open: 'blue',
  in_progress: 'cyan',
  nurturing: 'grape',
  qualified: 'teal',
  unqualified: 'gray',
  converted: 'green',
  escalated: 'red',
  on_hold: 'yellow',
  closed: 'gray',
  completed: 'green',
  cancelled: 'gray',
  low: 'gray',
  normal: 'blue',
  medium: 'blue',
  high: 'orange',
  critical: 'red',
  prospecting: 'gray',
  qualification: 'blue',
  needs_analysis: 'cyan',
  proposal: 'violet',
  negotiation: 'orange',
  closed_won: 'green',
  closed_lost: 'red',
}

export function badgeColor(value: string): string {
  return BADGE_COLORS[value] ?? 'gray'
}

/** Fields that earn a badge in a record's header. */
export const BADGE_FIELDS = ['status', 'stage', 'priority', 'kind']

export function formatDate(value: string): string {
  const [y, m, d] = value.split('-').map(Number)
  if (!y || !m || !d) return value
  return new Date(y, m - 1, d).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })
}

export function formatDateTime(value: string): string {
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return value
  return date.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' })
}

export function formatDecimal(value: string, currency?: unknown): string {
  const n = Number(value)
  if (!Number.isFinite(n)) return value
  if (typeof currency === 'string' && /^[A-Z]{3}$/.test(currency)) {
    try {
      return n.toLocaleString(undefined, { style: 'currency', currency })
    } catch {
      // unknown currency code: fall through
    }
  }
  return n.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 })
}
