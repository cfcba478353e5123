/**
 * Custom fields (docs/custom-fields.md): definitions per organization and kind, their checks on
 * every write path (single, PATCH, batch, upsert by src_id), list filters, who may manage them, and
 * the organization's OpenAPI document. On both databases.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { targets } from '../helpers/databases.ts'
import { addMember, json, type Member } from '../helpers/build-app.ts'
import { api, obtainTokens, oauthHarnessPerFile, type OAuthHarness, type TestClient } from '../oauth/helpers.ts'

const FIELDS = '/api/v1/custom-fields'

describe.each(await targets())('custom fields on %s', (target) => {
  let h: OAuthHarness
  let admin: Member
  let client: TestClient

  oauthHarnessPerFile(target, (...world) => ([h, admin, client] = world))

  async function define(body: Record<string, unknown>, as: Member = admin) {
    return as.request({ method: 'POST', url: FIELDS, payload: body })
  }

  async function defineAll() {
    for (const body of [
      { kind: 'contact', name: 'tier', label: 'Tier', type: 'picklist', options: ['gold', 'silver'], required: true },
      { kind: 'contact', name: 'score', label: 'Score', type: 'number' },
      { kind: 'contact', name: 'renewal_on', label: 'Renewal', type: 'date' },
      { kind: 'contact', name: 'vip', label: 'VIP', type: 'boolean' },
      { kind: 'contact', name: 'nickname', label: 'Nickname', type: 'text' },
    ]) {
      const res = await define(body)
      expect(res.statusCode, res.body).toBe(201)
    }
  }

  const contact = (custom: Record<string, unknown>, last = 'Doe') => ({ last_name: last, custom_fields: custom })

  describe('definitions', () => {
    it('are created, listed, changed and deleted by an administrator', async () => {
      const created = await define({ kind: 'opportunity', name: 'region', label: 'Region', type: 'picklist', options: ['EMEA', 'APAC'] })
      expect(created.statusCode, created.body).toBe(201)
      const field = json(created)
      expect(field).toMatchObject({ kind: 'opportunity', name: 'region', label: 'Region', type: 'picklist', options: ['EMEA', 'APAC'], required: false })
      expect(created.headers.location).toBe(`${FIELDS}/${field.id}`)

      expect(json(await admin.request({ url: `${FIELDS}?kind=opportunity` })).data).toEqual([field])
      expect(json(await admin.request({ url: `${FIELDS}?kind=contact` })).data).toEqual([])

      const changed = await admin.request({ method: 'PATCH', url: `${FIELDS}/${field.id}`, payload: { label: 'Sales region', options: ['EMEA', 'APAC', 'AMER'], required: true } })
      expect(changed.statusCode, changed.body).toBe(200)
      expect(json(changed)).toMatchObject({ label: 'Sales region', options: ['EMEA', 'APAC', 'AMER'], required: true, name: 'region' })

      const rename = await admin.request({ method: 'PATCH', url: `${FIELDS}/${field.id}`, payload: { name: 'other' } })
      expect(rename.statusCode).toBe(400)
      expect(json(rename).errors).toEqual([{ field: 'name', message: 'is not a known field' }])

      expect((await admin.request({ method: 'DELETE', url: `${FIELDS}/${field.id}` })).statusCode).toBe(204)
      expect((await admin.request({ url: `${FIELDS}/${field.id}` })).statusCode).toBe(404)
    })

    it('refuse bad names, clashes, duplicates and options that do not fit the type', async () => {
      const cases: [Record<string, unknown>, number, string][] = [
        [{ kind: 'contact', name: 'Bad Name', label: 'x', type: 'text' }, 400, 'name'],
        [{ kind: 'contact', name: 'email', label: 'x', type: 'text' }, 400, 'name'],
        [{ kind: 'contact', name: 'custom_fields', label: 'x', type: 'text' }, 400, 'name'],
        [{ kind: 'contact', name: 'x', label: 'x', type: 'picklist' }, 400, 'options'],
        [{ kind: 'contact', name: 'x', label: 'x', type: 'picklist', options: ['a', 'a'] }, 400, 'options[1]'],
        [{ kind: 'contact', name: 'x', label: 'x', type: 'number', options: ['a'] }, 400, 'options'],
        [{ kind: 'contact', name: 'x', label: '   ', type: 'text' }, 400, 'label'],
        [{ kind: 'nope', name: 'x', label: 'x', type: 'text' }, 400, 'kind'],
        [{ kind: 'contact', name: 'x', label: 'x', type: 'datetime' }, 400, 'type'],
      ]
      for (const [body, status, field] of cases) {
        const res = await define(body)
        expect(res.statusCode, JSON.stringify(body)).toBe(status)
        expect(json(res).code).toBe('validation_failed')
        expect(json(res).errors.map((e: { field: string }) => e.field), JSON.stringify(body)).toContain(field)
      }
      expect((await define({ kind: 'contact', name: 'x', label: 'x', type: 'text' })).statusCode).toBe(201)
      const again = await define({ kind: 'contact', name: 'x', label: 'y', type: 'number' })
      expect(again.statusCode).toBe(409)
      // The same name on another kind is another field.
      expect((await define({ kind: 'account', name: 'x', label: 'x', type: 'text' })).statusCode).toBe(201)
    })

    it('may be managed by administrators only; tokens need crm:write and an administrator behind them', async () => {
      const member = await addMember(h.app, admin.orgId, 'member')
      const refused = await define({ kind: 'contact', name: 'x', label: 'x', type: 'text' }, member)
      expect(refused.statusCode).toBe(403)
      expect(json(refused).code).toBe('admin_required')
      expect((await member.request({ url: FIELDS })).statusCode).toBe(200)

      const readOnly = (await obtainTokens(h.app, admin, client, { scope: 'crm:read' })).access_token
      expect((await api(h.app, readOnly, { method: 'POST', url: FIELDS, payload: { kind: 'contact', name: 'x', label: 'x', type: 'text' } })).statusCode).toBe(403)
      expect((await api(h.app, readOnly, { url: FIELDS })).statusCode).toBe(200)
      const writer = (await obtainTokens(h.app, admin, client, { scope: 'crm:read crm:write' })).access_token
      expect((await api(h.app, writer, { method: 'POST', url: FIELDS, payload: { kind: 'contact', name: 'x', label: 'x', type: 'text' } })).statusCode).toBe(201)
    })

    it('belong to their organization', async () => {
      const created = json(await define({ kind: 'contact', name: 'x', label: 'x', type: 'text' }))
      const other = await (await import('../helpers/build-app.ts')).createOrgWithAdmin(h.app, 'Other')
      expect(json(await other.request({ url: FIELDS })).data).toEqual([])
      expect((await other.request({ url: `${FIELDS}/${created.id}` })).statusCode).toBe(404)
      expect((await other.request({ method: 'DELETE', url: `${FIELDS}/${created.id}` })).statusCode).toBe(404)
      // The other organization may write any value under that key: it is not a field there.
      expect((await other.request({ method: 'POST', url: '/api/v1/contacts', payload: contact({ x: 42 }) })).statusCode).toBe(201)
    })

    it('change type only while no record holds a value', async () => {
      const field = json(await define({ kind: 'contact', name: 'code', label: 'Code', type: 'text' }))
      expect((await admin.request({ method: 'PATCH', url: `${FIELDS}/${field.id}`, payload: { type: 'number' } })).statusCode).toBe(200)
      expect((await admin.request({ method: 'POST', url: '/api/v1/contacts', payload: contact({ code: 7 }) })).statusCode).toBe(201)
      const refused = await admin.request({ method: 'PATCH', url: `${FIELDS}/${field.id}`, payload: { type: 'text' } })
      expect(refused.statusCode).toBe(409)
      expect(json(refused).detail).toContain('1 record holds a value of code')
    })
  })

  describe('record writes', () => {
    beforeEach(defineAll)

    it('accept valid values and keep keys without a definition', async () => {
      const res = await admin.request({ method: 'POST', url: '/api/v1/contacts', payload: contact({ tier: 'gold', score: -5, renewal_on: '2027-01-31', vip: false, nickname: 'Jo', Legacy__c: 'kept' }) })
      expect(res.statusCode, res.body).toBe(201)
      expect(json(res).custom_fields).toEqual({ tier: 'gold', score: -5, renewal_on: '2027-01-31', vip: false, nickname: 'Jo', Legacy__c: 'kept' })
    })

    it('refuse wrong types, unknown options and missing required fields, naming each', async () => {
      const res = await admin.request({ method: 'POST', url: '/api/v1/contacts', payload: contact({ score: '5', renewal_on: '2027-02-30', vip: 'yes', nickname: 'x'.repeat(2001) }) })
      expect(res.statusCode).toBe(400)
      const body = json(res)
      expect(body.code).toBe('validation_failed')
      const fields = Object.fromEntries(body.errors.map((e: { field: string; message: string }) => [e.field, e.message]))
      expect(Object.keys(fields).sort()).toEqual(['custom_fields.nickname', 'custom_fields.renewal_on', 'custom_fields.score', 'custom_fields.tier', 'custom_fields.vip'])
      expect(fields['custom_fields.tier']).toBe('is required')
      expect(fields['custom_fields.renewal_on']).toBe('must be a valid date')

      const option = await admin.request({ method: 'POST', url: '/api/v1/contacts', payload: contact({ tier: 'bronze' }) })
      expect(json(option).errors).toEqual([{ field: 'custom_fields.tier', message: 'must be one of: gold, silver' }])
      expect(json(await admin.request({ url: '/api/v1/contacts/count' })).count).toBe(0)
    })

    it('PATCH merges: keys sent change, null removes, required ones cannot be cleared, untouched ones need nothing', async () => {
      const created = json(await admin.request({ method: 'POST', url: '/api/v1/contacts', payload: contact({ tier: 'gold', score: 1, Legacy__c: 'kept' }) }))
      const url = `/api/v1/contacts/${created.id}`
      const patched = await admin.request({ method: 'PATCH', url, payload: { custom_fields: { score: null, vip: true } } })
      expect(patched.statusCode, patched.body).toBe(200)
      expect(json(patched).custom_fields).toEqual({ tier: 'gold', vip: true, Legacy__c: 'kept' })
      expect((await admin.request({ method: 'PATCH', url, payload: { first_name: 'Jo' } })).statusCode).toBe(200)
      const cleared = await admin.request({ method: 'PATCH', url, payload: { custom_fields: { tier: null } } })
      expect(cleared.statusCode).toBe(400)
      expect(json(cleared).errors).toEqual([{ field: 'custom_fields.tier', message: 'is required and cannot be cleared' }])
    })

    it('are checked per item in batches and upserts, which write nothing when one fails', async () => {
      const batch = await admin.request({
        method: 'POST',
        url: '/api/v1/contacts/batch',
        payload: { operation: 'create', records: [contact({ tier: 'gold' }, 'A'), contact({ tier: 'gold', score: 'high' }, 'B'), contact({}, 'C')] },
      })
      expect(batch.statusCode).toBe(400)
      expect(json(batch).errors).toEqual([
        { index: 1, field: 'records[1].custom_fields.score', message: 'must be a number' },
        { index: 2, field: 'records[2].custom_fields.tier', message: 'is required' },
      ])
      expect(json(await admin.request({ url: '/api/v1/contacts/count' })).count).toBe(0)

      const ok = await admin.request({ method: 'POST', url: '/api/v1/contacts/batch', payload: { operation: 'create', records: [contact({ tier: 'gold', x: null }, 'A')] } })
      expect(ok.statusCode, ok.body).toBe(200)
      const id = json(ok).data[0].id
      expect(json(ok).data[0].custom_fields).toEqual({ tier: 'gold' })
      const update = await admin.request({ method: 'POST', url: '/api/v1/contacts/batch', payload: { operation: 'update', records: [{ id, custom_fields: { tier: 'platinum' } }] } })
      expect(json(update).errors).toEqual([{ index: 0, field: 'records[0].custom_fields.tier', message: 'must be one of: gold, silver' }])
      const merged = await admin.request({ method: 'POST', url: '/api/v1/contacts/batch', payload: { operation: 'update', records: [{ id, custom_fields: { score: 3 } }] } })
      expect(json(merged).data[0].custom_fields).toEqual({ tier: 'gold', score: 3 })

      const upsert = await admin.request({ method: 'PUT', url: '/api/v1/contacts/by-src-id/S1', payload: contact({ score: 2 }) })
      expect(upsert.statusCode).toBe(400)
      expect(json(upsert).errors).toEqual([{ index: 0, field: 'records[0].custom_fields.tier', message: 'is required' }])
      expect((await admin.request({ method: 'PUT', url: '/api/v1/contacts/by-src-id/S1', payload: contact({ tier: 'silver', score: 2 }) })).statusCode).toBe(201)
      const again = await admin.request({ method: 'PUT', url: '/api/v1/contacts/by-src-id/S1', payload: contact({ tier: 'silver', vip: true }) })
      expect(again.statusCode).toBe(200)
      expect(json(again).custom_fields).toEqual({ tier: 'silver', score: 2, vip: true })
    })

    it('keep values of a deleted definition, unchecked', async () => {
      const fields = json(await admin.request({ url: `${FIELDS}?kind=contact` })).data as { id: string; name: string }[]
      const created = json(await admin.request({ method: 'POST', url: '/api/v1/contacts', payload: contact({ tier: 'gold', score: 4 }) }))
      await admin.request({ method: 'DELETE', url: `${FIELDS}/${fields.find((f) => f.name === 'score')!.id}` })
      expect(json(await admin.request({ url: `/api/v1/contacts/${created.id}` })).custom_fields).toEqual({ tier: 'gold', score: 4 })
      expect((await admin.request({ method: 'PATCH', url: `/api/v1/contacts/${created.id}`, payload: { custom_fields: { score: 'four' } } })).statusCode).toBe(200)
    })
  })

  describe('lists', () => {
    beforeEach(async () => {
      await defineAll()
      for (const [last, custom] of [
        ['Gold1', { tier: 'gold', score: -5, renewal_on: '2027-01-01', vip: true, nickname: 'Al' }],
        ['Gold2', { tier: 'gold', score: 10, renewal_on: '2027-06-01', vip: false }],
        ['Silver', { tier: 'silver', score: 0, renewal_on: '2026-12-31' }],
      ] as const) {
        expect((await admin.request({ method: 'POST', url: '/api/v1/contacts', payload: contact(custom, last) })).statusCode).toBe(201)
      }
    })

    async function names(query: string, token?: string): Promise<string[]> {
      const res = token ? await api(h.app, token, { url: `/api/v1/contacts?${query}` }) : await admin.request({ url: `/api/v1/contacts?${query}` })
      expect(res.statusCode, res.body).toBe(200)
      return json(res).data.map((r: { last_name: string }) => r.last_name).sort()
    }

    it('filter by equality, ranges and [in], on sessions and tokens alike, and count the same', async () => {
      expect(await names('custom_fields.tier=gold')).toEqual(['Gold1', 'Gold2'])
      expect(await names('custom_fields.score[lt]=0')).toEqual(['Gold1'])
      expect(await names('custom_fields.score[gte]=0&custom_fields.tier=gold')).toEqual(['Gold2'])
      expect(await names('custom_fields.score=-5')).toEqual(['Gold1'])
      expect(await names('custom_fields.renewal_on[gte]=2027-01-01')).toEqual(['Gold1', 'Gold2'])
      expect(await names('custom_fields.vip=false')).toEqual(['Gold2'])
      expect(await names('custom_fields.nickname=Al')).toEqual(['Gold1'])
      expect(await names('custom_fields.tier[in]=silver,gold')).toEqual(['Gold1', 'Gold2', 'Silver'])
      expect(await names(`${encodeURIComponent('custom_fields.score[gt]')}=1`)).toEqual(['Gold2'])
      const token = (await obtainTokens(h.app, admin, client, { scope: 'crm:read' })).access_token
      expect(await names('custom_fields.tier=gold', token)).toEqual(['Gold1', 'Gold2'])
      expect(json(await admin.request({ url: '/api/v1/contacts/count?custom_fields.tier=gold' })).count).toBe(2)
    })

    it('refuse unknown fields, values of the wrong type and operators the type lacks', async () => {
      const cases: [string, string][] = [
        ['custom_fields.nope=1', 'custom_fields.nope'],
        ['custom_fields.tier=bronze', 'custom_fields.tier'],
        ['custom_fields.score=high', 'custom_fields.score'],
        ['custom_fields.renewal_on[lt]=2027-02-30', 'custom_fields.renewal_on[lt]'],
        ['custom_fields.vip=yes', 'custom_fields.vip'],
        ['custom_fields.nickname[gt]=a', 'custom_fields.nickname[gt]'],
        ['custom_fields.score[in]=1,2', 'custom_fields.score[in]'],
      ]
      for (const [query, field] of cases) {
        const res = await admin.request({ url: `/api/v1/contacts?${query}` })
        expect(res.statusCode, query).toBe(400)
        expect(json(res).errors.map((e: { field: string }) => e.field), query).toEqual([field])
      }
      expect((await admin.request({ url: '/api/v1/contacts?custom_fields.Bad=1' })).statusCode).toBe(400)
    })
  })

  it('shows the organization\'s fields in its OpenAPI document', async () => {
    await defineAll()
    const res = await admin.request({ url: '/api/v1/openapi/organization.json' })
    expect(res.statusCode).toBe(200)
    const doc = json(res)
    const create = doc.components.schemas.ContactCreate.properties.custom_fields
    expect(create.required).toEqual(['tier'])
    expect(create.properties.tier).toMatchObject({ type: 'string', enum: ['gold', 'silver'] })
    expect(create.properties.score).toMatchObject({ type: ['number', 'null'] })
    expect(doc.components.schemas.ContactUpdate.properties.custom_fields.required).toBeUndefined()
    expect(doc.components.schemas.AccountCreate.properties.custom_fields.properties).toBeUndefined()
    const listParams = doc.paths['/api/v1/contacts'].get.parameters.map((p: { name: string }) => p.name)
    expect(listParams).toEqual(expect.arrayContaining(['custom_fields.tier', 'custom_fields.tier[in]', 'custom_fields.score[gte]']))
    // The public document stays the same for everyone.
    const shared = json(await h.app.inject({ url: '/api/v1/openapi.json' }))
    expect(shared.components.schemas.ContactCreate.properties.custom_fields.properties).toBeUndefined()
  })
})
