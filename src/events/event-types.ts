/**
 * The event catalogue as integrators read it (GET /event-types): every subscribable type with its
 * version and a JSON Schema of its payload, built from the record kinds' own schemas so the
 * catalogue cannot drift from what is sent.
 */
import { recordSchemas } from '../records/index.ts'
import { kindsByName, type RecordKind } from '../records/contracts.ts'
import { EVENT_CATALOGUE, type EventEntity } from './event-catalogue.ts'
import { eventAuthorProperties } from './event.schemas.ts'

/**
 * Raised only by a breaking change of a type's payload (a field removed or retyped); new fields
 * are added without a new version, so receivers must ignore fields they do not know.
 */
export const PAYLOAD_VERSION = 1

const ACTIONS: Record<string, { summary: (label: string) => string; previous: 'changed' | 'none' }> = {
  created: { summary: (l) => `A ${l} was created (also by a lead conversion or an import).`, previous: 'none' },
  updated: { summary: (l) => `A ${l} was changed; \`previous\` holds the old values of the fields that changed.`, previous: 'changed' },
  deleted: { summary: (l) => `A ${l} was deleted; \`object\` is the record as it was.`, previous: 'none' },
  stage_changed: { summary: () => 'An opportunity moved to another stage (sent with opportunity.updated); `previous.stage` is the old stage.', previous: 'changed' },
  converted: { summary: () => 'A lead was converted; `previous` holds the lead fields the conversion changed, `conversion` the account, contact and opportunity it was converted into and whether each was created or existed.', previous: 'changed' },
  escalated: { summary: () => 'A case was escalated; `previous` holds the case fields the escalation changed.', previous: 'changed' },
}

export interface EventTypeEntry {
  type: string
  kind: string
  version: number
  description: string
  schema: Record<string, unknown>
}

function payloadSchema(type: string, kind: RecordKind, previous: 'changed' | 'none'): Record<string, unknown> {
  const { title: _title, ...record } = recordSchemas.recordSchema(kind) as { title: string; properties: Record<string, unknown> }
  const data: Record<string, unknown> = {
    type: 'object',
    properties: {
      object: record,
      ...(previous === 'changed' ? { previous: { type: 'object', properties: record.properties, additionalProperties: false, description: 'Old values of the fields that changed.' } } : {}),
    },
    required: previous === 'changed' ? ['object', 'previous'] : ['object'],
  }
  if (type === 'lead.converted') {
    ;(data.properties as Record<string, unknown>).conversion = recordSchemas.leadConversionSchema
    data.required = ['object', 'previous', 'conversion']
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: type,
    type: 'object',
    properties: {
      id: { type: 'string', format: 'uuid', description: 'The event id; the webhook-id header of its deliveries.' },
      seq: { type: 'integer', description: 'Position in the organization\'s journal (the change feed and replays; thin webhooks).' },
      type: { const: type },
      timestamp: { type: 'string', format: 'date-time' },
      organization_id: { type: 'string', format: 'uuid' },
      ...eventAuthorProperties,
      data,
    },
    required: ['id', 'type', 'timestamp', 'organization_id', 'data'],
  }
}

/** Every subscribable event type, in catalogue order. */
export function eventTypes(): EventTypeEntry[] {
  return Object.entries(EVENT_CATALOGUE).flatMap(([entity, actions]) => {
    const kind = kindsByName[entity as EventEntity]
    return actions.map((action: string) => {
      const type = `${entity}.${action}`
      return { type, kind: kind.path, version: PAYLOAD_VERSION, description: ACTIONS[action].summary(kind.label.toLowerCase()), schema: payloadSchema(type, kind, ACTIONS[action].previous) }
    })
  })
}
