/**
 * Deleting a record clears every reference to it in the write plan's own statement, and the records
 * that held a reference are journaled as updated (with the old value) by the same actor and
 * operation as the delete: the foreign keys' ON DELETE SET NULL used to do it silently, a write
 * outside the plan that no event reported.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { targets } from '../helpers/databases.ts'
import { appPerFile, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { createVia } from '../helpers/samples.ts'

describe.each(await targets())('deleting a referenced record on %s', (target) => {
  const ctx = appPerFile(target)
  let admin: Member

  beforeEach(async () => {
    admin = await createOrgWithAdmin(ctx.app)
  })

  const get = async (path: string) => {
    const res = await admin.request({ method: 'GET', url: `/api/v1/${path}` })
    expect(res.statusCode, res.body).toBe(200)
    return json(res)
  }
  const eventsOf = async (path: string): Promise<Array<Record<string, any>>> => (await get(`${path}/events?limit=50`)).data

  it('clears the references of every kind that held one and journals each holder as updated', async () => {
    const account = await createVia(admin, 'account', { name: 'Doomed' })
    const contact = await createVia(admin, 'contact', { account_id: account.id })
    const opportunity = await createVia(admin, 'opportunity', { account_id: account.id })
    const child = await createVia(admin, 'account', { name: 'Child', parent_account_id: account.id })
    const theCase = await createVia(admin, 'case', { account_id: account.id })
    const activity = await createVia(admin, 'activity', { account_id: account.id })
    const bystander = await createVia(admin, 'contact', { last_name: 'Elsewhere' })

    const del = await admin.request({ method: 'DELETE', url: `/api/v1/accounts/${account.id}` })
    expect(del.statusCode, del.body).toBe(204)

    for (const [path, id, field] of [
      ['contacts', contact.id, 'account_id'],
      ['opportunities', opportunity.id, 'account_id'],
      ['accounts', child.id, 'parent_account_id'],
      ['cases', theCase.id, 'account_id'],
      ['activities', activity.id, 'account_id'],
    ] as const) {
      const now = await get(`${path}/${id}`)
      expect(now[field], `${path}.${field}`).toBeNull()
      expect(Date.parse(now.updated_at), `${path}.updated_at moves`).toBeGreaterThanOrEqual(Date.parse(now.created_at))
    }

    const deleted = (await eventsOf(`accounts/${account.id}`)).find((e) => e.type === 'account.deleted')!
    expect(deleted).toBeDefined()
    for (const [path, id, field, entity] of [
      ['contacts', contact.id, 'account_id', 'contact'],
      ['opportunities', opportunity.id, 'account_id', 'opportunity'],
      ['accounts', child.id, 'parent_account_id', 'account'],
      ['cases', theCase.id, 'account_id', 'case'],
    ] as const) {
      const [latest] = await eventsOf(`${path}/${id}`)
      expect(latest.type, `${path}'s latest event`).toBe(`${entity}.updated`)
      expect(latest.data.previous).toEqual({ [field]: account.id })
      expect(latest.data.object[field]).toBeNull()
      // The same author and operation as the delete: one operation, to be read (and undone) whole.
      expect(latest.operation_id).toBe(deleted.operation_id)
      expect(latest.actor).toEqual(deleted.actor)
    }
    expect((await eventsOf(`contacts/${bystander.id}`)).map((e) => e.type)).toEqual(['contact.created'])
  })

  it('deletes a parent and its child account in one batch, and unlinks a case\'s activities while its comments go with it', async () => {
    const parent = await createVia(admin, 'account', { name: 'Parent' })
    const child = await createVia(admin, 'account', { name: 'Child', parent_account_id: parent.id })
    const grandchild = await createVia(admin, 'account', { name: 'Grandchild', parent_account_id: child.id })
    const batch = await admin.request({ method: 'POST', url: '/api/v1/accounts/batch', payload: { operation: 'delete', records: [{ id: parent.id }, { id: child.id }] } })
    expect(batch.statusCode, batch.body).toBeLessThan(300)
    expect((await admin.request({ method: 'GET', url: `/api/v1/accounts/${child.id}` })).statusCode).toBe(404)
    expect((await get(`accounts/${grandchild.id}`)).parent_account_id).toBeNull()
    const [latest] = await eventsOf(`accounts/${grandchild.id}`)
    expect(latest).toMatchObject({ type: 'account.updated', data: { previous: { parent_account_id: child.id } } })

    const theCase = await createVia(admin, 'case', {})
    const activity = await createVia(admin, 'activity', { case_id: theCase.id })
    const comment = await admin.request({ method: 'POST', url: `/api/v1/cases/${theCase.id}/comments`, payload: { body: 'First look' } })
    expect(comment.statusCode, comment.body).toBe(201)
    expect((await admin.request({ method: 'DELETE', url: `/api/v1/cases/${theCase.id}` })).statusCode).toBe(204)
    expect((await get(`activities/${activity.id}`)).case_id).toBeNull()
    const tombstones = (await sql<{ kind: string; id: string }>`SELECT kind, id FROM record_tombstones WHERE org_id = ${admin.orgId}`.execute(ctx.tdb.database.db)).rows
    expect(tombstones.map((t) => `${t.kind}:${t.id}`).sort()).toEqual(
      [`accounts:${parent.id}`, `accounts:${child.id}`, `cases:${theCase.id}`, `case_comments:${json(comment).id}`].sort(),
    )
  })
})
