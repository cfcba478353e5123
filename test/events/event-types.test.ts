/**
 * GET /api/v1/event-types: every subscribable type, and a JSON Schema per type that the events the
 * service really sends validate against (checked on events from every kind and action).
 */
import { describe, expect, it } from 'vitest'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { targets } from '../helpers/databases.ts'
import { json, type Member } from '../helpers/build-app.ts'
import { oauthHarnessPerFile, type OAuthHarness } from '../oauth/helpers.ts'
import { sequencePending } from '../../src/events/index.ts'
import { EVENT_NAMES } from '../../src/events/event-catalogue.ts'

describe.each(await targets())('event types on %s', (target) => {
  let h: OAuthHarness
  let admin: Member
  oauthHarnessPerFile(target, (...world) => ([h, admin] = world))

  async function send(method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: Record<string, unknown>) {
    const res = await admin.request({ method, url: `/api/v1${url}`, ...(payload ? { payload } : {}) })
    expect(res.statusCode, res.body).toBeLessThan(300)
    return res.statusCode === 204 ? null : json(res)
  }

  it('lists every type with a schema that the sent events satisfy', async () => {
    const res = await admin.request({ method: 'GET', url: '/api/v1/event-types' })
    expect(res.statusCode, res.body).toBe(200)
    const types: any[] = json(res).data
    expect(types.map((t) => t.type)).toEqual([...EVENT_NAMES])
    expect(types.every((t) => t.version === 1 && t.description.length > 10)).toBe(true)

    // One of each action: creates, updates, a stage change, a conversion, an escalation, deletes.
    const account = await send('POST', '/accounts', { name: 'Acme', domain: 'acme.test' })
    await send('PATCH', `/accounts/${account.id}`, { industry: 'Machinery' })
    const contact = await send('POST', '/contacts', { last_name: 'Lee', account_id: account.id })
    await send('PATCH', `/contacts/${contact.id}`, { first_name: 'Ada' })
    const opp = await send('POST', '/opportunities', { name: 'Deal', amount: '10.50', stage: 'prospecting', account_id: account.id })
    await send('PATCH', `/opportunities/${opp.id}`, { stage: 'proposal' })
    const kase = await send('POST', '/cases', { subject: 'Broken' })
    await send('POST', `/cases/${kase.id}/escalate`, {})
    await send('PATCH', `/cases/${kase.id}`, { priority: 'high' })
    const lead = await send('POST', '/leads', { last_name: 'Kim', company: 'Kim Co' })
    await send('PATCH', `/leads/${lead.id}`, { first_name: 'Jo' })
    await send('POST', `/leads/${lead.id}/convert`, {})
    for (const [path, id] of [['opportunities', opp.id], ['contacts', contact.id], ['cases', kase.id], ['leads', lead.id], ['accounts', account.id]]) await send('DELETE', `/${path}/${id}`)
    await sequencePending(h.app.db)

    const ajv = new Ajv2020({ strict: false, allErrors: true })
    const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void
    addFormats(ajv)
    const validators = new Map(types.map((t) => [t.type, ajv.compile(t.schema)]))
    const events: any[] = json(await admin.request({ method: 'GET', url: '/api/v1/events?limit=1000' })).data
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(EVENT_NAMES))
    for (const event of events) {
      const validate = validators.get(event.type)!
      expect(validate(event), `${event.type}: ${JSON.stringify(validate.errors)}`).toBe(true)
    }
    // And a schema is not a pass-all: a wrong type or a missing object fails it.
    const created = events.find((e) => e.type === 'account.created')
    expect(validators.get('account.created')!({ ...created, type: 'account.updated' })).toBe(false)
    expect(validators.get('account.created')!({ ...created, data: {} })).toBe(false)
    expect(validators.get('account.updated')!({ ...created, type: 'account.updated' })).toBe(false)
  })
})
