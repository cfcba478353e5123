// Plain-language text of the webhook settings: entity and event labels, status colours.
import { EVENT_CATALOGUE, type EventEntity } from '../../../../src/webhooks/event-catalogue.ts'
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
}

/** How a compact list shows a subscription: "All 18 events", or the entities it covers. */
export function eventsSummary(events: string[]): string {
  const total = ENTITIES.reduce((n, e) => n + eventsOf(e).length, 0)
  if (events.length === total) return `All ${total} events`
  const entities = ENTITIES.filter((e) => eventsOf(e).some((name) => events.includes(name))).map((e) => ENTITY_LABELS[e].toLowerCase())
  return `${events.length} event${events.length === 1 ? '' : 's'} · ${entities.join(', ')}`
}
