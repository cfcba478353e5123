/**
 * Filters on the record (docs/webhooks.md, Filters): checked on save with errors that name the bad
 * part, amounts only for endpoints (and callers) with erp:read, judged when a delivery is due:
 * matching events are sent, the others logged as `filtered` and never sent.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { targets } from '../helpers/databases.ts'
import { createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { createVia } from '../helpers/samples.ts'
import { api, closeHarness, confidentialClient, createHarness, obtainTokens, resetHarness, type OAuthHarness } from '../oauth/helpers.ts'
import { filterAccepts } from '../../src/webhooks/filter/filter-match.ts'
import { startReceiver, type Receiver } from './receiver.ts'

const WON_OR_LOST = { field: 'stage', in: ['closed_won', 'closed_lost'] }

describe('filterAccepts', () => {
  const event = (object: Record<string, unknown>, previous?: Record<string, unknown>) => ({ data: previous ? { object, previous } : { object } })
  it('compares amounts (decimal strings) by value, dates by instant, and reads missing fields as null', () => {
    expect(filterAccepts({ field: 'amount', gte: 10000 }, event({ amount: '10000.00' }))).toBe(true)
    expect(filterAccepts({ field: 'amount', gt: 10000 }, event({ amount: '10000.00' }))).toBe(false)
    expect(filterAccepts({ field: 'amount', lt: 5 }, event({ amount: null }))).toBe(false)
    expect(filterAccepts({ field: 'amount', eq: null }, event({}))).toBe(true)
    expect(filterAccepts({ field: 'close_date', lte: '2026-12-31' }, event({ close_date: '2026-11-30' }))).toBe(true)
    expect(filterAccepts({ field: 'updated_at', gt: '2026-11-26T00:00:00+01:00' }, event({ updated_at: '2026-11-25T23:30:00.000Z' }))).toBe(true)
    expect(filterAccepts({ changed: 'stage' }, event({ stage: 'closed_won' }, { stage: 'proposal' }))).toBe(true)
    expect(filterAccepts({ changed: 'stage' }, event({ stage: 'closed_won' }))).toBe(false)
    expect(filterAccepts({ not: { any: [{ field: 'stage', eq: 'closed_won' }, { field: 'stage', ne: 'proposal' }] } }, event({ stage: 'proposal' }))).toBe(true)
  })
})

describe.each(await targets())('webhook filters on %s', (target) => {
  let h: OAuthHarness
  let receiver: Receiver
  let admin: Member

  beforeAll(async () => {
    h = await createHarness(target, { ALLOW_PRIVATE_OUTBOUND: 'true' })
    // Ahead of real time, so deliveries written at real "now" are due for the dispatcher.
    h.clock.advance(3600)
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await receiver?.close()
    await closeHarness(h)
  })
  beforeEach(async () => {
    await resetHarness(h)
    receiver.received.length = 0
    admin = await createOrgWithAdmin(h.app)
  })

  const register = (payload: Record<string, unknown>, m: Member = admin) => m.request({ method: 'POST', url: '/api/v1/webhooks', payload: { url: receiver.url, ...payload } })
  const deliveries = async (id: string, query = '') => json(await admin.request({ method: 'GET', url: `/api/v1/webhooks/${id}/deliveries${query}` })).data

  it('refuses a bad filter with errors that name its part, and shows a good one back', async () => {
    const cases: Array<[unknown, string, RegExp]> = [
      [{ field: 'stag', in: ['closed_won'] }, 'filter.field', /"stag" is not a field of the subscribed records/],
      [{ field: 'stage', in: ['won'] }, 'filter.in[0]', /"won" is not a value of "stage": expected one of prospecting, .*closed_won/],
      [{ all: [WON_OR_LOST, { field: 'name', gte: 'A' }] }, 'filter.all[1].gte', /needs a number, amount or date field/],
      [{ field: 'stage', like: 'closed%' }, 'filter.like', /is not a comparison/],
      [{ field: 'stage', eq: 'closed_won', ne: 'proposal' }, 'filter', /exactly one comparison/],
      [{ any: [] }, 'filter.any', /non-empty array/],
      [{ all: [{ all: [{ all: [{ all: [WON_OR_LOST] }] }] }] }, 'filter.all[0].all[0].all[0].all', /nests deeper than 4 levels/],
      [{ any: Array.from({ length: 21 }, () => ({ changed: 'stage' })) }, 'filter', /21 conditions; at most 20/],
      [{ changed: 'probability', extra: 1 }, 'filter', /"changed" must be the only key/],
      [[WON_OR_LOST], 'filter', /must be (an )?object/],
    ]
    for (const [filter, field, message] of cases) {
      const res = await register({ events: ['opportunity.updated'], filter })
      expect(res.statusCode, JSON.stringify(filter)).toBe(400)
      const body = json(res)
      expect(body.code).toBe('validation_failed')
      const error = body.errors.find((e: any) => e.field === field)
      expect(error, `${JSON.stringify(filter)}: ${JSON.stringify(body.errors)}`).toBeDefined()
      expect(error.message).toMatch(message)
    }
    // A field of a kind the endpoint does not subscribe to.
    const other = json(await register({ events: ['account.created'], filter: WON_OR_LOST }))
    expect(other.errors[0]).toMatchObject({ field: 'filter.field' })

    const filter = { all: [WON_OR_LOST, { changed: 'stage' }, { field: 'amount', gte: 10000 }] }
    const res = await register({ events: ['opportunity.updated', 'opportunity.stage_changed'], filter, ordering: 'per_record' })
    expect(res.statusCode, res.body).toBe(201)
    expect(json(res)).toMatchObject({ filter, ordering: 'per_record', replay: null })
    const id = json(res).id
    // Subscriptions that no longer have the filter's fields are refused until the filter changes too.
    const narrowed = await admin.request({ method: 'PATCH', url: `/api/v1/webhooks/${id}`, payload: { events: ['account.updated'] } })
    expect(narrowed.statusCode).toBe(400)
    expect(json(narrowed).errors[0].field).toBe('filter.all[0].field')
    const cleared = await admin.request({ method: 'PATCH', url: `/api/v1/webhooks/${id}`, payload: { events: ['account.updated'], filter: null } })
    expect(cleared.statusCode, cleared.body).toBe(200)
    expect(json(cleared).filter).toBeNull()
  })

  it('refuses a filter on amounts where the endpoint or the caller may not read them', async () => {
    const client = await confidentialClient(h.app, admin.orgId)
    const noErp = await obtainTokens(h.app, admin, client, { scope: 'crm:read crm:write' })
    const withErp = await obtainTokens(h.app, admin, client, { scope: 'crm:read crm:write erp:read' })
    const call = (token: string, method: 'POST' | 'PATCH', url: string, payload: object) => api(h.app, token, { method, url, payload })
    const filter = { field: 'amount', gte: 100 }
    const refused = await call(noErp.access_token, 'POST', '/api/v1/webhooks', { url: receiver.url, events: ['opportunity.created'], filter })
    expect(refused.statusCode).toBe(400)
    expect(json(refused).errors[0]).toMatchObject({ field: 'filter.field', message: expect.stringMatching(/needs the scope erp:read/) })
    const created = await call(withErp.access_token, 'POST', '/api/v1/webhooks', { url: receiver.url, events: ['opportunity.created'], filter })
    expect(created.statusCode, created.body).toBe(201)
    // Re-pointing it without erp:read would make it receive null amounts: its amount filter must go first.
    const repoint = await call(noErp.access_token, 'PATCH', `/api/v1/webhooks/${json(created).id}`, { url: `${receiver.url}/v2` })
    expect(repoint.statusCode).toBe(400)
    expect(json(repoint).errors[0].field).toBe('filter.field')
  })

  it('sends the events the filter accepts and logs the others as filtered, judged when they are due', async () => {
    const registered = await register({ events: ['opportunity.created', 'opportunity.stage_changed'], filter: { any: [{ all: [WON_OR_LOST, { changed: 'stage' }] }, { field: 'amount', gte: 50000 }] } })
    expect(registered.statusCode, registered.body).toBe(201)
    const hook = json(registered)
    const small = await createVia(admin, 'opportunity', { name: 'Small', amount: '100.00', stage: 'proposal' })
    await createVia(admin, 'opportunity', { name: 'Big', amount: '75000.00' })
    await admin.request({ method: 'PATCH', url: `/api/v1/opportunities/${small.id}`, payload: { stage: 'negotiation' } })
    await admin.request({ method: 'PATCH', url: `/api/v1/opportunities/${small.id}`, payload: { stage: 'closed_won' } })
    await receiver.waitFor(2)
    let log: any[] = []
    for (let i = 0; i < 200 && !(log.length === 4 && log.every((d) => d.status !== 'pending')); i++) {
      await new Promise((r) => setTimeout(r, 25))
      log = await deliveries(hook.id)
    }
    const sent = receiver.received.map((r) => JSON.parse(r.body)).map((e) => `${e.type} ${e.data.object.name} ${e.data.object.stage}`)
    expect(sent.sort()).toEqual(['opportunity.created Big prospecting', 'opportunity.stage_changed Small closed_won'])
    const byState = log.map((d) => `${d.status} ${d.event_type} ${d.payload.data.object.stage} ${d.attempt_count}`).sort()
    expect(byState).toEqual([
      'filtered opportunity.created proposal 0',
      'filtered opportunity.stage_changed negotiation 0',
      'succeeded opportunity.created prospecting 1',
      'succeeded opportunity.stage_changed closed_won 1',
    ])
    expect((await deliveries(hook.id, '?status=filtered')).length).toBe(2)
    const view = json(await admin.request({ method: 'GET', url: `/api/v1/webhooks/${hook.id}` }))
    expect(view.delivery_stats).toMatchObject({ succeeded: 2, filtered: 2, pending: 0 })

    // The test event is not a record's: the filter does not apply to it.
    const test = await admin.request({ method: 'POST', url: `/api/v1/webhooks/${hook.id}/test` })
    expect(test.statusCode).toBe(202)
    await receiver.waitFor(3)
    expect(JSON.parse(receiver.received[2].body).type).toBe('webhook.test')
  })
})
