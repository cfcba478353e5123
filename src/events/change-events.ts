/**
 * How a record change becomes events: the names of the catalogue (event-catalogue.ts), the
 * conditions of the special ones (docs/decisions.md, Webhooks), and the body every reader gets
 * (journal, feed, webhook deliveries): the envelope with who made the change (`actor`) and the
 * operation it was part of (`operation_id`).
 */
import { recordAccess, recordChanges } from '../records/index.ts'
import type { Actor, RecordAction, RecordChange } from '../records/index.ts'
import { EVENT_CATALOGUE, TEST_EVENT, type EventEntity } from './event-catalogue.ts'


export function isEntity(kind: string): kind is EventEntity {
  return kind in EVENT_CATALOGUE
}

/** Who made a change, as event bodies show it. */
export interface EventActor {
  user_id: string | null
  client_id: string | null
  channel: Actor['channel']
}

export interface EventEnvelope {
  id: string
  type: string
  timestamp: string
  organization_id: string
  /** Absent on test events, which no one made. */
  actor?: EventActor
  operation_id?: string
  data: { object: Record<string, unknown>; previous?: Record<string, unknown>; conversion?: Record<string, unknown> }
}

/** The author of events: the actor and operation of the writer, as bodies carry them. */
export interface EventAuthor {
  actor: EventActor
  operationId: string
}

export function authorOf(writer: { actor: Actor; operationId: string }): EventAuthor {
  return { actor: { user_id: writer.actor.userId, client_id: writer.actor.clientId, channel: writer.actor.channel }, operationId: writer.operationId }
}

/** `more`: what an action's event carries beside the record (a conversion's outcome, RecordChange.detail). */
function envelope(id: string, type: string, at: Date, orgId: string, object: Record<string, unknown>, previous: Record<string, unknown> | undefined, author?: EventAuthor, more?: Record<string, unknown>): EventEnvelope {
  const data = { ...(previous ? { object, previous } : { object }), ...more }
  if (!author) return { id, type, timestamp: at.toISOString(), organization_id: orgId, data }
  return { id, type, timestamp: at.toISOString(), organization_id: orgId, actor: author.actor, operation_id: author.operationId, data }
}

/**
 * The events one change produces. A stage change is both `opportunity.updated` and
 * `opportunity.stage_changed` (docs/decisions.md); `previous` carries the old values of what changed.
 */
export function eventsForChange(action: RecordAction, change: RecordChange): Array<{ type: string; object: Record<string, unknown>; previous?: Record<string, unknown>; more?: Record<string, unknown> }> {
  const entity = change.kind.name
  if (!isEntity(entity)) return []
  const object = (change.after ?? change.before)!
  switch (action) {
    case 'created':
    // A record restored with its id is, to subscribers, created again (service-spec's catalogue has no restore).
    case 'restored':
      return [{ type: `${entity}.created`, object }]
    case 'deleted':
      return [{ type: `${entity}.deleted`, object }]
    case 'updated': {
      const previous = recordChanges.changedFields(change)
      const events: Array<{ type: string; object: Record<string, unknown>; previous?: Record<string, unknown> }> = [{ type: `${entity}.updated`, object, previous }]
      if (entity === 'opportunity' && 'stage' in previous) events.push({ type: 'opportunity.stage_changed', object, previous })
      return events
    }
    case 'converted':
      return entity === 'lead' ? [{ type: 'lead.converted', object, previous: recordChanges.changedFields(change), more: change.detail }] : []
    case 'escalated':
      return entity === 'case' ? [{ type: 'case.escalated', object, previous: recordChanges.changedFields(change) }] : []
  }
}

/**
 * The JSON bodies of one event: as is, and as a registrant without erp:read may see it (amounts
 * hidden, record-access.ts); endpoints get the one their registrant's scopes allow.
 */
export function eventBodies(event: EventEnvelope): { body: string; redactedBody: string } {
  const body = JSON.stringify(event)
  const hidden = recordAccess.eventForCaller(WITHOUT_ERP, event)
  return { body, redactedBody: hidden === event ? body : JSON.stringify(hidden) }
}

/**
 * The bodies of a created record's event spliced from the record's JSON text as the database wrote
 * it (RecordChange.afterText, as lists serve it), instead of parsing it and serialising the
 * envelope again: the same JSON, keys in envelope order. Null when the change has no text, its kind
 * is not an event entity, or a registrant without erp:read would see less of it (then eventBodies).
 */
export function createdEventBodies(id: string, at: Date, orgId: string, change: RecordChange, author: EventAuthor): { type: string; body: string; redactedBody: string } | null {
  const entity = change.kind.name
  if (change.afterText === undefined || !isEntity(entity) || !recordAccess.mayRead(change.kind, WITHOUT_ERP) || recordAccess.hiddenFields(change.kind, WITHOUT_ERP).length > 0) return null
  const type = `${entity}.created`
  const by = `"actor":${JSON.stringify(author.actor)},"operation_id":${JSON.stringify(author.operationId)}`
  const body = `{"id":${JSON.stringify(id)},"type":"${type}","timestamp":"${at.toISOString()}","organization_id":${JSON.stringify(orgId)},${by},"data":{"object":${change.afterText}}}`
  return { type, body, redactedBody: body }
}

/** Webhooks need crm:read to be registered and read; what they lack is at most erp:read. */
const WITHOUT_ERP = { scopes: new Set(['crm:read', 'crm:write'] as const) }

export function testEventEnvelope(id: string, at: Date, orgId: string, webhookId: string): EventEnvelope {
  return envelope(id, TEST_EVENT, at, orgId, { webhook_id: webhookId, message: 'This is a test event sent from Cairn.' }, undefined)
}

export { envelope }
