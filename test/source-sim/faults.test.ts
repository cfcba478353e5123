// Fault injection through the control endpoint and the in-process control API: exact shares of
// 500/503, QUERY_TIMEOUT, dropped connections, latency, expired sessions and an exhausted allowance.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { api, login, start, token } from './helpers.ts'
import type { SourceSim } from '../../tools/source-sim/main.ts'

let sim: SourceSim
let tok: string
const control = (path: string, body: unknown = {}) =>
  fetch(`${sim.url}/__control/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json())
const limits = () => api(sim, tok, '/services/data/v62.0/limits')

beforeAll(async () => {
  sim = await start({ apiLimit: 1000 })
  tok = await token(sim)
})
afterEach(() => control('reset'))
afterAll(() => sim?.close())

describe('fault injection', () => {
  it('answers 503 SERVER_UNAVAILABLE on exactly the configured share of calls', async () => {
    await control('faults', { errorRate: 0.5, errorStatus: 503 })
    const statuses: number[] = []
    for (let i = 0; i < 10; i++) statuses.push((await limits()).status)
    expect(statuses.filter((s) => s === 503)).toHaveLength(5)
    const r = await (async () => { for (;;) { const x = await limits(); if (x.status === 503) return x } })()
    expect(r.headers.get('content-type')).toMatch(/^application\/json/)
    expect(r.body).toEqual([{ message: expect.any(String), errorCode: 'SERVER_UNAVAILABLE' }])
  })

  it('answers 500 UNKNOWN_EXCEPTION, only on matching paths', async () => {
    await control('faults', { errorRate: 1, errorStatus: 500, pathContains: '/query' })
    expect((await limits()).status).toBe(200)
    const r = await api(sim, tok, `/services/data/v62.0/query?q=${encodeURIComponent('SELECT Id FROM Account')}`)
    expect(r.status).toBe(500)
    expect(r.body[0].errorCode).toBe('UNKNOWN_EXCEPTION')
  })

  it('singles out one kind of call by a pattern over the decoded URL: describeGlobal, one SOQL query', async () => {
    const q = (soql: string) => api(sim, tok, `/services/data/v62.0/query?q=${encodeURIComponent(soql)}`)
    await control('faults', { errorRate: 1, errorStatus: 503, pathPattern: '/sobjects$' })
    expect((await api(sim, tok, '/services/data/v62.0/sobjects')).status).toBe(503)
    expect((await api(sim, tok, '/services/data/v62.0/sobjects/Account/describe')).status).toBe(200)
    await control('faults', { errorRate: 1, errorStatus: 503, pathPattern: 'FROM User\\b' })
    expect((await q('SELECT Id FROM User')).status).toBe(503)
    expect((await q('SELECT Id FROM Account')).status).toBe(200)
    expect((await limits()).status).toBe(200)
    expect(await control('faults', { pathPattern: '(' })).toEqual({ error: expect.stringMatching(/Invalid regular expression/) })
  })

  it('answers QUERY_TIMEOUT on queries', async () => {
    await control('faults', { queryTimeoutRate: 1 })
    const r = await api(sim, tok, `/services/data/v62.0/query?q=${encodeURIComponent('SELECT Id FROM Account')}`)
    expect(r.status).toBe(400)
    expect(r.body).toEqual([{ message: 'Your query request was running for too long.', errorCode: 'QUERY_TIMEOUT' }])
  })

  it('drops connections', async () => {
    sim.control.setFaults({ dropRate: 1 })
    await expect(limits()).rejects.toThrow()
    sim.control.reset()
    expect((await limits()).status).toBe(200)
  })

  it('slows responses (only on matching paths when pathContains is set)', async () => {
    await control('faults', { delayMs: 150 })
    let t0 = performance.now()
    await limits()
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140)
    await control('faults', { delayMs: 500, pathContains: '/query' })
    t0 = performance.now()
    await limits()
    expect(performance.now() - t0).toBeLessThan(400)
    t0 = performance.now()
    await api(sim, tok, `/services/data/v62.0/query?q=${encodeURIComponent('SELECT Id FROM User')}`)
    expect(performance.now() - t0).toBeGreaterThanOrEqual(490)
  })

  it('expires every session now (401 INVALID_SESSION_ID), refresh works after', async () => {
    const conn = await login(sim)
    const expired = await control('expire-sessions')
    expect(expired.expired).toBeGreaterThan(0)
    expect((await limits()).status).toBe(401)
    expect((await conn.query('SELECT COUNT() FROM Account')).totalSize).toBe(250)
    tok = await token(sim)
  })

  it('counts the allowance down in Sforce-Limit-Info and answers 403 REQUEST_LIMIT_EXCEEDED when exhausted', async () => {
    const a = (await limits()).headers.get('sforce-limit-info')!
    const b = (await limits()).headers.get('sforce-limit-info')!
    const used = (h: string) => Number(/api-usage=(\d+)\/1000/.exec(h)![1])
    expect(used(b)).toBe(used(a) + 1)
    await control('exhaust-allowance')
    const r = await limits()
    expect(r.status).toBe(403)
    expect(r.body).toEqual([{ message: 'TotalRequests Limit exceeded.', errorCode: 'REQUEST_LIMIT_EXCEEDED' }])
    expect(r.headers.get('sforce-limit-info')).toBe('api-usage=1000/1000')
    // The sandbox has its own allowance.
    const sb = await token(sim, true)
    expect((await api(sim, sb, '/services/data/v62.0/limits')).status).toBe(200)
    await control('reset')
    expect((await limits()).status).toBe(200)
  })

  it('rejects invalid fault settings', async () => {
    const r = await fetch(`${sim.url}/__control/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ errorRate: 2 }) })
    expect(r.status).toBe(400)
    const state = await (await fetch(`${sim.url}/__control/state`)).json()
    expect(state.faults.errorRate).toBe(0)
  })

  it('can be configured from the command-line options', async () => {
    const s = await start({ faults: { errorRate: 1, errorStatus: 503 } })
    try {
      const t = await token(s)
      expect((await api(s, t, '/services/data/v62.0/limits')).status).toBe(503)
    } finally {
      await s.close()
    }
  })
})
