// The reader under the platform's failures, injected by the simulator: sessions expiring mid-read
// (refreshed with a refresh token, SourceAuthFailed without one), the daily allowance running out
// (SourceQuotaExceeded at once, no retry loop), and 503s, 500s, QUERY_TIMEOUTs and dropped
// connections at a rate (retried; every record still read exactly once).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { SourceSim } from '../../../tools/source-sim/main.ts'
import { readSourceMetadata } from '../../../src/migration/source/metadata-reader.ts'
import { SourceAuthFailed, SourceQuotaExceeded } from '../../../src/migration/source/source-errors.ts'
import { allIds, allowLoopback, connectByOAuth, FAST_RETRY, idsOf, open, readAll, startSim } from './helpers.ts'

let sim: SourceSim
let tokens: Awaited<ReturnType<typeof connectByOAuth>>

beforeAll(async () => {
  allowLoopback()
  sim = await startSim()
  tokens = await connectByOAuth(sim)
})
afterEach(() => sim.control.reset())
afterAll(() => sim?.close())

describe.each(['rest', 'bulk'] as const)('faults while reading (%s)', (mode) => {
  it('a session that expires mid-read is refreshed with the refresh token; onTokenRefresh persists it; reading continues', async () => {
    const saved: string[] = []
    const sc = await open(tokens, { onTokenRefresh: async (token) => { await new Promise((r) => setTimeout(r, 5)); saved.push(token) } })
    const before = sc.conn.accessToken
    const pages = await readAll(sc, { object: 'Contact', fields: ['LastName'], fieldTypes: {}, checkpoint: { after_id: null }, mode, batchSize: 200 }, (_page, i) => {
      if (i === 0) sim.control.expireSessions()
    })
    const ids = idsOf(pages)
    expect(new Set(ids).size).toBe(750)
    expect(saved.length).toBeGreaterThanOrEqual(1)
    expect(saved.at(-1)).toBe(sc.conn.accessToken)
    expect(sc.conn.accessToken).not.toBe(before)
    tokens = { ...tokens, accessToken: sc.conn.accessToken! }
  })

  it('without a refresh token, an expired session is SourceAuthFailed saying to reconnect', async () => {
    const fresh = await connectByOAuth(sim)
    const sc = await open(fresh, { withRefresh: false })
    const err = await readAll(sc, { object: 'Contact', fields: ['LastName'], fieldTypes: {}, checkpoint: { after_id: null }, mode, batchSize: 200 }, (_page, i) => {
      if (i === 0) sim.control.expireSessions()
    }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(SourceAuthFailed)
    expect((err as Error).message).toMatch(/^reading Contact records.*INVALID_SESSION_ID.*there is no refresh token to renew it: reconnect the source$/)
    expect((err as Error).message).not.toContain(fresh.accessToken)
  })

  it('an exhausted daily allowance is SourceQuotaExceeded at once, without retries', async () => {
    const retries: unknown[] = []
    const sc = await open(tokens, { retry: { ...FAST_RETRY, onRetry: (info) => retries.push(info) } })
    const err = await readAll(sc, { object: 'Contact', fields: ['LastName'], fieldTypes: {}, checkpoint: { after_id: null }, mode, batchSize: 200 }, (_page, i) => {
      if (i === 0) sim.control.exhaustAllowance()
    }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(SourceQuotaExceeded)
    expect((err as SourceQuotaExceeded).errorCode).toBe('REQUEST_LIMIT_EXCEEDED')
    expect((err as Error).message).toMatch(/daily API allowance is used up \(REQUEST_LIMIT_EXCEEDED/)
    expect(retries).toEqual([])
  })

  it.each([
    ['503 SERVER_UNAVAILABLE on a quarter of the calls', { errorRate: 0.25, errorStatus: 503 as const }],
    ['500 UNKNOWN_EXCEPTION on a fifth of the calls', { errorRate: 0.2, errorStatus: 500 as const }],
    ['dropped connections on a fifth of the calls', { dropRate: 0.2 }],
    ['QUERY_TIMEOUT on a third of the queries', { queryTimeoutRate: 0.34 }],
    ['dropped connections on every other Bulk job call (job creation POST included)', { dropRate: 0.5, pathContains: '/jobs/query' }],
  ])('%s: retried, every record read exactly once', async (_label, faults) => {
    const retries: string[] = []
    const sc = await open(tokens, { retry: { ...FAST_RETRY, onRetry: (info) => retries.push(info.error.errorCode ?? '?') } })
    const expected = await allIds(sc, 'CaseComment')
    sim.control.setFaults(faults)
    const ids = idsOf(await readAll(sc, { object: 'CaseComment', fields: ['ParentId', 'CommentBody'], fieldTypes: {}, checkpoint: { after_id: null }, mode, batchSize: 200 }))
    sim.control.reset()
    expect(new Set(ids).size).toBe(ids.length)
    expect([...ids].sort()).toEqual(expected)
    if (mode === 'bulk' || !('pathContains' in faults)) expect(retries.length).toBeGreaterThan(0)
  })
})

describe('faults while reading metadata', () => {
  it('automation that cannot be read goes to automation.unavailable; the analysis goes on', async () => {
    const sc = await open(tokens, { retry: { attempts: 2, baseMs: 1, maxMs: 2 } })
    sim.control.setFaults({ errorRate: 1, errorStatus: 500, pathContains: '/tooling/' })
    const m = await readSourceMetadata(sc, { objectsToDescribe: () => ['Account'] })
    expect(m.automation.triggers).toEqual([])
    expect(m.automation.workflow_rules).toEqual([])
    expect(m.automation.flows.length).toBeGreaterThan(0)
    expect(m.automation.unavailable).toEqual([
      expect.stringMatching(/^Apex triggers \(Tooling API\): the source platform is busy or timed out \(UNKNOWN_EXCEPTION: /),
      expect.stringMatching(/^workflow rules \(Tooling API\): the source platform is busy or timed out \(UNKNOWN_EXCEPTION: /),
    ])
    expect(m.counts.Account).toBe(250)
  })

  it('an object whose describe keeps failing is listed in unreadable; the others are read', async () => {
    const sc = await open(tokens, { retry: { attempts: 2, baseMs: 1, maxMs: 2 } })
    sim.control.setFaults({ errorRate: 1, errorStatus: 503, pathContains: '/sobjects/Lead/describe' })
    const m = await readSourceMetadata(sc, { objectsToDescribe: () => ['Account', 'Lead'] })
    expect(Object.keys(m.describes)).toEqual(['Account'])
    expect(m.unreadable).toEqual([{ object: 'Lead', reason: expect.stringMatching(/^describing Lead: .*SERVER_UNAVAILABLE/) }])
  })

  it('an exhausted allowance fails the metadata read with SourceQuotaExceeded', async () => {
    const sc = await open(tokens)
    sim.control.exhaustAllowance()
    await expect(readSourceMetadata(sc, { objectsToDescribe: () => ['Account'] })).rejects.toBeInstanceOf(SourceQuotaExceeded)
  })
})
