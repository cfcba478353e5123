/**
 * Required text (src/shared/required-text.ts) through every REST door that writes records: a single
 * create and PATCH of every kind, case comments, batch create/update/upsert, the upsert by src_id,
 * lead conversion, a required custom text field and CSV imports. Blank (whitespace or invisible
 * characters only, in any of their forms) is a 400 naming the field (in a batch, the item; in an
 * import, an issue of the row); surrounding whitespace is removed before a value is stored; the
 * OpenAPI document says both.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import type { LightMyRequestResponse } from 'fastify'
import { appPerFile, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { targets } from '../helpers/databases.ts'
import { createVia, minimalBodies, topLevelKinds } from '../helpers/samples.ts'
import { kindsByName, recordKinds } from '../../src/records/kinds/index.ts'
import { runImports, startImport } from '../imports/helpers.ts'

/** Blank as people and outside checks type it. */
const BLANKS = ['', ' ', '\t\n', '\u00a0', '\u3000', '\u0085', '\u200b', '\u2060\ufeff', '\u2800', ' \u200b\u00a0']

const requiredText = (kindName: string) =>
  kindsByName[kindName as keyof typeof kindsByName].fields.filter((f) => f.required && !f.readOnly && (f.type === 'string' || f.type === 'text')).map((f) => f.name)

describe.each(await targets())('required text on %s', (target) => {
  const ctx = appPerFile(target, { SERVICE_ROLE: 'web' })
  let admin: Member

  beforeEach(async () => {
    admin = await createOrgWithAdmin(ctx.app)
  })

  const post = (url: string, payload: unknown) => admin.request({ method: 'POST', url, payload: payload as object })
  const patch = (url: string, payload: unknown) => admin.request({ method: 'PATCH', url, payload: payload as object })

  function expectBlank(res: LightMyRequestResponse, field: string, label: string) {
    expect(res.statusCode, `${label}: ${res.body}`).toBe(400)
    expect(json(res), label).toMatchObject({ code: 'validation_failed', errors: [{ field, message: 'cannot be blank' }] })
  }

  it('refuses blank on create and on PATCH, for every kind and every required text field', async () => {
    for (const kind of topLevelKinds) {
      const path = kindsByName[kind].path
      const existing = await createVia(admin, kind)
      for (const field of requiredText(kind)) {
        for (const blank of BLANKS) {
          const label = `${kind}.${field}=${JSON.stringify(blank)}`
          expectBlank(await post(`/api/v1/${path}`, { ...minimalBodies[kind], [field]: blank }), field, `create ${label}`)
          expectBlank(await patch(`/api/v1/${path}/${existing.id}`, { [field]: blank }), field, `patch ${label}`)
        }
      }
      const stored = json(await admin.request({ url: `/api/v1/${path}/${existing.id}` }))
      expect(stored, kind).toMatchObject(minimalBodies[kind])
      expect(json(await admin.request({ url: `/api/v1/${path}/count` })).count, kind).toBe(1)
    }
    // A case comment's body, on its own route.
    const kase = await createVia(admin, 'case')
    for (const blank of BLANKS) expectBlank(await post(`/api/v1/cases/${kase.id}/comments`, { body: blank }), 'body', `comment ${JSON.stringify(blank)}`)
  })

  it('stores required text without its surrounding whitespace, and other text as sent', async () => {
    const res = await post('/api/v1/accounts', { name: ' \u00a0Acme  Corp\t\n', billing_city: '  Lyon  ' })
    expect(res.statusCode, res.body).toBe(201)
    expect(json(res)).toMatchObject({ name: 'Acme  Corp', billing_city: '  Lyon  ' })
    const changed = await patch(`/api/v1/accounts/${json(res).id}`, { name: '\u3000Globex\u0085' })
    expect(json(changed).name).toBe('Globex')
    const contact = json(await post('/api/v1/contacts', { last_name: '  Nakamura ', first_name: ' Aiko ' }))
    expect(contact).toMatchObject({ last_name: 'Nakamura', first_name: ' Aiko ' })
    const kase = await createVia(admin, 'case', { subject: '\tPrinter on fire\n' })
    expect(kase.subject).toBe('Printer on fire')
    const comment = json(await post(`/api/v1/cases/${kase.id}/comments`, { body: '\n  Tried turning it off.\n\n' }))
    expect(comment.body).toBe('Tried turning it off.')
    // An invisible character inside or at an end of visible text is part of it.
    const emoji = json(await post('/api/v1/products', { name: 'Heart \u2764\ufe0f' }))
    expect(emoji.name).toBe('Heart \u2764\ufe0f')
  })

  it('names the failing items of a batch, for create, update and upsert, and writes none', async () => {
    const existing = await createVia(admin, 'account', { name: 'Initech', src_id: 'A-1' })
    const creates = await post('/api/v1/accounts/batch', { operation: 'create', records: [{ name: 'Good' }, { name: '  ' }, { name: '\u200b' }] })
    expect(creates.statusCode, creates.body).toBe(400)
    expect(json(creates).errors).toEqual([
      { index: 1, field: 'records[1].name', message: 'cannot be blank' },
      { index: 2, field: 'records[2].name', message: 'cannot be blank' },
    ])
    const updates = await post('/api/v1/accounts/batch', { operation: 'update', records: [{ id: existing.id, name: '\t' }] })
    expect(json(updates).errors).toEqual([{ index: 0, field: 'records[0].name', message: 'cannot be blank' }])
    const upserts = await post('/api/v1/accounts/batch', { operation: 'upsert', records: [{ src_id: 'A-2', name: 'New' }, { src_id: 'A-1', name: '\u00a0' }] })
    expect(json(upserts).errors).toEqual([{ index: 1, field: 'records[1].name', message: 'cannot be blank' }])
    const byPath = await admin.request({ method: 'PUT', url: '/api/v1/accounts/by-src-id/A-1', payload: { name: '\u2060' } })
    expect(byPath.statusCode, byPath.body).toBe(400)
    expect(json(byPath).errors).toEqual([{ index: 0, field: 'records[0].name', message: 'cannot be blank' }])
    const names = await sql<{ name: string }>`SELECT name FROM accounts WHERE org_id = ${admin.orgId}`.execute(ctx.app.db)
    expect(names.rows).toEqual([{ name: 'Initech' }])
    // The same writes with visible names succeed, trimmed.
    const ok = await post('/api/v1/accounts/batch', { operation: 'upsert', records: [{ src_id: 'A-1', name: '  Initech Ltd ' }, { src_id: 'A-3', name: '\tHooli' }] })
    expect(ok.statusCode, ok.body).toBe(200)
    expect(json(ok).data.map((r: { name: string }) => r.name)).toEqual(['Initech Ltd', 'Hooli'])
  })

  it('refuses a blank opportunity name and a conversion whose new records would take a blank name from the lead', async () => {
    const lead = await createVia(admin, 'lead', { last_name: 'Okafor', company: 'Initech' })
    for (const blank of BLANKS) {
      expectBlank(await post(`/api/v1/leads/${lead.id}/convert`, { opportunity_name: blank }), 'opportunity_name', JSON.stringify(blank))
    }
    // A lead stored before blanks were refused.
    const legacy = await createVia(admin, 'lead', { last_name: 'Lee', company: 'Placeholder' })
    await sql`UPDATE leads SET company = ${' \u200b '}, last_name = ${'   '} WHERE id = ${legacy.id}`.execute(ctx.app.db)
    const refused = await post(`/api/v1/leads/${legacy.id}/convert`, { create_opportunity: true })
    expect(refused.statusCode, refused.body).toBe(400)
    expect(json(refused).errors.map((e: { field: string }) => e.field)).toEqual(['company', 'last_name', 'opportunity_name'])
    expect(json(refused).errors[0].message).toMatch(/^cannot be blank: .*account_id/)
    // Linking existing records and naming the opportunity converts it; nothing blank is written.
    const account = await createVia(admin, 'account')
    const contact = await createVia(admin, 'contact')
    const converted = await post(`/api/v1/leads/${legacy.id}/convert`, { account_id: account.id, contact_id: contact.id, opportunity_name: '  Renewal ' })
    expect(converted.statusCode, converted.body).toBe(200)
    expect(json(converted).opportunity.name).toBe('Renewal')
    // A lead with visible names converts as before, its names trimmed on the new records.
    await sql`UPDATE leads SET company = ${'  Initech  '} WHERE id = ${lead.id}`.execute(ctx.app.db)
    const plain = json(await post(`/api/v1/leads/${lead.id}/convert`, { create_opportunity: true }))
    expect([plain.account.name, plain.contact.last_name, plain.opportunity.name]).toEqual(['Initech', 'Okafor', 'Initech'])
  })

  it('applies the rule to a required custom text field, and trims it', async () => {
    const def = await post('/api/v1/custom-fields', { kind: 'account', name: 'motto', label: 'Motto', type: 'text', required: true })
    expect(def.statusCode, def.body).toBe(201)
    for (const blank of BLANKS) {
      expectBlank(await post('/api/v1/accounts', { name: 'Acme', custom_fields: { motto: blank } }), 'custom_fields.motto', JSON.stringify(blank))
    }
    const made = json(await post('/api/v1/accounts', { name: 'Acme', custom_fields: { motto: '  Onwards ', other: '  kept  ' } }))
    expect(made.custom_fields).toEqual({ motto: 'Onwards', other: '  kept  ' })
    expectBlank(await patch(`/api/v1/accounts/${made.id}`, { custom_fields: { motto: '\u200b' } }), 'custom_fields.motto', 'patch')
    const batch = await post('/api/v1/accounts/batch', { operation: 'update', records: [{ id: made.id, custom_fields: { motto: '\t' } }] })
    expect(json(batch).errors).toEqual([{ index: 0, field: 'records[0].custom_fields.motto', message: 'cannot be blank' }])
    const changed = json(await patch(`/api/v1/accounts/${made.id}`, { custom_fields: { motto: '\u3000Upwards\n' } }))
    expect(changed.custom_fields.motto).toBe('Upwards')
  })

  it('makes a CSV row with a blank required value an issue and imports the others, trimmed', async () => {
    const csv = 'name,industry\nGood Co,Retail\n\u200b,Retail\n   ,Retail\n  Spaced Co  ,Retail\n'
    const started = await startImport(admin, { kind: 'accounts' }, csv)
    expect(started.statusCode, started.body).toBe(202)
    await runImports(ctx.app, target)
    const done = json(await admin.request({ url: `/api/v1/imports/${json(started).id}` }))
    expect(done).toMatchObject({ status: 'completed_with_errors', created: 2, failed: 2 })
    const issues = (await admin.request({ url: `/api/v1/imports/${done.id}/issues.csv` })).body.trim().split('\r\n').slice(1)
    expect(issues).toHaveLength(2)
    expect(issues[0]).toMatch(/^3,name,name,cannot be blank/)
    expect(issues[1]).toMatch(/^4,name,name,is required/)
    const names = await sql<{ name: string }>`SELECT name FROM accounts WHERE org_id = ${admin.orgId} ORDER BY name`.execute(ctx.app.db)
    expect(names.rows.map((r) => r.name)).toEqual(['Good Co', 'Spaced Co'])
  })

  it('says so in the OpenAPI document: minLength 1 and a \\S pattern on every required text property of every write body', async () => {
    const doc = json(await ctx.app.inject({ url: '/api/v1/openapi.json' }))
    const schemas = doc.components.schemas as Record<string, { properties: Record<string, { minLength?: number; pattern?: string; description?: string }> }>
    let checked = 0
    for (const kind of recordKinds) {
      const title = kind.name.replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase())
      for (const suffix of ['Create', 'Update', 'UpsertItem', 'UpdateItem']) {
        const schema = schemas[`${title}${suffix}`]
        expect(schema, `${title}${suffix}`).toBeDefined()
        for (const field of requiredText(kind.name)) {
          expect(schema.properties[field], `${title}${suffix}.${field}`).toMatchObject({ minLength: 1, pattern: '\\S' })
          expect(schema.properties[field].description).toContain('surrounding whitespace is removed')
          checked++
        }
        // Optional text keeps no such rule.
        for (const f of kind.fields.filter((x) => !x.required && (x.type === 'string' || x.type === 'text') && !x.readOnly)) expect(schema.properties[f.name].pattern, f.name).toBeUndefined()
      }
    }
    expect(checked).toBeGreaterThanOrEqual(9 * 4)
    expect(schemas.LeadConvert.properties.opportunity_name).toMatchObject({ minLength: 1, pattern: '\\S' })
  })
})
