/**
 * A record's history from the event journal (GET /{kind}/{id}/events): every change journaled in its
 * transaction whether or not a webhook subscribes, newest first, keyset-paged, shaped for the
 * caller's scopes, readable after the record's deletion, scoped by organization, pruned after the
 * retention period.
 */
import { describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { targets } from '../helpers/databases.ts'
import { createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { api, oauthHarnessPerFile, obtainTokens, type OAuthHarness, type TestClient } from '../oauth/helpers.ts'
import { pruneEvents, sequencePending } from '../../src/events/index.ts'
import { jsonHoldsAmount } from '../helpers/json-values.ts'

describe.each(await targets())('record events on %s', (target) => {
  let h: OAuthHarness
  let admin: Member
  let client: TestClient
  oauthHarnessPerFile(target, (...world) => ([h, admin, client] = world))

  async function send(method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: Record<string, unknown>) {
    const res = await admin.request({ method, url: `/api/v1${url}`, ...(payload === undefined ? {} : { payload }) })
    expect(res.statusCode, res.body).toBeLessThan(300)
    return res.statusCode === 204 ? null : json(res)
  }

  async function history(member: Member, url: string, limit = 50): Promise<Record<string, any>[]> {
    const out: Record<string, any>[] = []
    let cursor: string | null = null
    for (;;) {
      const res = await member.request({ method: 'GET', url: `/api/v1${url}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}` })
      expect(res.statusCode, res.body).toBe(200)
      const page = json(res)
      out.push(...page.data)
      if (!page.has_more) return out
      cursor = page.next_cursor
    }
  }

  it('lists every change of the record newest first, with the old values, across pages', async () => {
    const opp = await send('POST', '/opportunities', { name: 'Deal', amount: '1000.00', stage: 'prospecting' })
    await send('PATCH', `/opportunities/${opp.id}`, { amount: '2000.00' })
    await send('PATCH', `/opportunities/${opp.id}`, { stage: 'proposal' })
    const other = await send('POST', '/opportunities', { name: 'Other' })
    const events = await history(admin, `/opportunities/${opp.id}/events`, 2)
    expect(events.map((e) => e.type)).toEqual(['opportunity.stage_changed', 'opportunity.updated', 'opportunity.updated', 'opportunity.created'])
    expect(events[0].data.previous).toEqual({ stage: 'prospecting' })
    expect(events[2].data.previous).toEqual({ amount: '1000.00' })
    expect(events[0].data.object).toMatchObject({ id: opp.id, stage: 'proposal', amount: '2000.00' })
    expect(new Set(events.map((e) => e.id)).size).toBe(4)
    expect(events.every((e) => e.organization_id === admin.orgId)).toBe(true)
    expect((await history(admin, `/opportunities/${other.id}/events`)).map((e) => e.type)).toEqual(['opportunity.created'])
  })

  it('journals batch writes although no webhook subscribes', async () => {
    const res = await admin.request({
      method: 'POST',
      url: '/api/v1/accounts/batch',
      payload: { operation: 'create', records: [{ name: 'A' }, { name: 'B' }] },
    })
    expect(res.statusCode, res.body).toBeLessThan(300)
    const ids: string[] = json(res).data.map((r: any) => r.id)
    expect(ids).toHaveLength(2)
    for (const id of ids) expect((await history(admin, `/accounts/${id}/events`)).map((e) => e.type)).toEqual(['account.created'])
  })

  it('hides amounts from a token without erp:read, in the object and in the old values', async () => {
    const opp = await send('POST', '/opportunities', { name: 'Deal', amount: '1000.00' })
    await send('PATCH', `/opportunities/${opp.id}`, { amount: '5000.00', name: 'Deal 2' })
    const token = (await obtainTokens(h.app, admin, client, { scope: 'crm:read' })).access_token
    const res = await api(h.app, token, { url: `/api/v1/opportunities/${opp.id}/events` })
    expect(res.statusCode, res.body).toBe(200)
    const [updated, created] = json(res).data
    expect(updated.data.object.amount ?? null).toBeNull()
    expect(updated.data.previous).toEqual({ name: 'Deal', amount: null })
    expect(created.data.object.amount ?? null).toBeNull()
    expect(jsonHoldsAmount(res.body, 5000)).toBe(false)
  })

  it('keeps a deleted record history readable; an unknown id or another kind is a 404', async () => {
    const acct = await send('POST', '/accounts', { name: 'Gone' })
    await send('DELETE', `/accounts/${acct.id}`)
    expect((await history(admin, `/accounts/${acct.id}/events`)).map((e) => e.type)).toEqual(['account.deleted', 'account.created'])
    const contact = await send('POST', '/contacts', { last_name: 'Lee' })
    expect((await admin.request({ method: 'GET', url: `/api/v1/accounts/${contact.id}/events` })).statusCode).toBe(404)
    expect((await admin.request({ method: 'GET', url: '/api/v1/accounts/0190a3c4-5b6d-7e8f-9a0b-1c2d3e4f5a6b/events' })).statusCode).toBe(404)
    expect((await admin.request({ method: 'GET', url: '/api/v1/accounts/not-a-uuid/events' })).statusCode).toBe(400)
  })

  it('never shows one organization the history of another', async () => {
    const acct = await send('POST', '/accounts', { name: 'Mine' })
    const stranger = await createOrgWithAdmin(h.app, 'Other org')
    const res = await stranger.request({ method: 'GET', url: `/api/v1/accounts/${acct.id}/events` })
    expect(res.statusCode).toBe(404)
  })

  it('prunes events older than the retention period', async () => {
    const acct = await send('POST', '/accounts', { name: 'Old' })
    await send('PATCH', `/accounts/${acct.id}`, { name: 'Newer' })
    await sql`UPDATE events SET occurred_at = now() - interval '31 days' WHERE type = 'account.created' AND record_id = ${acct.id}`.execute(h.app.db)
    await sequencePending(h.app.db)
    await pruneEvents(h.app.db, new Date(), 30)
    expect((await history(admin, `/accounts/${acct.id}/events`)).map((e) => e.type)).toEqual(['account.updated'])
  })
})
