// Bulk API 2.0 query jobs over plain HTTP: create, poll, CSV pages chained by Sforce-Locator
// ("null" on the last page), 412 before completion, 409 on another API version, and the SOQL
// Bulk 2.0 refuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, start, token } from './helpers.ts'
import type { SourceSim } from '../../tools/source-sim/main.ts'

let sim: SourceSim
let tok: string
const post = (path: string, body: unknown) => api(sim, tok, path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = [], cell = '', quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++ } else if (c === '"') quoted = false
      else cell += c
    } else if (c === '"') quoted = true
    else if (c === ',') { row.push(cell); cell = '' }
    else if (c === '\n') { row.push(cell); rows.push(row); row = []; cell = '' }
    else cell += c
  }
  return rows
}

beforeAll(async () => {
  sim = await start({ bulkDelayMs: 150 })
  tok = await token(sim)
})
afterAll(() => sim?.close())

describe('Bulk API 2.0 query', () => {
  it('runs a job and pages CSV results with Sforce-Locator', async () => {
    const created = await post('/services/data/v62.0/jobs/query', { operation: 'query', query: 'SELECT Id, Name, Email, Account.Name, Description FROM Contact' })
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({ operation: 'query', object: 'Contact', state: 'UploadComplete', contentType: 'CSV', apiVersion: 62, lineEnding: 'LF', columnDelimiter: 'COMMA', concurrencyMode: 'Parallel' })
    expect(created.body.id).toMatch(/^750/)
    const id = created.body.id
    const early = await api(sim, tok, `/services/data/v62.0/jobs/query/${id}/results`)
    expect(early.status).toBe(412)
    expect(early.body[0].errorCode).toBe('JOB_NOT_COMPLETE')
    expect((await api(sim, tok, `/services/data/v62.0/jobs/query/${id}`)).body.state).toBe('InProgress')
    await new Promise((r) => setTimeout(r, 200))
    const done = await api(sim, tok, `/services/data/v62.0/jobs/query/${id}`)
    expect(done.body).toMatchObject({ state: 'JobComplete', numberRecordsProcessed: 750, retries: 0 })
    expect((await api(sim, tok, `/services/data/v61.0/jobs/query/${id}/results`)).status).toBe(409)

    const rows: string[][] = []
    let locator: string | null = null
    let pages = 0
    do {
      const r = await api(sim, tok, `/services/data/v62.0/jobs/query/${id}/results?maxRecords=300${locator ? `&locator=${locator}` : ''}`)
      expect(r.status).toBe(200)
      expect(r.headers.get('content-type')).toMatch(/^text\/csv/)
      const page = parseCsv(r.body)
      expect(page[0]).toEqual(['Id', 'Name', 'Email', 'Account.Name', 'Description'])
      expect(Number(r.headers.get('sforce-numberofrecords'))).toBe(page.length - 1)
      rows.push(...page.slice(1))
      locator = r.headers.get('sforce-locator')
      pages++
    } while (locator !== 'null')
    expect(pages).toBe(3)
    expect(rows.length).toBe(750)
    // Same rows as /query, hostile strings (quotes, commas, CRLF) survive the CSV round trip.
    const q = await api(sim, tok, `/services/data/v62.0/query?q=${encodeURIComponent('SELECT Id, Description FROM Contact')}`)
    const byId = new Map(q.body.records.map((r: { Id: string; Description: string | null }) => [r.Id, r.Description ?? '']))
    for (const row of rows) expect(row[4]).toBe(byId.get(row[0]))
    expect(rows.map((r) => r[0])).toEqual(q.body.records.map((r: { Id: string }) => r.Id))
    expect((await api(sim, tok, `/services/data/v62.0/jobs/query/${id}`, { method: 'DELETE' })).status).toBe(204)
    expect((await api(sim, tok, `/services/data/v62.0/jobs/query/${id}`)).status).toBe(404)
  })

  it('queryAll includes deleted rows; delimiter and line ending options apply', async () => {
    const created = await post('/services/data/v62.0/jobs/query', { operation: 'queryAll', query: 'SELECT Id, IsDeleted FROM Account', columnDelimiter: 'PIPE', lineEnding: 'CRLF' })
    await new Promise((r) => setTimeout(r, 200))
    const r = await api(sim, tok, `/services/data/v62.0/jobs/query/${created.body.id}/results`)
    const lines = (r.body as string).split('\r\n').filter(Boolean)
    expect(lines[0]).toBe('"Id"|"IsDeleted"')
    expect(lines.length - 1).toBe(252)
    expect(lines.filter((l) => l.endsWith('"true"'))).toHaveLength(2)
    expect(r.headers.get('sforce-locator')).toBe('null')
  })

  it.each([
    'SELECT Id FROM Account ORDER BY Name',
    'SELECT COUNT() FROM Account',
    'SELECT Id, (SELECT Id FROM Contacts) FROM Account',
    'SELECT BillingAddress FROM Account',
  ])('refuses %s', async (query) => {
    const r = await post('/services/data/v62.0/jobs/query', { operation: 'query', query })
    expect(r.status).toBe(400)
    expect(r.body[0].errorCode).toBe('MALFORMED_QUERY')
  })

  it('aborts a job', async () => {
    const created = await post('/services/data/v62.0/jobs/query', { operation: 'query', query: 'SELECT Id FROM Account' })
    const r = await api(sim, tok, `/services/data/v62.0/jobs/query/${created.body.id}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ state: 'Aborted' }) })
    expect(r.body.state).toBe('Aborted')
  })
})
