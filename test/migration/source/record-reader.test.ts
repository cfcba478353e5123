// readPages against the simulator: both modes hand over every record exactly once, resume from a
// stored checkpoint with no gap, Bulk continues a stored job (or re-creates a stale one from
// after_id), records look like the REST JSON in both modes, and the reader stays one page ahead.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { SourceSim } from '../../../tools/source-sim/main.ts'
import type { SourceConnection } from '../../../src/migration/source/source-connection.ts'
import { readPages, type ReadPage } from '../../../src/migration/source/record-reader.ts'
import type { ReadCheckpoint } from '../../../src/migration/migration.types.ts'
import { allIds, allowLoopback, connectByOAuth, FAST_POLL, idsOf, open, readAll, startSim } from './helpers.ts'

let sim: SourceSim
let sc: SourceConnection

const CONTACT_FIELDS = ['Id', 'FirstName', 'LastName', 'Email', 'HasOptedOutOfEmail', 'Birthdate', 'CreatedDate', 'AccountId', 'Account.Name', 'Description']
const CONTACT_TYPES: Record<string, string> = {
  Id: 'id', FirstName: 'string', LastName: 'string', Email: 'email', HasOptedOutOfEmail: 'boolean', Birthdate: 'date', CreatedDate: 'datetime',
  AccountId: 'reference', 'Account.Name': 'string', Description: 'textarea',
}
const ACCOUNT_FIELDS = ['Name', 'AnnualRevenue', 'NumberOfEmployees', 'acme__Health_Score__c', 'IsDeleted', 'Industry', 'LastActivityDate']
const ACCOUNT_TYPES: Record<string, string> = { Id: 'id', Name: 'string', AnnualRevenue: 'currency', NumberOfEmployees: 'int', acme__Health_Score__c: 'double', IsDeleted: 'boolean', Industry: 'picklist', LastActivityDate: 'date' }

beforeAll(async () => {
  allowLoopback()
  sim = await startSim()
  sc = await open(await connectByOAuth(sim))
})
afterAll(() => sim?.close())

/** Empty strings and null are the same thing to Bulk CSV (and to the platform, which stores no empty strings). */
const emptyAsNull = (r: Record<string, unknown>) => JSON.parse(JSON.stringify(r, (_k, v) => (v === '' ? null : v)))

describe.each(['rest', 'bulk'] as const)('readPages (%s)', (mode) => {
  it.each([['Contact', 200], ['CaseComment', 300], ['Account', 1000]] as const)('reads every %s record exactly once (pages of %i)', async (object, batchSize) => {
    const pages = await readAll(sc, { object, fields: ['Id'], fieldTypes: { Id: 'id' }, checkpoint: { after_id: null }, mode, batchSize })
    const ids = idsOf(pages)
    expect(ids.length).toBe(await sc.count(object))
    expect(new Set(ids).size).toBe(ids.length)
    expect([...ids].sort()).toEqual(await allIds(sc, object))
    expect(pages.every((p) => p.records.length <= batchSize)).toBe(true)
    const last = pages[pages.length - 1].checkpoint
    expect(last).toEqual({ after_id: [...ids].sort().at(-1), bulk: null })
  })

  it('resumes from a mid-way checkpoint with no gap and no overlap', async () => {
    const first: ReadPage[] = []
    for await (const page of readPages(sc, { object: 'Contact', fields: ['LastName'], fieldTypes: CONTACT_TYPES, checkpoint: { after_id: null }, mode, batchSize: 200, bulkPoll: FAST_POLL })) {
      first.push(page)
      if (first.length === 2) break // the process dies here; the second page's checkpoint was stored
    }
    const stored = first[1].checkpoint
    const rest = await readAll(sc, { object: 'Contact', fields: ['LastName'], fieldTypes: CONTACT_TYPES, checkpoint: stored, mode, batchSize: 200 })
    const ids = [...idsOf(first), ...idsOf(rest)]
    expect(new Set(ids).size).toBe(ids.length)
    expect([...ids].sort()).toEqual(await allIds(sc, 'Contact'))
  })

  it('records come without attributes, typed like the REST JSON, parents nested', async () => {
    const pages = await readAll(sc, { object: 'Contact', fields: CONTACT_FIELDS, fieldTypes: CONTACT_TYPES, checkpoint: { after_id: null }, mode, batchSize: 500 })
    const records = pages.flatMap((p) => p.records)
    expect(records.length).toBe(750)
    const r = records.find((x) => x.Account !== null && x.Birthdate !== null)!
    expect(r).not.toHaveProperty('attributes')
    expect(Object.keys(r).sort()).toEqual(['Account', 'AccountId', 'Birthdate', 'CreatedDate', 'Description', 'Email', 'FirstName', 'HasOptedOutOfEmail', 'Id', 'LastName'])
    expect(typeof r.HasOptedOutOfEmail).toBe('boolean')
    expect(r.Birthdate).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(r.CreatedDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+0000$/)
    expect(r.Account).toEqual({ Name: expect.any(String) })
    expect(records.some((x) => x.Account === null)).toBe(true)
  })

  it('an object read from after its last id yields no records', async () => {
    const ids = await allIds(sc, 'Product2')
    const pages = await readAll(sc, { object: 'Product2', fields: ['Name'], fieldTypes: { Name: 'string' }, checkpoint: { after_id: ids.at(-1)! }, mode })
    expect(idsOf(pages)).toEqual([])
  })
})

describe('REST and Bulk agree', () => {
  it.each([
    ['Contact', CONTACT_FIELDS, CONTACT_TYPES],
    ['Account', ACCOUNT_FIELDS, ACCOUNT_TYPES],
  ] as const)('%s: the same values in both modes (Bulk numbers, booleans and nulls typed from the describe)', async (object, fields, fieldTypes) => {
    const read = async (mode: 'rest' | 'bulk') => {
      const pages = await readAll(sc, { object, fields: [...fields], fieldTypes, checkpoint: { after_id: null }, mode, batchSize: 2000 })
      return new Map(pages.flatMap((p) => p.records).map((r) => [r.Id, emptyAsNull(r)]))
    }
    const rest = await read('rest')
    const bulk = await read('bulk')
    expect(bulk.size).toBe(rest.size)
    for (const [id, r] of rest) expect(bulk.get(id)).toEqual(r)
  })
})

describe('Bulk checkpoints', () => {
  const jobState = (id: string) => sc.request<{ state: string }>('job', sc.path(`/jobs/query/${id}`)).then((j) => j.state, (e: Error) => e.message)

  it('while the job runs, after_id stays its lower bound and the checkpoint carries the job id and next locator', async () => {
    const lower = (await allIds(sc, 'Contact'))[99]
    const pages = await readAll(sc, { object: 'Contact', fields: ['Id'], fieldTypes: {}, checkpoint: { after_id: lower }, mode: 'bulk', batchSize: 200 })
    expect(idsOf(pages).length).toBe(650)
    const running = pages.slice(0, -1).map((p) => p.checkpoint)
    expect(running.length).toBe(3)
    const jobId = running[0].bulk!.job_id
    expect(jobId).toMatch(/^750/)
    for (const c of running) expect(c).toEqual({ after_id: lower, bulk: { job_id: jobId, locator: expect.any(String) } })
    expect(new Set(running.map((c) => c.bulk!.locator)).size).toBe(3)
    expect(pages.at(-1)!.checkpoint.bulk).toBeNull()
    // Deleted once the consumer pulled past the last page.
    expect(await jobState(jobId)).toMatch(/NOT_FOUND/)
  })

  it('a stored job id + locator continues that job', async () => {
    const first: ReadPage[] = []
    for await (const page of readPages(sc, { object: 'CaseComment', fields: ['Id'], fieldTypes: {}, checkpoint: { after_id: null }, mode: 'bulk', batchSize: 300, bulkPoll: FAST_POLL })) {
      first.push(page)
      if (first.length === 2) break
    }
    const stored: ReadCheckpoint = first[1].checkpoint
    expect(stored.bulk?.job_id).toBeTruthy()
    expect(await jobState(stored.bulk!.job_id)).toBe('JobComplete') // left for the resumed run
    const request = vi.spyOn(sc, 'request')
    try {
      const rest = await readAll(sc, { object: 'CaseComment', fields: ['Id'], fieldTypes: {}, checkpoint: stored, mode: 'bulk', batchSize: 300 })
      // No new job was created, and every running checkpoint names the stored one.
      expect(request.mock.calls.filter(([, req]) => typeof req === 'object' && req.method === 'POST')).toEqual([])
      for (const p of rest.slice(0, -1)) expect(p.checkpoint.bulk?.job_id).toBe(stored.bulk!.job_id)
      const ids = [...idsOf(first), ...idsOf(rest)]
      expect(new Set(ids).size).toBe(ids.length)
      expect([...ids].sort()).toEqual(await allIds(sc, 'CaseComment'))
    } finally {
      request.mockRestore()
    }
  })

  it('a stale job id is re-created from after_id', async () => {
    const all = await allIds(sc, 'Contact')
    const after = all[299]
    const stale: ReadCheckpoint = { after_id: after, bulk: { job_id: '7505g0000000ZZZAAA', locator: 'MjAw' } }
    const pages = await readAll(sc, { object: 'Contact', fields: ['Id'], fieldTypes: {}, checkpoint: stale, mode: 'bulk', batchSize: 200 })
    const ids = idsOf(pages)
    expect([...ids].sort()).toEqual(all.slice(300))
    expect(pages[0].checkpoint.bulk?.job_id).not.toBe('7505g0000000ZZZAAA')
  })

  it('a stored locator the job no longer accepts re-creates the job from after_id', async () => {
    const first: ReadPage[] = []
    for await (const page of readPages(sc, { object: 'Contact', fields: ['Id'], fieldTypes: {}, checkpoint: { after_id: null }, mode: 'bulk', batchSize: 200, bulkPoll: FAST_POLL })) {
      first.push(page)
      break
    }
    const broken: ReadCheckpoint = { after_id: null, bulk: { job_id: first[0].checkpoint.bulk!.job_id, locator: 'bm90LWEtbnVtYmVy' } }
    const ids = idsOf(await readAll(sc, { object: 'Contact', fields: ['Id'], fieldTypes: {}, checkpoint: broken, mode: 'bulk', batchSize: 200 }))
    expect([...ids].sort()).toEqual(await allIds(sc, 'Contact'))
  })

  it('a REST checkpoint read in Bulk mode (and back) keeps its meaning', async () => {
    const all = await allIds(sc, 'Lead')
    const viaBulk = idsOf(await readAll(sc, { object: 'Lead', fields: ['Id'], fieldTypes: {}, checkpoint: { after_id: all[10], bulk: null }, mode: 'bulk' }))
    expect([...viaBulk].sort()).toEqual(all.slice(11))
    const viaRest = idsOf(await readAll(sc, { object: 'Lead', fields: ['Id'], fieldTypes: {}, checkpoint: { after_id: all[10], bulk: { job_id: '7505g0000000ZZZAAA', locator: null } }, mode: 'rest' }))
    expect(viaRest).toEqual(all.slice(11))
  })
})

describe('backpressure', () => {
  it.each(['rest', 'bulk'] as const)('%s: fetches one page ahead of the consumer, never more', async (mode) => {
    const request = vi.spyOn(sc, 'request')
    const requestText = vi.spyOn(sc, 'requestText')
    const pageCalls = () => (mode === 'rest' ? request.mock.calls.filter(([what]) => what.startsWith('reading Contact records')).length : requestText.mock.calls.length)
    try {
      const it = readPages(sc, { object: 'Contact', fields: ['Id'], fieldTypes: {}, checkpoint: { after_id: null }, mode, batchSize: 200, bulkPoll: FAST_POLL })[Symbol.asyncIterator]()
      await it.next()
      await new Promise((r) => setTimeout(r, 150)) // the consumer is slow
      expect(pageCalls()).toBe(2)
      await it.next()
      await new Promise((r) => setTimeout(r, 150))
      expect(pageCalls()).toBe(3)
      await it.return?.()
    } finally {
      request.mockRestore()
      requestText.mockRestore()
    }
  })

  it('without prefetch, fetches only what was pulled', async () => {
    const request = vi.spyOn(sc, 'request')
    try {
      const it = readPages(sc, { object: 'Contact', fields: ['Id'], fieldTypes: {}, checkpoint: { after_id: null }, mode: 'rest', batchSize: 200, prefetch: false })[Symbol.asyncIterator]()
      await it.next()
      await new Promise((r) => setTimeout(r, 100))
      expect(request.mock.calls.length).toBe(1)
      await it.return?.()
    } finally {
      request.mockRestore()
    }
  })
})
