/**
 * The event names of the spec (service-spec.md, Events), with no imports so the web app can share
 * them with the server.
 */
export const EVENT_CATALOGUE = {
  account: ['created', 'updated', 'deleted'],
  contact: ['created', 'updated', 'deleted'],
  lead: ['created', 'updated', 'deleted', 'converted'],
  opportunity: ['created', 'updated', 'deleted', 'stage_changed'],
  case: ['created', 'updated', 'deleted', 'escalated'],
} as const satisfies Record<string, readonly string[]>

export type EventEntity = keyof typeof EVENT_CATALOGUE
export const EVENT_NAMES: readonly string[] = Object.entries(EVENT_CATALOGUE).flatMap(([entity, actions]) => actions.map((a) => `${entity}.${a}`))
/** Sent by "Send test event"; not subscribable. */
export const TEST_EVENT = 'webhook.test'
