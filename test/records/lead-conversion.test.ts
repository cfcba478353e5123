/**
 * Converting a lead into what exists (docs/api.md, Lead conversion): the suggestions of
 * GET /leads/{id}/conversion-matches, a conversion attached to an existing account and contact
 * with no opportunity, and the lead.converted event naming what it was converted into.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { targets } from '../helpers/databases.ts'
import { appPerFile, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'

describe.each(await targets())('lead conversion into existing records on %s', (target) => {
  const ctx = appPerFile(target)
  let admin: Member

  beforeEach(async () => {
    admin = await createOrgWithAdmin(ctx.app)
  })

  async function create(path: string, body: Record<string, unknown>) {
    const res = await admin.request({ method: 'POST', url: `/api/v1/${path}`, payload: body })
    expect(res.statusCode, res.body).toBe(201)
    return json(res)
  }

  async function matches(leadId: string) {
    const res = await admin.request({ method: 'GET', url: `/api/v1/leads/${leadId}/conversion-matches` })
    expect(res.statusCode, res.body).toBe(200)
    return json(res) as { accounts: { record: Record<string, string>; matched_on: string[] }[]; contacts: { record: Record<string, string>; matched_on: string[] }[] }
  }

  it('suggests accounts by e-mail domain, website and company name, and contacts by e-mail and name, best first', async () => {
    const byName = await create('accounts', { name: 'Analytical Engines' })
    const byDomain = await create('accounts', { name: 'AE Holdings', domain: 'ae.test' })
    const byWebsite = await create('accounts', { name: 'Engines Ltd', website: 'https://www.ae.test/about' })
    const similar = await create('accounts', { name: 'Analytical Engines Europe' })
    await create('accounts', { name: 'Unrelated', domain: 'other.test' })
    const byEmail = await create('contacts', { first_name: 'Augusta', last_name: 'King', email: 'ADA@ae.test' })
    const sameName = await create('contacts', { first_name: 'Ada', last_name: 'Lovelace' })
    await create('contacts', { first_name: 'Charles', last_name: 'Lovelace' })
    const lead = await create('leads', { first_name: 'Ada', last_name: 'Lovelace', company: 'Analytical Engines', email: 'ada@ae.test' })

    const found = await matches(lead.id)
    const accounts = found.accounts.map((m) => [m.record.id, m.matched_on])
    // Domain and website (4) outrank an exact name (3), which outranks a name containing the company (1).
    expect(accounts.slice(0, 2)).toEqual(expect.arrayContaining([[byDomain.id, ['domain']], [byWebsite.id, ['website']]]))
    expect(accounts.slice(2)).toEqual([[byName.id, ['name']], [similar.id, ['similar_name']]])
    expect(found.contacts.map((m) => [m.record.id, m.matched_on])).toEqual([[byEmail.id, ['email']], [sameName.id, ['name']]])
    expect(found.accounts[0]!.record).toHaveProperty('name')
  })

  it('does not suggest accounts by a mailbox provider\'s domain; a lead matching nothing gets empty lists', async () => {
    await create('accounts', { name: 'Gmail', domain: 'gmail.com' })
    const lead = await create('leads', { last_name: 'Solo', company: 'Solo Studio', email: 'solo@gmail.com' })
    expect(await matches(lead.id)).toEqual({ accounts: [], contacts: [] })
    const missing = await admin.request({ method: 'GET', url: '/api/v1/leads/0190d6f0-0000-7000-8000-000000000000/conversion-matches' })
    expect(missing.statusCode).toBe(404)
  })

  it('attaches to an existing account and contact, creates no opportunity, and the event says so', async () => {
    const account = await create('accounts', { name: 'Analytical Engines', domain: 'ae.test' })
    const contact = await create('contacts', { last_name: 'Lovelace', email: 'ada@ae.test', account_id: account.id })
    const lead = await create('leads', { last_name: 'Lovelace', company: 'Analytical Engines', email: 'ada@ae.test' })
    const res = await admin.request({ method: 'POST', url: `/api/v1/leads/${lead.id}/convert`, payload: { account_id: account.id, contact_id: contact.id, create_opportunity: false } })
    expect(res.statusCode, res.body).toBe(200)
    const converted = json(res)
    const conversion = { account_id: account.id, account_created: false, contact_id: contact.id, contact_created: false, opportunity_id: null, opportunity_created: false }
    expect(converted.conversion).toEqual(conversion)
    expect(converted.opportunity).toBeNull()
    const listed = async (path: string) => json(await admin.request({ method: 'GET', url: `/api/v1/${path}/count` })).count
    expect([await listed('accounts'), await listed('contacts'), await listed('opportunities')]).toEqual([1, 1, 0])
    const [event] = json(await admin.request({ method: 'GET', url: `/api/v1/leads/${lead.id}/events` })).data
    expect(event).toMatchObject({ type: 'lead.converted', data: { conversion, object: { status: 'converted', converted_account_id: account.id } } })
  })

  it('names created records as created: a new account, the existing contact, a new opportunity', async () => {
    const contact = await create('contacts', { last_name: 'Lovelace' })
    const lead = await create('leads', { last_name: 'Lovelace', company: 'Fresh Co' })
    const converted = json(await admin.request({ method: 'POST', url: `/api/v1/leads/${lead.id}/convert`, payload: { contact_id: contact.id, create_opportunity: true } }))
    expect(converted.conversion).toEqual({
      account_id: converted.account.id,
      account_created: true,
      contact_id: contact.id,
      contact_created: false,
      opportunity_id: converted.opportunity.id,
      opportunity_created: true,
    })
    const [event] = json(await admin.request({ method: 'GET', url: `/api/v1/leads/${lead.id}/events` })).data
    expect(event.data.conversion).toEqual(converted.conversion)
    // A new account from a conversion is the lead's owner's: here the converting admin's, as the lead's creator.
    expect(converted.account.owner_id).toBe(admin.userId)
  })
})
