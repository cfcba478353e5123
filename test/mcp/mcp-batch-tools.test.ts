/**
 * batch_write_records and upsert_record through the SDK client over HTTP: every operation, all or
 * nothing with each failing item named by index and field, answers as the token may read them,
 * the usual change events, `created` for upserts, and upserts racing on one src_id writing one record.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { targets } from '../helpers/databases.ts'
import { call, callConfirmed, callError, connectWithToken, mcpWorldPerFile, postMcp, recordChangesPerTest, rpc, tokenFor } from './helpers.ts'

const stub = ['created_at', 'id', 'updated_at']

describe.each(await targets())('MCP batch and upsert tools on %s', (target) => {
  const world = mcpWorldPerFile(target)
  let client: Client
  const changes = recordChangesPerTest(world)
  /** The changes so far as `action kind`, each in organization A (asserted), then forgotten. */
  const events = () => {
    expect(changes.every((c) => c.org === world.a.orgId)).toBe(true)
    return changes.splice(0).map((c) => `${c.action} ${c.kind}`)
  }
  beforeEach(async () => {
    client = await connectWithToken(world.mcpUrl, await tokenFor(world, 'a', 'crm:read crm:write erp:read'))
  })
  afterEach(async () => {
    await client?.close()
  })
  const rest = (method: 'GET' | 'POST', url: string, payload?: object) => world.a.request({ method, url: `/api/v1${url}`, ...(payload ? { payload } : {}) })
  const listed = async (path: string) => JSON.parse((await rest('GET', `${path}?limit=200`)).body).data as any[]
  const srcIdRows = async (srcId: string) =>
    Number((await sql<{ n: string }>`SELECT count(*) AS n FROM accounts WHERE org_id = ${world.a.orgId} AND src_id = ${srcId}`.execute(world.svc.app.db)).rows[0].n)

  it('creates, updates, upserts and deletes in batches, answering each item in input order', async () => {
    const created = await call(client, 'batch_write_records', { kind: 'account', operation: 'create', records: [{ name: 'Acme', src_id: 'A-1' }, { name: 'Globex', industry: 'Energy' }] })
    expect(created).toMatchObject({ kind: 'account', operation: 'create', count: 2, counts: { created: 2, updated: 0, deleted: 0 } })
    expect(created.items.map((i: any) => [i.index, i.outcome, i.record.name])).toEqual([[0, 'created', 'Acme'], [1, 'created', 'Globex']])
    const [acme, globex] = created.items.map((i: any) => i.id)
    expect(created.items[0].record).toMatchObject({ id: acme, src_id: 'A-1' })

    const updated = await call(client, 'batch_write_records', { kind: 'account', operation: 'update', records: [{ id: globex, industry: null }, { id: acme, name: 'Acme Corp' }] })
    expect(updated.items.map((i: any) => [i.id, i.outcome])).toEqual([[globex, 'updated'], [acme, 'updated']])
    expect(updated.items[0].record.industry).toBeNull()

    const upserted = await call(client, 'batch_write_records', { kind: 'account', operation: 'upsert', records: [{ src_id: 'A-2', name: 'Initech' }, { src_id: 'A-1', name: 'Acme Inc' }] })
    expect(upserted.counts).toEqual({ created: 1, updated: 1, deleted: 0 })
    expect(upserted.items[1]).toMatchObject({ index: 1, id: acme, outcome: 'updated', record: { name: 'Acme Inc' } })
    expect(upserted.items[0].outcome).toBe('created')

    const deleted = await callConfirmed(client, 'batch_write_records', { kind: 'account', operation: 'delete', records: [{ id: acme }, { id: globex }] })
    expect(deleted).toEqual({ kind: 'account', operation: 'delete', count: 2, counts: { created: 0, updated: 0, deleted: 2 }, items: [{ index: 0, id: acme, outcome: 'deleted' }, { index: 1, id: globex, outcome: 'deleted' }] })
    expect((await listed('/accounts')).map((a) => a.name)).toEqual(['Initech'])

    expect(events()).toEqual(['created account', 'created account', 'updated account', 'updated account', 'created account', 'updated account', 'deleted account', 'deleted account'])
  })

  it('writes case comments under the case named by case_id', async () => {
    const kase = await call(client, 'create_record', { kind: 'case', fields: { subject: 'Jammed' } })
    const other = await call(client, 'create_record', { kind: 'case', fields: { subject: 'Other' } })
    const comments = await call(client, 'batch_write_records', { kind: 'case_comment', case_id: kase.id, operation: 'create', records: [{ body: 'first' }, { body: 'second', is_public: true }] })
    expect(comments.items.map((i: any) => i.record.case_id)).toEqual([kase.id, kase.id])
    expect((await listed(`/cases/${kase.id}/comments`)).map((c) => c.body)).toEqual(['first', 'second'])
    const elsewhere = await callError(client, 'batch_write_records', { kind: 'case_comment', case_id: other.id, operation: 'update', records: [{ id: comments.items[0].id, body: 'moved' }] })
    expect(elsewhere.errors).toEqual([{ index: 0, field: 'records[0].id', message: 'is not the id of a case comment of this organization on this case' }])
    expect((await callError(client, 'batch_write_records', { kind: 'case_comment', operation: 'create', records: [{ body: 'x' }] })).errors).toEqual([{ field: 'case_id', message: 'is required for kind case_comment' }])
    expect((await callError(client, 'batch_write_records', { kind: 'account', case_id: kase.id, operation: 'create', records: [{ name: 'x' }] })).errors).toEqual([{ field: 'case_id', message: 'is only for kind case_comment' }])
    expect(await callError(client, 'batch_write_records', { kind: 'case_comment', case_id: '01900000-0000-7000-8000-000000000000', operation: 'create', records: [{ body: 'x' }] })).toMatchObject({ status: 404, code: 'not_found' })
    const upserted = await call(client, 'upsert_record', { kind: 'case_comment', case_id: kase.id, src_id: 'C-1', fields: { body: 'imported' } })
    expect(upserted).toMatchObject({ created: true, record: { case_id: kase.id, src_id: 'C-1', body: 'imported' } })
  })

  it('writes nothing when any item fails, and names every failing item by index and field', async () => {
    const theirs = JSON.parse((await world.b.request({ method: 'POST', url: '/api/v1/accounts', payload: { name: 'Theirs' } })).body)
    changes.length = 0 // organization B's own write
    const refused = await callError(client, 'batch_write_records', {
      kind: 'contact',
      operation: 'create',
      records: [{ last_name: 'Fine' }, { first_name: 'No last name' }, { last_name: 'Bad', email: 'not-an-email', colour: 'red' }, { last_name: 'Elsewhere', account_id: theirs.id }, 'not an object'],
    })
    expect(refused).toMatchObject({ status: 400, code: 'validation_failed' })
    expect(refused.errors).toEqual([
      { index: 1, field: 'records[1].last_name', message: 'is required' },
      { index: 2, field: 'records[2].colour', message: 'is not a known field' },
      { index: 2, field: 'records[2].email', message: 'must be a valid email' },
      { index: 4, field: 'records[4]', message: 'must be object' },
    ])
    expect(refused.detail).toMatch(/^3 of the batch's records cannot be written, so none was: records\[1\]\.last_name is required/)
    expect(refused.text).toContain('- records[1].last_name: is required')
    expect(refused.text).toContain('- records[4]: must be object')

    // Checks that need the database come after the items' own checks, with the same naming.
    const unknownRef = await callError(client, 'batch_write_records', { kind: 'contact', operation: 'create', records: [{ last_name: 'Fine' }, { last_name: 'Elsewhere', account_id: theirs.id }] })
    expect(unknownRef.errors).toEqual([{ index: 1, field: 'records[1].account_id', message: expect.any(String) }])
    const [mine] = (await call(client, 'batch_write_records', { kind: 'account', operation: 'create', records: [{ name: 'Mine' }] })).items
    events()
    const updates = await callError(client, 'batch_write_records', { kind: 'account', operation: 'update', records: [{ id: mine.id, name: 'Renamed' }, { id: theirs.id, name: 'Stolen' }, { id: mine.id, name: 'Twice' }] })
    expect(updates.errors).toEqual([{ index: 2, field: 'records[2].id', message: 'is the same as records[0].id: a batch writes each record once' }])
    const others = await callError(client, 'batch_write_records', { kind: 'account', operation: 'update', records: [{ id: mine.id, name: 'Renamed' }, { id: theirs.id, name: 'Stolen' }] })
    expect(others.errors).toEqual([{ index: 1, field: 'records[1].id', message: 'is not the id of an account of this organization' }])
    const upserts = await callError(client, 'batch_write_records', { kind: 'account', operation: 'upsert', records: [{ name: 'No src_id' }] })
    expect(upserts.errors).toEqual([{ index: 0, field: 'records[0].src_id', message: 'is required' }])

    // The batch's own bounds are argument errors.
    expect((await callError(client, 'batch_write_records', { kind: 'account', operation: 'create', records: [] })).errors).toEqual([{ field: 'records', message: 'must NOT have fewer than 1 items' }])
    const tooMany = Array.from({ length: 1001 }, (_, i) => ({ name: `N${i}` }))
    expect((await callError(client, 'batch_write_records', { kind: 'account', operation: 'create', records: tooMany })).errors).toEqual([{ field: 'records', message: 'must NOT have more than 1000 items' }])
    expect((await callError(client, 'batch_write_records', { kind: 'account', operation: 'merge', records: [{ name: 'x' }] })).errors?.[0].field).toBe('operation')

    expect((await listed('/contacts')).length).toBe(0)
    expect((await listed('/accounts')).map((a) => a.name)).toEqual(['Mine'])
    expect(events()).toEqual([])
  })

  it('answers as the token may read: only id and times without crm:read, amounts null without erp:read; crm:write is needed', async () => {
    const writeOnly = await connectWithToken(world.mcpUrl, await tokenFor(world, 'a', 'crm:write'))
    const noErp = await connectWithToken(world.mcpUrl, await tokenFor(world, 'a', 'crm:read crm:write'))
    try {
      const batch = await call(writeOnly, 'batch_write_records', { kind: 'opportunity', operation: 'create', records: [{ name: 'Secret', amount: '75000.00' }, { name: 'Also secret' }] })
      for (const item of batch.items) expect(Object.keys(item.record).sort()).toEqual(stub)
      const upserted = await call(writeOnly, 'upsert_record', { kind: 'account', src_id: 'W-1', fields: { name: 'Write only' } })
      expect(upserted.created).toBe(true)
      expect(Object.keys(upserted.record).sort()).toEqual(stub)
      const products = await call(noErp, 'batch_write_records', { kind: 'product', operation: 'create', records: [{ name: 'SKU', unit_price: '12.00' }] })
      expect(Object.keys(products.items[0].record).sort()).toEqual(stub)

      const hidden = await call(noErp, 'batch_write_records', { kind: 'opportunity', operation: 'update', records: batch.items.map((i: any) => ({ id: i.id, stage: 'proposal' })) })
      expect(hidden.items.map((i: any) => [i.record.stage, i.record.amount])).toEqual([['proposal', null], ['proposal', null]])
      expect((await call(noErp, 'upsert_record', { kind: 'opportunity', src_id: 'O-1', fields: { name: 'Big', amount: '9.99' } })).record).toMatchObject({ name: 'Big', amount: null })
      expect((await call(client, 'get_record', { kind: 'opportunity', id: batch.items[0].id })).amount).toBe('75000.00')
    } finally {
      await writeOnly.close()
      await noErp.close()
    }
    const readOnly = await tokenFor(world, 'a', 'crm:read')
    const call403 = await postMcp(world.mcpUrl, rpc('tools/call', { name: 'batch_write_records', arguments: { kind: 'account', operation: 'create', records: [{ name: 'x' }] } }), { authorization: `Bearer ${readOnly}` })
    expect(call403.status).toBe(403)
    expect(call403.headers.get('www-authenticate')).toContain('insufficient_scope')
    const upsert403 = await postMcp(world.mcpUrl, rpc('tools/call', { name: 'upsert_record', arguments: { kind: 'account', src_id: 'x', fields: { name: 'x' } } }), { authorization: `Bearer ${readOnly}` })
    expect(upsert403.status).toBe(403)
  })

  it('upsert_record creates then updates (created true, then false), and says which argument is wrong', async () => {
    const first = await call(client, 'upsert_record', { kind: 'account', src_id: 'EXT-1', fields: { name: 'Acme', industry: 'Machinery' } })
    expect(first).toMatchObject({ created: true, record: { name: 'Acme', industry: 'Machinery', src_id: 'EXT-1' } })
    const second = await call(client, 'upsert_record', { kind: 'account', src_id: 'EXT-1', fields: { name: 'Acme Corp', src_id: 'EXT-1' } })
    expect(second).toMatchObject({ created: false, record: { id: first.record.id, name: 'Acme Corp', industry: 'Machinery' } })
    expect(events()).toEqual(['created account', 'updated account'])

    expect((await callError(client, 'upsert_record', { kind: 'account', src_id: 'EXT-2', fields: {} })).errors).toEqual([{ field: 'fields.name', message: 'is required' }])
    expect((await callError(client, 'upsert_record', { kind: 'account', src_id: 'EXT-1', fields: { name: 'x', src_id: 'OTHER' } })).errors).toEqual([{ field: 'fields.src_id', message: 'must equal the src_id argument' }])
    expect((await callError(client, 'upsert_record', { kind: 'account', src_id: '', fields: { name: 'x' } })).errors?.[0].field).toBe('src_id')
    const ref = await callError(client, 'upsert_record', { kind: 'contact', src_id: 'P-1', fields: { last_name: 'Orphan', account_id: '01900000-0000-7000-8000-000000000000' } })
    expect(ref.errors).toEqual([{ field: 'fields.account_id', message: expect.any(String) }])
    expect(ref.detail).toMatch(/^Invalid arguments: fields\.account_id /)
    expect(events()).toEqual([])
  })

  it('writes one record when upserts race on one src_id', async () => {
    const racing = await Promise.all(Array.from({ length: 8 }, (_, i) => call(client, 'upsert_record', { kind: 'account', src_id: 'RACE', fields: { name: `Racer ${i}` } })))
    expect(racing.filter((r) => r.created)).toHaveLength(1)
    expect(new Set(racing.map((r) => r.record.id)).size).toBe(1)
    expect(await srcIdRows('RACE')).toBe(1)
    expect(events().sort()).toEqual(['created account', ...Array(7).fill('updated account')])

    const batches = await Promise.all(Array.from({ length: 4 }, (_, i) => call(client, 'batch_write_records', { kind: 'account', operation: 'upsert', records: [{ src_id: 'RACE-B', name: `B${i}` }, { src_id: `OWN-${i}`, name: `Own ${i}` }] })))
    expect(batches.flatMap((b) => b.items.filter((i: any) => i.index === 0 && i.outcome === 'created'))).toHaveLength(1)
    expect(await srcIdRows('RACE-B')).toBe(1)
  })
})
