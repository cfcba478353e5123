/**
 * Registering and changing webhooks: the checks of a destination (URL rules, SSRF guard), event
 * names against the catalogue, secrets, and the per-organization limit.
 */
import crypto from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Config } from '../config.ts'
import type { DB } from '../db/database.ts'
import type { AuthContext } from '../shared/auth-context.ts'
import { NotFound, ProblemError, ValidationFailed } from '../shared/errors.ts'
import { writeTransaction } from '../db/write-transaction.ts'
import { uuidv7 } from '../shared/ids.ts'
import { checkOutboundUrl, OutboundRefused, resolveChecked } from '../shared/outbound/guarded-request.ts'
import type { SecretBox } from '../shared/secret-box.ts'
import { EVENT_NAMES } from '../events/index.ts'
import { checkFilter } from './filter/filter-grammar.ts'
import { countWebhooksLocked, findWebhook, insertWebhook, receivesAmounts, updateWebhook, type WebhookChanges, type WebhookOrdering, type WebhookPayload, type WebhookView } from './webhook.repository.ts'

export const MAX_WEBHOOKS_PER_ORG = 50

export class WebhookLimitReached extends ProblemError {
  constructor() {
    super(409, 'webhook_limit_reached', 'Webhook limit reached', `An organization can register at most ${MAX_WEBHOOKS_PER_ORG} webhooks. Delete one you no longer use first.`)
  }
}

export interface WebhookInput {
  url?: string
  events?: string[]
  description?: string | null
  secret?: string | null
  generate_secret?: boolean
  status?: 'active' | 'disabled'
  filter?: unknown
  ordering?: WebhookOrdering
  payload?: WebhookPayload
}

export interface WebhookDeps {
  db: Kysely<DB>
  config: Config
  box: SecretBox
}

/** Absolute http(s), no userinfo or fragment, https unless allowed, and a public address (unless allowed). */
export async function checkDestination(url: string, config: Config): Promise<string> {
  try {
    const parsed = checkOutboundUrl(url, { allowHttp: config.webhookAllowHttp })
    await resolveChecked(parsed.hostname, config.allowPrivateOutbound)
    return parsed.href
  } catch (err) {
    if (!(err instanceof OutboundRefused)) throw err
    throw new ValidationFailed(`url ${err.reason}.`, [{ field: 'url', message: err.reason }])
  }
}

export function checkEvents(events: string[]): string[] {
  const unknown = events.filter((e) => !EVENT_NAMES.includes(e))
  if (unknown.length > 0) {
    throw new ValidationFailed(`Unknown event name${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Valid names: ${EVENT_NAMES.join(', ')}.`, [
      { field: 'events', message: `unknown: ${unknown.join(', ')}; valid: ${EVENT_NAMES.join(', ')}` },
    ])
  }
  return [...new Set(events)]
}

/**
 * A Standard Webhooks secret (`whsec_` + base64 of 24-64 bytes) or a plain one of at least 16
 * characters, whose UTF-8 bytes are the key (docs/decisions.md, Webhooks).
 */
export function checkSecret(secret: string): string {
  if (secret.startsWith('whsec_')) {
    const key = Buffer.from(secret.slice(6), 'base64')
    if (key.length < 24 || key.length > 64 || key.toString('base64').replace(/=+$/, '') !== secret.slice(6).replace(/=+$/, '')) {
      throw new ValidationFailed('A secret starting with whsec_ must be followed by the base64 of 24 to 64 random bytes.', [{ field: 'secret', message: 'whsec_ secrets carry base64 of 24-64 bytes' }])
    }
    return secret
  }
  if (secret.length < 16) throw new ValidationFailed('secret must be at least 16 characters long.', [{ field: 'secret', message: 'must be at least 16 characters' }])
  return secret
}

export function generateSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString('base64')}`
}

/** Resolves the secret of a request: given, generated, cleared (null) or untouched (undefined). */
function secretOf(input: WebhookInput): string | null | undefined {
  if (input.generate_secret) {
    if (input.secret) throw new ValidationFailed('Send either secret or generate_secret, not both.', [{ field: 'secret', message: 'conflicts with generate_secret' }])
    return generateSecret()
  }
  if (input.secret === null) return null
  return input.secret === undefined ? undefined : checkSecret(input.secret)
}

/** The new webhook, and its secret when one was generated (shown this once). */
export async function createWebhook(deps: WebhookDeps, auth: AuthContext, input: Required<Pick<WebhookInput, 'url' | 'events'>> & WebhookInput): Promise<{ webhook: WebhookView; secret: string | null }> {
  const url = await checkDestination(input.url, deps.config)
  const events = checkEvents(input.events)
  const includeAmounts = auth.scopes.has('erp:read')
  const filter = checkFilter(input.filter, events, includeAmounts)
  // The id and a generated secret are part of the outcome: a keyed retry after a crash gets these, not new ones.
  const created = await writeTransaction(deps.db, auth.receipt, async (trx) => {
    const secret = secretOf(input) ?? null
    const id = uuidv7()
    if ((await countWebhooksLocked(trx, auth.orgId)) >= MAX_WEBHOOKS_PER_ORG) throw new WebhookLimitReached()
    await insertWebhook(trx, auth.orgId, {
      id,
      url,
      events,
      description: input.description ?? null,
      secretSealed: secret ? deps.box.seal(secret) : null,
      includeAmounts,
      filter,
      ordering: input.ordering ?? 'none',
      payload: input.payload ?? 'full',
      createdBy: auth.userId,
      at: new Date(),
    })
    return { id, secret: input.generate_secret ? secret : null }
  })
  const webhook = (await findWebhook(deps.db, auth.orgId, created.id))!
  return { webhook, secret: created.secret }
}

export async function changeWebhook(deps: WebhookDeps, auth: AuthContext, id: string, input: WebhookInput): Promise<{ webhook: WebhookView; secret: string | null }> {
  const current = await findWebhook(deps.db, auth.orgId, id)
  if (!current) throw new NotFound('Webhook')
  const changes: WebhookChanges = { description: input.description, status: input.status, ordering: input.ordering, payload: input.payload, disabledReason: input.status === 'disabled' ? 'Disabled by a user.' : undefined }
  if (input.url !== undefined) changes.url = await checkDestination(input.url, deps.config)
  if (input.events !== undefined) changes.events = checkEvents(input.events)
  const secret = secretOf(input)
  if (secret !== undefined) changes.secretSealed = secret === null ? null : deps.box.seal(secret)
  // Whoever points the endpoint somewhere new decides again whether it may receive amounts.
  if (changes.url !== undefined || changes.events !== undefined) changes.includeAmounts = auth.scopes.has('erp:read')
  // The filter must fit what the endpoint will receive: checked again when its events or its right
  // to amounts change, not only when the filter itself does. Naming amounts needs erp:read of the
  // caller too: which deliveries a filter lets through tells something about them.
  if (input.filter !== undefined || changes.includeAmounts !== undefined) {
    const amounts = auth.scopes.has('erp:read') && (changes.includeAmounts ?? (await receivesAmounts(deps.db, auth.orgId, id)))
    const filter = checkFilter(input.filter === undefined ? current.filter : input.filter, changes.events ?? current.events, amounts)
    if (input.filter !== undefined) changes.filter = filter
  }
  const changed = await writeTransaction(deps.db, auth.receipt, async (trx) => ({
    found: Boolean(await updateWebhook(trx, auth.orgId, id, changes, new Date())),
    secret: input.generate_secret ? (secret ?? null) : null,
  }))
  if (!changed.found) throw new NotFound('Webhook')
  return { webhook: (await findWebhook(deps.db, auth.orgId, id))!, secret: changed.secret }
}
