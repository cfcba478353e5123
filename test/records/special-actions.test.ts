import { beforeEach, describe, expect, it } from 'vitest'
import { targets } from '../helpers/databases.ts'
import { appPerFile, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { createVia } from '../helpers/samples.ts'

describe.each(await targets())('special actions on %s', (target) => {
  const ctx = appPerFile(target)
  let admin: Member

  beforeEach(async () => {
    admin = await createOrgWithAdmin(ctx.app)
  })

  const count = async (path: string) => json(await admin.request({ method: 'GET', url: `/api/v1/${path}?limit=200` })).data.length

  describe('lead conversion', () => {
    it('creates account, contact and opportunity and marks the lead converted', async () => {
      const lead = await createVia(admin, 'lead', { first_name: 'Ada', last_name: 'Lovelace', company: 'Analytical Engines', email: 'ada@ae.test', source: 'Web' })
      const res = await admin.request({ method: 'POST', url: `/api/v1/leads/${lead.id}/convert`, payload: { create_opportunity: true } })
      expect(res.statusCode).toBe(200)
      const r = json(res)
      expect(r.account.name).toBe('Analytical Engines')
      expect(r.contact).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@ae.test', account_id: r.account.id, lead_source: 'Web' })
      expect(r.opportunity).toMatchObject({ account_id: r.account.id, stage: 'prospecting' })
      expect(r.lead).toMatchObject({
        status: 'converted',
        converted_account_id: r.account.id,
        converted_contact_id: r.contact.id,
        converted_opportunity_id: r.opportunity.id,
      })
      expect(r.lead.converted_at).not.toBeNull()
      const again = await admin.request({ method: 'POST', url: `/api/v1/leads/${lead.id}/convert`, payload: {} })
      expect(again.statusCode).toBe(409)
      expect(json(again).code).toBe('conflict')
      expect(await count('accounts')).toBe(1)
    })

    it('links existing records, and without an opportunity leaves it null', async () => {
      const account = await createVia(admin, 'account', { name: 'Existing' })
      const lead = await createVia(admin, 'lead')
      const r = json(await admin.request({ method: 'POST', url: `/api/v1/leads/${lead.id}/convert`, payload: { account_id: account.id } }))
      expect(r.account.id).toBe(account.id)
      expect(r.opportunity).toBeNull()
      expect(r.contact.account_id).toBe(account.id)
      expect(await count('accounts')).toBe(1)
    })

    it('is atomic: a bad contact_id leaves no account behind and the lead unconverted', async () => {
      const lead = await createVia(admin, 'lead')
      const res = await admin.request({ method: 'POST', url: `/api/v1/leads/${lead.id}/convert`, payload: { contact_id: '0190d6f0-0000-7000-8000-000000000000', create_opportunity: true } })
      expect(res.statusCode).toBe(400)
      expect(json(res).errors[0].field).toBe('contact_id')
      expect(await count('accounts')).toBe(0)
      expect(await count('opportunities')).toBe(0)
      expect(json(await admin.request({ method: 'GET', url: `/api/v1/leads/${lead.id}` })).status).toBe('new')
    })

    it('lets only one of two concurrent conversions succeed', async () => {
      const lead = await createVia(admin, 'lead')
      const results = await Promise.all([1, 2].map(() => admin.request({ method: 'POST', url: `/api/v1/leads/${lead.id}/convert`, payload: {} })))
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409])
      expect(await count('accounts')).toBe(1)
      expect(await count('contacts')).toBe(1)
    })

    it('keeps the converted status to the convert action, and rejects unknown body fields', async () => {
      const lead = await createVia(admin, 'lead')
      const patch = await admin.request({ method: 'PATCH', url: `/api/v1/leads/${lead.id}`, payload: { status: 'converted' } })
      expect(patch.statusCode).toBe(400)
      expect(json(patch).errors[0].field).toBe('status')
      const create = await admin.request({ method: 'POST', url: '/api/v1/leads', payload: { last_name: 'x', company: 'y', status: 'converted' } })
      expect(create.statusCode).toBe(400)
      const unknown = await admin.request({ method: 'POST', url: `/api/v1/leads/${lead.id}/convert`, payload: { make_it_so: true } })
      expect(unknown.statusCode).toBe(400)
      expect((await admin.request({ method: 'POST', url: '/api/v1/leads/0190d6f0-0000-7000-8000-000000000000/convert', payload: {} })).statusCode).toBe(404)
    })
  })

  describe('case escalation', () => {
    it('escalates once, then answers 409', async () => {
      const kase = await createVia(admin, 'case')
      const res = await admin.request({ method: 'POST', url: `/api/v1/cases/${kase.id}/escalate`, payload: {} })
      expect(res.statusCode).toBe(200)
      expect(json(res)).toMatchObject({ status: 'escalated', is_escalated: true })
      expect(json(res).escalated_at).not.toBeNull()
      const again = await admin.request({ method: 'POST', url: `/api/v1/cases/${kase.id}/escalate` })
      expect(again.statusCode).toBe(409)
    })
  })
})
