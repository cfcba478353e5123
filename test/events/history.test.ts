/**
 * Record history (GET /{kind}/{id}/history) and operations (GET /operations): every change of every
 * kind, newest first, with its actor by name and client, shaped for the caller's scopes, readable
 * after the record's deletion, kept for HISTORY_RETENTION_DAYS; operations with their counts and
 * kinds, filtered by API client and time.
 */
import { describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { targets } from '../helpers/databases.ts'
import { createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { api, oauthHarnessPerFile, obtainTokens, type OAuthHarness, type TestClient } from '../oauth/helpers.ts'
import { jsonHoldsAmount } from '../helpers/json-values.ts'

/** A valid create body of every kind (case comments are created under their case). */
const BODIES: Record<string, Record<string, unknown>> = {
  accounts: { name: 'Acme' },
  contacts: { last_name: 'Lovelace' },
  opportunities: { name: 'Deal', amount: '1000.00' },
  leads: { last_name: 'Hopper', company: 'Navy' },
  products: { name: 'Widget' },
  cases: { subject: 'Broken' },
  activities: { kind: 'task', subject: 'Call' },
}
const PATCHES: Record<string, Record<string, unknown>> = {
  accounts: { name: 'Acme 2' },
  contacts: { last_name: 'Byron' },
  opportunities: { name: 'Deal 2' },
  leads: { last_name: 'Kay' },
  products: { name: 'Gadget' },
  cases: { subject: 'Fixed' },
  activities: { subject: 'Email' },
}

describe.each(await targets())('record history and operations on %s', (target) => {
  let h: OAuthHarness
  let admin: Member
  let client: TestClient
  oauthHarnessPerFile(target, (...world) => ([h, admin, client] = world))

  async function send(member: Member, method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: Record<string, unknown>) {
    const res = await member.request({ method, url: `/api/v1${url}`, ...(payload === undefined ? {} : { payload }) })
    expect(res.statusCode, res.body).toBeLessThan(300)
    return res.statusCode === 204 ? null : json(res)
  }

  async function history(member: Member, url: string, limit = 50): Promise<Record<string, any>[]> {
    const out: Record<string, any>[] = []
    let cursor: string | null = null
    for (;;) {
      const res = await member.request({ method: 'GET', url: `/api/v1${url}/history?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}` })
      expect(res.statusCode, res.body).toBe(200)
      const page = json(res)
      out.push(...page.data)
      if (!page.has_more) return out
      cursor = page.next_cursor
    }
  }

  it('answers create, update and delete of every kind, newest first, after the deletion too', async () => {
    for (const [path, body] of Object.entries(BODIES)) {
      const record = await send(admin, 'POST', `/${path}`, body)
      await send(admin, 'PATCH', `/${path}/${record.id}`, PATCHES[path])
      await send(admin, 'DELETE', `/${path}/${record.id}`)
      const entries = await history(admin, `/${path}/${record.id}`, 2)
      expect(entries.map((e) => e.action), path).toEqual(['deleted', 'updated', 'created'])
      const [field, value] = Object.entries(PATCHES[path])[0]
      expect(entries[1].changes, path).toEqual([{ field, label: expect.any(String), old: body[field], new: value }])
      expect(entries[2].changes, path).toContainEqual({ field, label: expect.any(String), old: null, new: body[field] })
      expect(entries[0].changes, path).toContainEqual({ field, label: expect.any(String), old: value, new: null })
      for (const e of entries) expect(e.actor, path).toEqual({ channel: 'app', user: { id: admin.userId, name: 'Admin', email: admin.email }, client: null })
      expect(new Set(entries.map((e) => e.operation_id)).size, path).toBe(3)
    }
    const kase = await send(admin, 'POST', '/cases', { subject: 'With comments' })
    const comment = await send(admin, 'POST', `/cases/${kase.id}/comments`, { body: 'Hello' })
    expect((await history(admin, `/case-comments/${comment.id}`)).map((e) => e.action)).toEqual(['created'])
  })

  it('is a 404 for an id the organization never had', async () => {
    const res = await admin.request({ url: '/api/v1/accounts/0190aaaa-0000-7000-8000-000000000000/history' })
    expect(res.statusCode).toBe(404)
    expect(res.headers['content-type']).toMatch(/problem\+json/)
  })

  it('leaves out fields the caller may not read, and names the API client of a token', async () => {
    const token = (await obtainTokens(h.app, admin, client, { scope: 'crm:read crm:write' })).access_token
    const created = await api(h.app, token, { method: 'POST', url: '/api/v1/opportunities', payload: { name: 'Deal', amount: '1000.00' } })
    expect(created.statusCode, created.body).toBe(201)
    const id = json(created).id
    await send(admin, 'PATCH', `/opportunities/${id}`, { amount: '5000.00', name: 'Deal 2' })
    const res = await api(h.app, token, { url: `/api/v1/opportunities/${id}/history` })
    expect(res.statusCode, res.body).toBe(200)
    const [updated, first] = json(res).data
    expect(updated.changes.map((c: any) => c.field)).toEqual(['name'])
    expect(first.actor).toEqual({ channel: 'api', user: { id: admin.userId, name: 'Admin', email: admin.email }, client: { id: client.client_id, name: expect.any(String) } })
    expect(jsonHoldsAmount(res.body, 5000)).toBe(false)
    expect(jsonHoldsAmount(res.body, 1000)).toBe(false)
    // The admin's session reads amounts.
    const full = await history(admin, `/opportunities/${id}`)
    expect(full[0].changes).toContainEqual({ field: 'amount', label: 'Amount', old: '1000.00', new: '5000.00' })
  })

  it('keeps history past the change feed, for HISTORY_RETENTION_DAYS', async () => {
    const account = await send(admin, 'POST', '/accounts', { name: 'Old' })
    await h.app.db.executeQuery(sql`UPDATE record_history SET occurred_at = now() - interval '100 days' WHERE org_id = ${admin.orgId}`.compile(h.app.db))
    await h.app.db.executeQuery(sql`UPDATE events SET occurred_at = now() - interval '100 days' WHERE org_id = ${admin.orgId}`.compile(h.app.db))
    await h.app.runHousekeeping()
    expect((await history(admin, `/accounts/${account.id}`)).map((e) => e.action)).toEqual(['created'])
    await h.app.db.executeQuery(sql`UPDATE record_history SET occurred_at = now() - interval '401 days' WHERE org_id = ${admin.orgId}`.compile(h.app.db))
    await h.app.runHousekeeping()
    expect(await history(admin, `/accounts/${account.id}`)).toEqual([])
  })

  it('lists operations with actor, counts and kinds; filtered by API client and the last day', async () => {
    const batch = await admin.request({ method: 'POST', url: '/api/v1/accounts/batch', payload: { operation: 'create', records: [{ name: 'A' }, { name: 'B' }] } })
    expect(batch.statusCode, batch.body).toBeLessThan(300)
    const token = (await obtainTokens(h.app, admin, client, { scope: 'crm:read crm:write' })).access_token
    const viaClient = await api(h.app, token, { method: 'POST', url: '/api/v1/contacts', payload: { last_name: 'Client-made' } })
    expect(viaClient.statusCode, viaClient.body).toBe(201)

    const all = json(await admin.request({ url: '/api/v1/operations' })).data
    expect(all).toHaveLength(2)
    expect(all[0]).toMatchObject({ channel: 'api', counts: { created: 1, updated: 0, deleted: 0, restored: 0 }, kinds: ['contact'], reverted_by: null, reverts: null, revert: null })
    expect(all[0].actor.client).toEqual({ id: client.client_id, name: expect.any(String) })
    expect(all[1]).toMatchObject({ channel: 'app', counts: { created: 2 }, kinds: ['account'], actor: { user: { id: admin.userId, name: 'Admin' }, client: null } })

    const byClient = json(await admin.request({ url: `/api/v1/operations?client_id=${encodeURIComponent(client.client_id)}&since=${new Date(Date.now() - 86400_000).toISOString()}` })).data
    expect(byClient.map((o: any) => o.id)).toEqual([all[0].id])
    expect(json(await admin.request({ url: `/api/v1/operations?since=${new Date(Date.now() + 60_000).toISOString()}` })).data).toEqual([])
    expect(json(await admin.request({ url: '/api/v1/operations?channel=app' })).data.map((o: any) => o.id)).toEqual([all[1].id])
    const paged = json(await admin.request({ url: '/api/v1/operations?limit=1' }))
    expect(paged).toMatchObject({ has_more: true, next_cursor: all[0].id })
    expect(json(await admin.request({ url: `/api/v1/operations/${all[1].id}` }))).toEqual(all[1])

    // Another organization sees none of them.
    const other = await createOrgWithAdmin(h.app)
    expect(json(await other.request({ url: '/api/v1/operations' })).data).toEqual([])
    expect((await other.request({ url: `/api/v1/operations/${all[0].id}` })).statusCode).toBe(404)
  })
})
