/**
 * The webhook API (docs/webhooks.md): register, list, read, change, delete; the delivery log;
 * retrying a delivery by hand; sending a test event; replays. Every operation is administrative
 * (docs/members.md, Who may do what): a webhook sends the organization's records to a system of the
 * administrators' choosing, and its log shows what those systems answered, so members' sessions
 * and tokens alike get 403 admin_required. Reading needs crm:read, managing crm:write. A webhook is
 * a standing read of records, so pointing one somewhere (register, change) needs crm:read too, and
 * every stored payload is shown as the caller's scopes may see it (eventForCaller).
 *
 * One file per resource, registered here in this order (the order of the OpenAPI document):
 * webhook-crud.routes.ts (the endpoints), webhook-deliveries.routes.ts (the delivery log, retries,
 * test events), webhook-replay.routes.ts (replays); webhook-route-kit.ts holds what they share.
 */
import type { FastifyInstance } from 'fastify'
import type { SecretBox } from '../shared/secret-box.ts'
import { webhookCrudRoutes } from './webhook-crud.routes.ts'
import { webhookDeliveryRoutes } from './webhook-deliveries.routes.ts'
import { webhookReplayRoutes } from './webhook-replay.routes.ts'
import { webhookRouteKit } from './webhook-route-kit.ts'

export async function webhookRoutes(fastify: FastifyInstance, opts: { box: SecretBox }): Promise<void> {
  const kit = webhookRouteKit(fastify, opts.box)
  webhookCrudRoutes(fastify, kit)
  webhookDeliveryRoutes(fastify, kit)
  webhookReplayRoutes(fastify)
}
