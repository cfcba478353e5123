// Plain-language text of the webhook settings: entity and event labels, status colours.
import { EVENT_CATALOGUE, type EventEntity } from '../../../../src/web-contracts.ts'
import type { Delivery } from '../../api/webhooks.ts'

export const ENTITY_LABELS: Record<EventEntity, string> = {
  account: 'Accounts',
  contact: 'Contacts',
  lead: 'Leads',
  opportunity: 'Opportunities',
  case: 'Cases',
}

const ACTION_LABELS: Record<string, string> = {
  created: 'Created',
  updated: 'Updated',
  deleted: 'Deleted',
  converted: 'Converted',
  stage_changed: 'Stage changed',
  escalated: 'Escalated',
}

export const ENTITIES = Object.keys(EVENT_CATALOGUE) as EventEntity[]

export function eventsOf(entity: EventEntity): string[] {
  return EVENT_CATALOGUE[entity].map((a) => `${entity}.${a}`)
}

export function actionLabel(event: string): string {
  return ACTION_LABELS[event.split('.')[1]] ?? event
}

export const DELIVERY_STATUS: Record<Delivery['status'], { label: string; color: string }> = {
  succeeded: { label: 'Delivered', color: 'teal' },
  pending: { label: 'Retrying', color: 'yellow' },
  failed: { label: 'Failed', color: 'red' },
  filtered: { label: 'Filtered', color: 'gray' },
}

type FilterNode = Record<string, unknown>
const COMPARISON_TEXT: Record<string, string> = { eq: 'is', ne: 'is not', in: 'is one of', gt: '>', gte: '≥', lt: '<', lte: '≤' }

/** A filter in words: "stage is one of closed_won, closed_lost and stage changed". */
export function describeFilter(filter: FilterNode): string {
  const part = (f: FilterNode, nested: boolean): string => {
    const group = (items: FilterNode[], joiner: string) => {
      const text = items.map((x) => part(x, true)).join(joiner)
      return nested && items.length > 1 ? `(${text})` : text
    }
    if (Array.isArray(f.all)) return group(f.all as FilterNode[], ' and ')
    if (Array.isArray(f.any)) return group(f.any as FilterNode[], ' or ')
    if (f.not && typeof f.not === 'object') return `not ${part(f.not as FilterNode, true)}`
    if (typeof f.changed === 'string') return `${f.changed} changed`
    const op = Object.keys(f).find((k) => k !== 'field') ?? 'eq'
    const value = f[op]
    const shown = Array.isArray(value) ? value.map(String).join(', ') : value === null ? 'empty' : String(value)
    return `${String(f.field)} ${COMPARISON_TEXT[op] ?? op} ${shown}`
  }
  return part(filter, false)
}

/** How a compact list shows a subscription: "All 18 events", or the entities it covers. */
export function eventsSummary(events: string[]): string {
  const total = ENTITIES.reduce((n, e) => n + eventsOf(e).length, 0)
  if (events.length === total) return `All ${total} events`
  const entities = ENTITIES.filter((e) => eventsOf(e).some((name) => events.includes(name))).map((e) => ENTITY_LABELS[e].toLowerCase())
  return `${events.length} event${events.length === 1 ? '' : 's'} · ${entities.join(', ')}`
}
