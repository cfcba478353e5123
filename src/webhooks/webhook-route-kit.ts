/**
 * What the webhook routes share: their OpenAPI tag and error answers, who may call them (every
 * operation is administrative; docs/members.md, Who may do what), the service dependencies, the
 * webhook lookup that answers 404, and waking the dispatchers of every process after a delivery is
 * queued by hand.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { requireScopes } from '../http/auth.ts'
import { adminOnly } from '../http/roles.ts'
import { problemSchema } from '../http/schemas.ts'
import { recordAccess } from '../records/index.ts'
import type { AuthContext } from '../shared/auth-context.ts'
import { NotFound } from '../shared/errors.ts'
import type { SecretBox } from '../shared/secret-box.ts'
import { DELIVERIES_CHANNEL } from './outbox.ts'
import { findWebhook, type WebhookView } from './webhook.repository.ts'
import type { WebhookDeps } from './webhook.service.ts'

export const tags = ['Webhooks']
export const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema }

export const read = [requireScopes('crm:read'), adminOnly]
export const manage = [requireScopes('crm:write'), adminOnly]
/** Register or re-point: the endpoint will receive records, so the caller must be able to read them. */
export const point = [requireScopes('crm:write', 'crm:read'), adminOnly]

/** Deliveries with their payloads as this caller may see them. */
export function shownDeliveries<T extends { payload: unknown }>(auth: AuthContext, deliveries: T[]): T[] {
  return deliveries.map((d) => ({ ...d, payload: recordAccess.eventForCaller(auth, d.payload as { type?: unknown }) }))
}

export interface WebhookRouteKit {
  deps: WebhookDeps
  /** The caller's organization's webhook, or 404. */
  existing(request: FastifyRequest, id: string): Promise<WebhookView>
  /** NOTIFY: every process's dispatcher looks for due deliveries now. */
  wakeDispatchers(): Promise<unknown>
}

export function webhookRouteKit(app: FastifyInstance, box: SecretBox): WebhookRouteKit {
  return {
    deps: { db: app.db, config: app.config, box },
    async existing(request, id) {
      const webhook = await findWebhook(app.db, request.auth!.orgId, id)
      if (!webhook) throw new NotFound('Webhook')
      return webhook
    },
    wakeDispatchers: () => sql`SELECT pg_notify(${DELIVERIES_CHANNEL}, '')`.execute(app.db),
  }
}
