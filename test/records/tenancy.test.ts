import { beforeEach, describe, expect, it } from 'vitest'
import { targets } from '../helpers/databases.ts'
import { appPerFile, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { createVia, minimalBodies, topLevelKinds } from '../helpers/samples.ts'
import { kindsByName } from '../../src/records/kinds/index.ts'

describe.each(await targets())('tenancy isolation on %s', (target) => {
  const ctx = appPerFile(target)
  let a: Member
  let b: Member

  beforeEach(async () => {
    a = await createOrgWithAdmin(ctx.app, 'A')
    b = await createOrgWithAdmin(ctx.app, 'B')
  })

  it.each(topLevelKinds)('organization A can neither see nor change B\'s %s', async (kind) => {
    const path = `/api/v1/${kindsByName[kind].path}`
    const mine = await createVia(a, kind)
    const theirs = await createVia(b, kind)

    const listA = json(await a.request({ method: 'GET', url: path }))
    expect(listA.data.map((r: any) => r.id)).toEqual([mine.id])
    // Paging from B's record as a cursor continues A's own list and reveals nothing of B.
    const viaForeignCursor = json(await a.request({ method: 'GET', url: `${path}?cursor=${theirs.id}` }))
    expect(viaForeignCursor.data.every((r: any) => r.id !== theirs.id)).toBe(true)

    const unknown = await a.request({ method: 'GET', url: `${path}/0190d6f0-0000-7000-8000-000000000000` })
    const get = await a.request({ method: 'GET', url: `${path}/${theirs.id}` })
    expect(get.statusCode).toBe(404)
    expect(json(get)).toEqual({ ...json(unknown), detail: json(get).detail })
    expect(json(get).detail).toBe(json(unknown).detail)

    const patchField = Object.keys(minimalBodies[kind]).find((k) => k !== 'kind')!
    expect((await a.request({ method: 'PATCH', url: `${path}/${theirs.id}`, payload: { [patchField]: 'hijacked' } })).statusCode).toBe(404)
    expect((await a.request({ method: 'DELETE', url: `${path}/${theirs.id}` })).statusCode).toBe(404)
    const still = json(await b.request({ method: 'GET', url: `${path}/${theirs.id}` }))
    expect(still).toEqual(theirs)
    // src_id is unique per organization: B's use of a value neither blocks nor reveals anything to A.
    await createVia(b, kind, { src_id: 'shared-src' })
    expect((await createVia(a, kind, { src_id: 'shared-src' })).src_id).toBe('shared-src')
  })

  it('refuses references into another organization, naming the field', async () => {
    const theirAccount = await createVia(b, 'account')
    const theirContact = await createVia(b, 'contact')
    const theirCase = await createVia(b, 'case')
    const attempts: [string, Record<string, unknown>, string][] = [
      ['/api/v1/contacts', { last_name: 'x', account_id: theirAccount.id }, 'account_id'],
      ['/api/v1/cases', { subject: 'x', contact_id: theirContact.id }, 'contact_id'],
      ['/api/v1/activities', { kind: 'task', subject: 'x', case_id: theirCase.id }, 'case_id'],
      ['/api/v1/opportunities', { name: 'x', account_id: theirAccount.id }, 'account_id'],
      ['/api/v1/accounts', { name: 'x', parent_account_id: theirAccount.id }, 'parent_account_id'],
      ['/api/v1/accounts', { name: 'x', owner_id: b.userId }, 'owner_id'],
    ]
    for (const [url, payload, field] of attempts) {
      const res = await a.request({ method: 'POST', url, payload })
      expect(res.statusCode, url).toBe(400)
      expect(json(res).errors[0].field, url).toBe(field)
    }
    for (const kind of topLevelKinds) expect(json(await a.request({ method: 'GET', url: `/api/v1/${kindsByName[kind].path}` })).data).toHaveLength(0)
  })

  it('keeps case comments and special actions inside the organization', async () => {
    const theirCase = await createVia(b, 'case')
    const theirLead = await createVia(b, 'lead')
    const comment = json(await b.request({ method: 'POST', url: `/api/v1/cases/${theirCase.id}/comments`, payload: { body: 'private' } }))
    expect((await a.request({ method: 'GET', url: `/api/v1/cases/${theirCase.id}/comments` })).statusCode).toBe(404)
    expect((await a.request({ method: 'POST', url: `/api/v1/cases/${theirCase.id}/comments`, payload: { body: 'x' } })).statusCode).toBe(404)
    expect((await a.request({ method: 'GET', url: `/api/v1/case-comments/${comment.id}` })).statusCode).toBe(404)
    expect((await a.request({ method: 'PATCH', url: `/api/v1/case-comments/${comment.id}`, payload: { body: 'x' } })).statusCode).toBe(404)
    expect((await a.request({ method: 'DELETE', url: `/api/v1/case-comments/${comment.id}` })).statusCode).toBe(404)
    expect((await a.request({ method: 'POST', url: `/api/v1/cases/${theirCase.id}/escalate`, payload: {} })).statusCode).toBe(404)
    expect((await a.request({ method: 'POST', url: `/api/v1/leads/${theirLead.id}/convert`, payload: {} })).statusCode).toBe(404)
    const myLead = await createVia(a, 'lead')
    const theirAccount = await createVia(b, 'account')
    const convertInto = await a.request({ method: 'POST', url: `/api/v1/leads/${myLead.id}/convert`, payload: { account_id: theirAccount.id } })
    expect(convertInto.statusCode).toBe(400)
    expect(json(await b.request({ method: 'GET', url: `/api/v1/leads/${theirLead.id}` })).status).toBe('new')
    expect(json(await b.request({ method: 'GET', url: `/api/v1/cases/${theirCase.id}` })).is_escalated).toBe(false)
  })

  it('q searches only the caller\'s organization', async () => {
    await createVia(b, 'account', { name: 'Secretive Corp' })
    expect(json(await a.request({ method: 'GET', url: '/api/v1/accounts?q=secretive' })).data).toHaveLength(0)
  })
})
