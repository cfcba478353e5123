/**
 * Roles apply to tokens as they do to sessions (docs/members.md, Who may do what): every
 * administrative operation refuses a member's session and a member's OAuth token (all scopes) with
 * the same 403 admin_required and changes nothing; an administrator's token may do them, except
 * those done in the app only; a token acts with its person's role of now (demotion and promotion
 * take effect on its next request); and the operations left open to members stay open to both.
 * The table below is held against the OpenAPI document, which marks every route guarded by
 * `adminOnly` (src/http/roles.openapi.ts), so a new administrative route cannot go untested.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import Fastify, { type FastifyInstance, type InjectOptions, type LightMyRequestResponse } from 'fastify'
import { createTestDatabase, targets, type TestDatabase } from '../helpers/databases.ts'
import { addMember, buildTestApp, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { api, confidentialClient, obtainTokens, type TestClient } from '../oauth/helpers.ts'
import { start } from '../source-sim/helpers.ts'
import { analyze, everything, simSettings, sourceTokens } from '../migration/helpers.ts'
import { multipart } from '../imports/helpers.ts'
import { startReceiver, type Receiver } from '../webhooks/receiver.ts'
import { HTTP_METHODS } from '../../src/http/openapi-operations.ts'
import { adminOnly } from '../../src/http/roles.ts'
import { markRolesInDocument } from '../../src/http/roles.openapi.ts'

const ALL_SCOPES = 'crm:read crm:write erp:read'

/** What the operations act on: real rows of the organization, so a refusal can be seen to change nothing. */
interface Fixtures {
  adminId: string
  memberId: string
  webhookId: string
  deliveryId: string
  fieldId: string
  migrationId: string
  migrationConfig: unknown
  sourceTokens: unknown
  clientId: string
  invitationId: string
  receiverUrl: string
  since: string
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

interface AdminOperation {
  method: Method
  /** The path as the OpenAPI document names it. */
  path: string
  /** Done in the app only: an administrator's token gets 403 session_required. */
  sessionOnly?: true
  /** The values of the path's parameters. */
  params?(f: Fixtures): Record<string, string>
  /** What a member would send to make the operation do its worst (pointing a webhook elsewhere, promoting themselves). */
  payload?(f: Fixtures): object
}

// One row per administrative operation, as docs/members.md lists them.
const ADMIN_OPERATIONS: AdminOperation[] = [
  { method: 'POST', path: '/api/v1/webhooks', payload: (f) => ({ url: `${f.receiverUrl}/member`, events: ['account.created'] }) },
  { method: 'GET', path: '/api/v1/webhooks' },
  { method: 'GET', path: '/api/v1/webhooks/{id}', params: (f) => ({ id: f.webhookId }) },
  { method: 'PATCH', path: '/api/v1/webhooks/{id}', params: (f) => ({ id: f.webhookId }), payload: (f) => ({ url: `${f.receiverUrl}/elsewhere` }) },
  { method: 'GET', path: '/api/v1/webhooks/{id}/deliveries', params: (f) => ({ id: f.webhookId }) },
  { method: 'POST', path: '/api/v1/webhooks/{id}/deliveries/{delivery_id}/retry', params: (f) => ({ id: f.webhookId, delivery_id: f.deliveryId }) },
  { method: 'POST', path: '/api/v1/webhooks/{id}/test', params: (f) => ({ id: f.webhookId }) },
  { method: 'POST', path: '/api/v1/webhooks/{id}/replay', params: (f) => ({ id: f.webhookId }), payload: (f) => ({ since: f.since }) },
  // Last of the webhook's: were it let through, the rows above would still each have a webhook to act on.
  { method: 'DELETE', path: '/api/v1/webhooks/{id}', params: (f) => ({ id: f.webhookId }) },
  { method: 'POST', path: '/api/v1/custom-fields', payload: () => ({ kind: 'contact', name: 'by_member', label: 'By member', type: 'text' }) },
  { method: 'PATCH', path: '/api/v1/custom-fields/{id}', params: (f) => ({ id: f.fieldId }), payload: () => ({ label: 'Renamed by a member' }) },
  { method: 'DELETE', path: '/api/v1/custom-fields/{id}', params: (f) => ({ id: f.fieldId }) },
  { method: 'PUT', path: '/api/v1/picklists/{kind}/{field}', params: () => ({ kind: 'account', field: 'industry' }), payload: () => ({ options: ['Chosen by a member'] }) },
  { method: 'DELETE', path: '/api/v1/picklists/{kind}/{field}', params: () => ({ kind: 'account', field: 'industry' }) },
  { method: 'POST', path: '/api/v1/migration/analyze', payload: (f) => f.sourceTokens as object },
  { method: 'POST', path: '/api/v1/migration/connect', payload: () => ({ environment: 'production' }) },
  { method: 'GET', path: '/api/v1/migrations' },
  { method: 'GET', path: '/api/v1/migration/{id}', params: (f) => ({ id: f.migrationId }) },
  { method: 'GET', path: '/api/v1/migration/{id}/report', params: (f) => ({ id: f.migrationId }) },
  { method: 'PUT', path: '/api/v1/migration/{id}/config', params: (f) => ({ id: f.migrationId }), payload: (f) => f.migrationConfig as object },
  { method: 'POST', path: '/api/v1/migration/run', payload: (f) => ({ migration_id: f.migrationId }) },
  { method: 'POST', path: '/api/v1/migration/{id}/cancel', params: (f) => ({ id: f.migrationId }) },
  { method: 'GET', path: '/api/v1/migration/{id}/issues', params: (f) => ({ id: f.migrationId }) },
  { method: 'GET', path: '/api/v1/migration/{id}/issues.csv', params: (f) => ({ id: f.migrationId }) },
  { method: 'GET', path: '/api/v1/migration/{id}/events', params: (f) => ({ id: f.migrationId }) },
  { method: 'GET', path: '/api/v1/settings/api-clients', sessionOnly: true },
  { method: 'POST', path: '/api/v1/settings/api-clients', sessionOnly: true, payload: () => ({ name: 'Minted by a member', redirect_uris: ['https://member.example.test/cb'], scopes: ['crm:read', 'crm:write'] }) },
  { method: 'DELETE', path: '/api/v1/settings/api-clients/{client_id}', sessionOnly: true, params: (f) => ({ client_id: f.clientId }) },
  { method: 'PATCH', path: '/api/v1/members/{user_id}', sessionOnly: true, params: (f) => ({ user_id: f.memberId }), payload: () => ({ role: 'admin' }) },
  { method: 'DELETE', path: '/api/v1/members/{user_id}', sessionOnly: true, params: (f) => ({ user_id: f.adminId }) },
  { method: 'POST', path: '/api/v1/invitations', sessionOnly: true, payload: () => ({ email: 'accomplice@example.test', role: 'admin' }) },
  { method: 'GET', path: '/api/v1/invitations', sessionOnly: true },
  { method: 'DELETE', path: '/api/v1/invitations/{id}', sessionOnly: true, params: (f) => ({ id: f.invitationId }) },
]

const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`

function requestOf(op: AdminOperation, f: Fixtures): InjectOptions {
  const url = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = op.params?.(f)[name]
    if (value === undefined) throw new Error(`${key(op.method, op.path)}: no value for {${name}}`)
    return value
  })
  return { method: op.method, url, ...(op.payload ? { payload: op.payload(f) } : {}) }
}

// What an administrative operation could change, read whole; `last_used_at` moves with every token use.
const WATCHED_TABLES = [
  'webhooks',
  'webhook_deliveries',
  'webhook_attempts',
  'webhook_replays',
  'custom_field_definitions',
  'migrations',
  'migration_objects',
  'migration_oauth_states',
  'memberships',
  'invitations',
  'oauth_clients',
  'oauth_client_access',
]

async function organizationState(app: FastifyInstance): Promise<Record<string, string[]>> {
  const state: Record<string, string[]> = {}
  for (const table of WATCHED_TABLES) {
    const rows = await sql<{ row: unknown }>`SELECT to_jsonb(t) - 'last_used_at' AS row FROM ${sql.table(table)} t`.execute(app.db)
    state[table] = rows.rows.map((r) => JSON.stringify(r.row)).sort()
  }
  return state
}

function expectAdminRequired(res: LightMyRequestResponse, what: string): void {
  expect(res.statusCode, `${what}: ${res.body.slice(0, 200)}`).toBe(403)
  expect(res.headers['content-type'], what).toMatch(/^application\/problem\+json/)
  expect(json(res), what).toMatchObject({ status: 403, code: 'admin_required' })
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

// One small source org for both databases: the migration operations act on a real, analyzed migration.
const sim = await start({ dataset: 'generated', accounts: 20 })
afterAll(() => sim.close())

describe.each(await targets())('administrative operations on %s', (target) => {
  let tdb: TestDatabase
  let app: FastifyInstance
  let receiver: Receiver
  let admin: Member
  let member: Member
  let client: TestClient
  let memberToken: string
  let f: Fixtures

  beforeAll(async () => {
    tdb = await createTestDatabase(target)
    app = await buildTestApp(tdb.database, simSettings(sim))
    receiver = await startReceiver()
    const since = new Date(Date.now() - 1000).toISOString()
    admin = await createOrgWithAdmin(app, 'Roles')
    member = await addMember(app, admin.orgId, 'member')
    client = await confidentialClient(app, admin.orgId)
    memberToken = (await obtainTokens(app, member, client, { scope: ALL_SCOPES })).access_token

    const webhook = json(await admin.request({ method: 'POST', url: '/api/v1/webhooks', payload: { url: receiver.url, events: ['account.created'] } }))
    const delivery = json(await admin.request({ method: 'POST', url: `/api/v1/webhooks/${webhook.id}/test` }))
    // Settled before any state is compared: the dispatcher writes the attempt and the outcome.
    await waitUntil('the test delivery to succeed', async () => {
      const log = json(await admin.request({ url: `/api/v1/webhooks/${webhook.id}/deliveries` }))
      return log.data.some((d: { id: string; status: string }) => d.id === delivery.id && d.status === 'succeeded')
    })
    const field = json(await admin.request({ method: 'POST', url: '/api/v1/custom-fields', payload: { kind: 'contact', name: 'tier', label: 'Tier', type: 'text' } }))
    const invitation = json(await admin.request({ method: 'POST', url: '/api/v1/invitations', payload: { email: 'invited@example.test', role: 'member' } }))
    const tokens = await sourceTokens(sim)
    const migration = await analyze(admin, tokens)
    expect(migration.status).toBe('analyzed')
    const report = json(await admin.request({ url: `/api/v1/migration/${migration.id}/report` }))
    f = {
      adminId: admin.userId,
      memberId: member.userId,
      webhookId: webhook.id,
      deliveryId: delivery.id,
      fieldId: field.id,
      migrationId: migration.id,
      migrationConfig: everything(report),
      sourceTokens: tokens,
      clientId: client.client_id,
      invitationId: invitation.id,
      receiverUrl: receiver.url,
      since,
    }
  })
  afterAll(async () => {
    await receiver?.close()
    await app?.close()
    await tdb?.drop()
  })

  it('lists every operation the OpenAPI document marks administrative, and no other', async () => {
    const doc = json(await app.inject({ url: '/api/v1/openapi.json' }))
    const marked = new Map<string, boolean>()
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const method of HTTP_METHODS) {
        const op = item[method]
        if (op?.['x-required-role'] === 'admin') marked.set(key(method, path), op['x-session-only'] === true)
      }
    }
    const listed = new Map(ADMIN_OPERATIONS.map((op) => [key(op.method, op.path), op.sessionOnly === true]))
    expect([...marked.keys()].sort()).toEqual([...listed.keys()].sort())
    // And the document says which ones a token can never do, as the table does.
    expect(Object.fromEntries(marked)).toEqual(Object.fromEntries(listed))
  })

  it('refuses to start with an administrative route hidden from the OpenAPI document, which the check above walks', async () => {
    const bare = Fastify()
    markRolesInDocument(bare)
    expect(() => bare.get('/hidden', { schema: { hide: true }, onRequest: adminOnly }, async () => ({}))).toThrow(/GET \/hidden is administrative: it must be in the OpenAPI document/)
    await bare.close()
  })

  it("refuses a member's session and a member's token alike, with 403 admin_required, changing nothing, and leaves them what members may do", async () => {
    const callers: [string, (req: InjectOptions) => Promise<LightMyRequestResponse>][] = [
      ['session', (req) => member.request(req)],
      ['token', (req) => api(app, memberToken, req)],
    ]
    // Every wrong answer is collected, so one run names every hole rather than the first.
    const wrong: string[] = []
    for (const op of ADMIN_OPERATIONS) {
      for (const [via, send] of callers) {
        const what = `${key(op.method, op.path)} by a member's ${via}`
        const before = await organizationState(app)
        const res = await send(requestOf(op, f))
        const problem = String(res.headers['content-type']).startsWith('application/problem+json') ? json(res) : null
        if (res.statusCode !== 403 || problem?.code !== 'admin_required') wrong.push(`${what}: ${res.statusCode} ${problem?.code ?? res.body.slice(0, 80)}`)
        const after = await organizationState(app)
        const changed = WATCHED_TABLES.filter((t) => JSON.stringify(after[t]) !== JSON.stringify(before[t]))
        if (changed.length > 0) wrong.push(`${what}: changed ${changed.join(', ')}`)
      }
    }
    expect(wrong).toEqual([])

    // What members may do stays open to the same session and token: the refusals were about the role.
    const csv = await multipart({ kind: 'contacts' }, { text: 'FirstName,LastName,Email\nAda,Lovelace,ada@example.test\n' })
    const open: InjectOptions[] = [
      { url: '/api/v1/me' },
      { url: '/api/v1/members' },
      { url: '/api/v1/custom-fields' },
      { url: `/api/v1/custom-fields/${f.fieldId}` },
      { url: '/api/v1/imports' },
      { method: 'POST', url: '/api/v1/imports', payload: csv.payload, headers: csv.headers },
      { url: '/api/v1/events' },
      { method: 'POST', url: '/api/v1/accounts', payload: { name: 'Members may write records' } },
    ]
    for (const req of open) {
      for (const [via, send] of callers) {
        const res = await send(req)
        expect(res.statusCode, `${req.method ?? 'GET'} ${req.url} by a member's ${via}: ${res.body.slice(0, 200)}`).toBeLessThan(300)
      }
    }
  })

  it("acts for a token's person with the role they have now: an administrator's token does them until a demotion, a member's token from a promotion", async () => {
    const later = await addMember(app, admin.orgId, 'admin')
    const laterToken = (await obtainTokens(app, later, client, { scope: ALL_SCOPES })).access_token
    const byKey = new Map(ADMIN_OPERATIONS.map((op) => [key(op.method, op.path), op]))
    const asLater = (k: string, payload?: object) => api(app, laterToken, { ...requestOf(byKey.get(k)!, f), ...(payload ? { payload } : {}) })

    // An administrator's token: a representative subset succeeds...
    for (const k of ['GET /api/v1/webhooks', 'GET /api/v1/webhooks/{id}', 'GET /api/v1/webhooks/{id}/deliveries', 'GET /api/v1/migrations', 'GET /api/v1/migration/{id}', 'GET /api/v1/migration/{id}/issues']) {
      const res = await asLater(k)
      expect(res.statusCode, `${k}: ${res.body.slice(0, 200)}`).toBe(200)
    }
    const repointed = await asLater('PATCH /api/v1/webhooks/{id}', { url: `${receiver.url}/by-admin-token` })
    expect(repointed.statusCode, repointed.body).toBe(200)
    expect(json(repointed).url).toBe(`${receiver.url}/by-admin-token`)
    const defined = await asLater('POST /api/v1/custom-fields', { kind: 'account', name: 'by_token', label: 'By token', type: 'number' })
    expect(defined.statusCode, defined.body).toBe(201)
    expect((await asLater('PUT /api/v1/migration/{id}/config')).statusCode).toBe(200)
    // ...except what is done in the app only: the role passes, the channel does not.
    for (const op of ADMIN_OPERATIONS.filter((o) => o.sessionOnly)) {
      const res = await asLater(key(op.method, op.path))
      expect(res.statusCode, key(op.method, op.path)).toBe(403)
      expect(json(res).code, key(op.method, op.path)).toBe('session_required')
    }

    // Demoted: the same token is refused on its very next request, and changes nothing.
    expect((await admin.request({ method: 'PATCH', url: `/api/v1/members/${later.userId}`, payload: { role: 'member' } })).statusCode).toBe(200)
    const before = await organizationState(app)
    expectAdminRequired(await asLater('GET /api/v1/webhooks/{id}'), "a demoted administrator's token reading a webhook")
    expectAdminRequired(await asLater('PATCH /api/v1/webhooks/{id}', { url: `${receiver.url}/after-demotion` }), "a demoted administrator's token re-pointing a webhook")
    expectAdminRequired(await asLater('DELETE /api/v1/webhooks/{id}'), "a demoted administrator's token deleting a webhook")
    expectAdminRequired(await asLater('POST /api/v1/custom-fields', { kind: 'account', name: 'after_demotion', label: 'After', type: 'text' }), "a demoted administrator's token defining a field")
    expectAdminRequired(await later.request({ url: `/api/v1/webhooks/${f.webhookId}` }), "a demoted administrator's session")
    expect(await organizationState(app)).toEqual(before)

    // Promoted: a member's token gains them just as fast.
    const rising = await addMember(app, admin.orgId, 'member')
    const risingToken = (await obtainTokens(app, rising, client, { scope: ALL_SCOPES })).access_token
    expectAdminRequired(await api(app, risingToken, { url: `/api/v1/webhooks/${f.webhookId}` }), "a member's token before promotion")
    expect((await admin.request({ method: 'PATCH', url: `/api/v1/members/${rising.userId}`, payload: { role: 'admin' } })).statusCode).toBe(200)
    expect((await api(app, risingToken, { url: `/api/v1/webhooks/${f.webhookId}` })).statusCode).toBe(200)
  })
})
