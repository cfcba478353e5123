/**
 * Whose a kept answer is (docs/api.md, Idempotent retries): a key belongs to the organization, the
 * API client and the person, and its answer was shaped for the scopes of the token that sent it
 * first. A retry with a token of other scopes is refused (422 idempotency_key_scope_mismatch), so a
 * replay never shows a caller what a fresh answer would not (amounts without erp:read, anything to
 * a crm:write-only token). An answer that shows a secret once is kept sealed, never in the clear.
 */
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { json, type Member } from '../helpers/build-app.ts'
import { targets } from '../helpers/databases.ts'
import { confidentialClient, oauthHarnessPerFile, obtainTokens, type OAuthHarness, type TestClient } from '../oauth/helpers.ts'

describe.each(await targets())('kept answers and their owners on %s', (target) => {
  let h: OAuthHarness
  let admin: Member
  let client: TestClient
  oauthHarnessPerFile(target, (...world) => ([h, admin, client] = world))

  const post = (token: string, key: string, url: string, payload: object) =>
    h.app.inject({ method: 'POST', url, payload, headers: { authorization: `Bearer ${token}`, 'idempotency-key': key } })
  const count = async (table: string) => Number((await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE org_id = ${admin.orgId}`.execute(h.app.db)).rows[0].n)

  it('replays an answer only to a token with the scopes it was shaped for', async () => {
    const full = (await obtainTokens(h.app, admin, client, { scope: 'crm:read crm:write erp:read' })).access_token
    const body = { name: 'Big deal', amount: 125000, stage: 'prospecting' }
    const first = await post(full, 'deal-1', '/api/v1/opportunities', body)
    expect(first.statusCode, first.body).toBe(201)
    expect(Number(json(first).amount)).toBe(125000)

    // The same client and person, narrower tokens: a fresh answer would hide the amount, or everything.
    for (const scope of ['crm:read crm:write', 'crm:write']) {
      const narrower = (await obtainTokens(h.app, admin, client, { scope })).access_token
      const retry = await post(narrower, 'deal-1', '/api/v1/opportunities', body)
      expect(retry.statusCode, retry.body).toBe(422)
      expect(json(retry).code).toBe('idempotency_key_scope_mismatch')
      expect(retry.body).not.toContain('125000')
      expect(retry.body).not.toContain('Big deal')
    }
    // Another token with the same scopes (a refreshed one, say) gets the replay.
    const again = (await obtainTokens(h.app, admin, client, { scope: 'crm:read crm:write erp:read' })).access_token
    const replayed = await post(again, 'deal-1', '/api/v1/opportunities', body)
    expect(replayed.statusCode).toBe(201)
    expect(replayed.headers['idempotent-replayed']).toBe('true')
    expect(replayed.body).toBe(first.body)
    expect(await count('opportunities')).toBe(1)
  })

  it('keeps the key apart per API client: another client with the same key writes its own record', async () => {
    const first = (await obtainTokens(h.app, admin, client, { scope: 'crm:write' })).access_token
    const other = await confidentialClient(h.app, admin.orgId, { name: 'Other integration' })
    const second = (await obtainTokens(h.app, admin, other, { scope: 'crm:write' })).access_token
    expect((await post(first, 'shared-key', '/api/v1/accounts', { name: 'One' })).statusCode).toBe(201)
    const res = await post(second, 'shared-key', '/api/v1/accounts', { name: 'One' })
    expect(res.statusCode).toBe(201)
    expect(res.headers['idempotent-replayed']).toBeUndefined()
    expect(await count('accounts')).toBe(2)
  })

  it('keeps an answer that shows a secret sealed, and replays it whole', async () => {
    const token = (await obtainTokens(h.app, admin, client, { scope: 'crm:read crm:write' })).access_token
    const payload = { url: 'https://93.184.215.14/hook', events: ['account.created'], generate_secret: true }
    const first = await post(token, 'hook-key', '/api/v1/webhooks', payload)
    expect(first.statusCode, first.body).toBe(201)
    const secret = json(first).secret as string
    expect(secret).toMatch(/^whsec_/)
    const kept = await sql<{ response_body: string; sealed: boolean }>`SELECT response_body, sealed FROM idempotency_keys WHERE key = 'hook-key'`.execute(h.app.db)
    expect(kept.rows[0].sealed).toBe(true)
    expect(kept.rows[0].response_body).not.toContain(secret)
    expect(kept.rows[0].response_body).not.toContain('93.184.215.14')
    const replayed = await post(token, 'hook-key', '/api/v1/webhooks', payload)
    expect(replayed.headers['idempotent-replayed']).toBe('true')
    expect(json(replayed).secret).toBe(secret)
  })
})
