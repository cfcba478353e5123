/**
 * Undoing an operation (POST /operations/{id}/revert): a request, a batch, a CSV import run; a
 * created record deleted, a deleted one restored with its id and references, a changed field set
 * back only where nobody changed it since (conflicts reported, and overwritten when forced); the
 * revert is an operation itself (reverted in turn), emits the ordinary events, answers the same
 * revert when repeated, runs large reverts in the background with progress, and never loses a
 * write that races it.
 */
import { describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { targets } from '../helpers/databases.ts'
import { addMember, appPerFile, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { runImports, startImport } from '../imports/helpers.ts'

describe.each(await targets())('reverting operations on %s', (target) => {
  const ctx = appPerFile(target)

  async function send(member: Member, method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: Record<string, unknown>) {
    const res = await member.request({ method, url: `/api/v1${url}`, ...(payload === undefined ? {} : { payload }) })
    expect(res.statusCode, res.body).toBeLessThan(300)
    return res.statusCode === 204 ? null : json(res)
  }

  /** The operation of the member's latest write. */
  async function latestOperation(member: Member): Promise<Record<string, any>> {
    return json(await member.request({ url: '/api/v1/operations?limit=1' })).data[0]
  }

  async function revert(member: Member, operationId: string, force = false) {
    const res = await member.request({ method: 'POST', url: `/api/v1/operations/${operationId}/revert`, payload: force ? { force } : {} })
    expect(res.statusCode, res.body).toBe(202)
    return json(res).data
  }

  async function settled(member: Member, operationId: string): Promise<Record<string, any>> {
    for (let i = 0; i < 600; i++) {
      const status = json(await member.request({ url: `/api/v1/operations/${operationId}/revert` })).data
      if (status.state !== 'running') return status
      await new Promise((r) => setTimeout(r, 100))
    }
    throw new Error('revert did not finish')
  }

  const row = async (table: string, id: string) => (await sql<Record<string, any>>`SELECT * FROM ${sql.table(table)} WHERE id = ${id}`.execute(ctx.app.db)).rows[0] ?? null

  it('sets back the fields of a request, as an operation of its own that emits events; a repeat answers the same revert', async () => {
    const admin = await createOrgWithAdmin(ctx.app)
    const account = await send(admin, 'POST', '/accounts', { name: 'Acme', phone: '1' })
    await send(admin, 'PATCH', `/accounts/${account.id}`, { name: 'Acme 2', phone: '2' })
    const op = await latestOperation(admin)
    const status = await revert(admin, op.id)
    expect(status).toMatchObject({ reverts: op.id, state: 'succeeded', progress: { done: 1, total: 1 }, conflicts: [], reverted: 1 })
    expect(await row('accounts', account.id)).toMatchObject({ name: 'Acme', phone: '1' })
    expect(await revert(admin, op.id)).toEqual(status)
    expect(json(await admin.request({ url: `/api/v1/operations/${op.id}/revert` })).data).toEqual(status)
    const events = json(await admin.request({ url: `/api/v1/accounts/${account.id}/events` })).data
    expect(events[0]).toMatchObject({ type: 'account.updated', operation_id: status.operation_id, data: { previous: { name: 'Acme 2', phone: '2' } } })
    const [revertOp, original] = json(await admin.request({ url: '/api/v1/operations?limit=2' })).data
    expect(revertOp).toMatchObject({ id: status.operation_id, reverts: op.id, counts: { updated: 1 }, revert: status })
    expect(original).toMatchObject({ id: op.id, reverted_by: status.operation_id })
    const history = json(await admin.request({ url: `/api/v1/accounts/${account.id}/history` })).data
    expect(history[0]).toMatchObject({ action: 'updated', operation_id: status.operation_id, changes: expect.arrayContaining([{ field: 'name', label: 'Name', old: 'Acme 2', new: 'Acme' }]) })
  })

  it('deletes what a batch created, and the revert of that revert brings the same records back', async () => {
    const admin = await createOrgWithAdmin(ctx.app)
    const res = await admin.request({ method: 'POST', url: '/api/v1/accounts/batch', payload: { operation: 'create', records: [{ name: 'A', phone: '1' }, { name: 'B' }] } })
    expect(res.statusCode, res.body).toBeLessThan(300)
    const ids: string[] = json(res).data.map((r: any) => r.id)
    const batchOp = await latestOperation(admin)
    expect(batchOp.counts.created).toBe(2)
    const first = await revert(admin, batchOp.id)
    expect(first).toMatchObject({ state: 'succeeded', reverted: 2, conflicts: [] })
    for (const id of ids) expect(await row('accounts', id)).toBeNull()
    const deleted = json(await admin.request({ url: '/api/v1/accounts/deleted' })).data.map((d: any) => d.id)
    expect(deleted.sort()).toEqual([...ids].sort())

    const second = await revert(admin, first.operation_id)
    expect(second).toMatchObject({ reverts: first.operation_id, state: 'succeeded', reverted: 2, conflicts: [] })
    expect(await row('accounts', ids[0])).toMatchObject({ name: 'A', phone: '1' })
    expect(await row('accounts', ids[1])).toMatchObject({ name: 'B' })
    expect(json(await admin.request({ url: '/api/v1/accounts/deleted' })).data).toEqual([])
    const history = json(await admin.request({ url: `/api/v1/accounts/${ids[0]}/history` })).data
    expect(history.map((e: any) => e.action)).toEqual(['restored', 'deleted', 'created'])
  })

  it('restores a deleted record with its id, and the references the delete cleared', async () => {
    const admin = await createOrgWithAdmin(ctx.app)
    const account = await send(admin, 'POST', '/accounts', { name: 'Parent' })
    const contact = await send(admin, 'POST', '/contacts', { last_name: 'Child', account_id: account.id })
    await send(admin, 'DELETE', `/accounts/${account.id}`)
    expect(await row('contacts', contact.id)).toMatchObject({ account_id: null })
    const status = await revert(admin, (await latestOperation(admin)).id)
    expect(status).toMatchObject({ state: 'succeeded', reverted: 2, conflicts: [] })
    expect(await row('accounts', account.id)).toMatchObject({ name: 'Parent' })
    expect(await row('contacts', contact.id)).toMatchObject({ account_id: account.id })
    const got = await admin.request({ url: `/api/v1/accounts/${account.id}` })
    expect(got.statusCode).toBe(200)
    expect(json(got).created_at).toBe(account.created_at)
  })

  it('leaves alone what was changed since and reports it; forced, sets it back too', async () => {
    const admin = await createOrgWithAdmin(ctx.app)
    const account = await send(admin, 'POST', '/accounts', { name: 'Acme', phone: '1' })
    await send(admin, 'PATCH', `/accounts/${account.id}`, { name: 'Acme 2', phone: '2' })
    const op = await latestOperation(admin)
    await send(admin, 'PATCH', `/accounts/${account.id}`, { name: 'Acme 3' })
    const created = await send(admin, 'POST', '/contacts', { last_name: 'New' })
    const createOp = await latestOperation(admin)
    await send(admin, 'PATCH', `/contacts/${created.id}`, { title: 'Boss' })

    const status = await revert(admin, op.id)
    expect(status).toMatchObject({ state: 'succeeded', reverted: 1, conflicts: [{ kind: 'account', record_id: account.id, field: 'name', reason: 'changed_since' }] })
    expect(await row('accounts', account.id)).toMatchObject({ name: 'Acme 3', phone: '1' })
    const kept = await revert(admin, createOp.id)
    expect(kept).toMatchObject({ reverted: 0, conflicts: [{ kind: 'contact', record_id: created.id, reason: 'changed_since' }] })
    expect(await row('contacts', created.id)).not.toBeNull()

    // Forced: a second set of the same kind of operations, reverted with force.
    await send(admin, 'PATCH', `/accounts/${account.id}`, { name: 'Acme 4' })
    const op2 = await latestOperation(admin)
    await send(admin, 'PATCH', `/accounts/${account.id}`, { name: 'Acme 5' })
    expect(await revert(admin, op2.id, true)).toMatchObject({ state: 'succeeded', reverted: 1, conflicts: [] })
    expect(await row('accounts', account.id)).toMatchObject({ name: 'Acme 3' })
    const other = await send(admin, 'POST', '/contacts', { last_name: 'Other' })
    const otherOp = await latestOperation(admin)
    await send(admin, 'PATCH', `/contacts/${other.id}`, { title: 'Boss' })
    expect(await revert(admin, otherOp.id, true)).toMatchObject({ reverted: 1, conflicts: [] })
    expect(await row('contacts', other.id)).toBeNull()
  })

  it('lets a member revert only their own operations; 404 for an unknown one', async () => {
    const admin = await createOrgWithAdmin(ctx.app)
    const member = await addMember(ctx.app, admin.orgId)
    await send(admin, 'POST', '/accounts', { name: 'Admin-made' })
    const adminOp = await latestOperation(admin)
    const denied = await member.request({ method: 'POST', url: `/api/v1/operations/${adminOp.id}/revert`, payload: {} })
    expect(denied.statusCode).toBe(403)
    expect(denied.headers['content-type']).toMatch(/problem\+json/)
    await send(member, 'POST', '/accounts', { name: 'Member-made' })
    expect(await revert(member, (await latestOperation(member)).id)).toMatchObject({ state: 'succeeded', reverted: 1 })
    const unknown = await admin.request({ method: 'POST', url: '/api/v1/operations/0190aaaa-0000-7000-8000-000000000000/revert', payload: {} })
    expect(unknown.statusCode).toBe(404)
    const none = await admin.request({ url: `/api/v1/operations/${adminOp.id}/revert` })
    expect(none.statusCode).toBe(404)
  })

  it('reverts a CSV import run in the background with progress, and loses no write racing it', async () => {
    const admin = await createOrgWithAdmin(ctx.app)
    const rows = 1200
    const csv = 'Last Name,Email\r\n' + Array.from({ length: rows }, (_, i) => `Person ${i},p${i}@example.com\r\n`).join('')
    const started = await startImport(admin, { kind: 'contacts' }, csv)
    expect(started.statusCode, started.body).toBe(202)
    const importId = json(started).id
    // The app's own runner may have claimed the import first: then it finishes it, and we wait.
    await runImports(ctx.app, target)
    for (let i = 0; i < 600 && json(await admin.request({ url: `/api/v1/imports/${importId}` })).status !== 'completed'; i++) await new Promise((r) => setTimeout(r, 100))
    expect(json(await admin.request({ url: `/api/v1/imports/${importId}` }))).toMatchObject({ status: 'completed', created: rows })
    const imported = (await sql<{ id: string }>`SELECT id FROM contacts WHERE org_id = ${admin.orgId} ORDER BY id`.execute(ctx.app.db)).rows.map((r) => r.id)
    expect(imported).toHaveLength(rows)
    const op = json(await admin.request({ url: `/api/v1/operations/${importId}` }))
    expect(op).toMatchObject({ channel: 'import', counts: { created: rows }, kinds: ['contact'] })

    const status = await revert(admin, importId)
    expect(status.progress.total).toBe(rows)
    // Writes racing the revert: each either lands before the revert reaches its record (which is
    // then kept and reported) or finds the record gone; none is lost silently.
    const racing = imported.filter((_, i) => i % 100 === 7)
    const patched = await Promise.all(racing.map((id) => admin.request({ method: 'PATCH', url: `/api/v1/contacts/${id}`, payload: { title: 'Raced' } })))
    const done = await settled(admin, importId)
    expect(done).toMatchObject({ state: 'succeeded', progress: { done: rows, total: rows } })
    const conflicted = new Set(done.conflicts.map((c: any) => c.record_id))
    for (const [i, id] of racing.entries()) {
      const code = patched[i].statusCode
      expect([200, 404], patched[i].body).toContain(code)
      const left = await row('contacts', id)
      if (code === 200) {
        expect(left).toMatchObject({ title: 'Raced' })
        expect(conflicted.has(id)).toBe(true)
      } else expect(left).toBeNull()
    }
    const remaining = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM contacts WHERE org_id = ${admin.orgId}`.execute(ctx.app.db)).rows[0].n
    expect(remaining).toBe(conflicted.size)
    expect(done.reverted).toBe(rows - conflicted.size)
  })
})
