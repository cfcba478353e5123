// SOQL semantics over HTTP: keyset paging, locator paging, filters checked against an independent
// in-test oracle (property-based), ORDER BY/LIMIT/OFFSET, and rejection of everything unsupported
// with MALFORMED_QUERY (never a wrong answer).
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, start, token } from './helpers.ts'
import type { SourceSim } from '../../tools/source-sim/main.ts'

let sim: SourceSim
let tok: string
const q = async (soql: string, headers: Record<string, string> = {}) => api(sim, tok, `/services/data/v62.0/query?q=${encodeURIComponent(soql)}`, { headers })
const ok = async (soql: string, headers: Record<string, string> = {}) => {
  const r = await q(soql, headers)
  expect(r.status, `${soql}: ${JSON.stringify(r.body)}`).toBe(200)
  return r.body as { totalSize: number; done: boolean; nextRecordsUrl?: string; records: Array<Record<string, any>> }
}
async function all(soql: string, batch = 2000) {
  let page = await ok(soql, { 'Sforce-Query-Options': `batchSize=${batch}` })
  const rows = [...page.records]
  const total = page.totalSize
  while (!page.done) {
    expect(page.nextRecordsUrl).toMatch(/^\/services\/data\/v62\.0\/query\/[^/]+$/)
    const r = await api(sim, tok, page.nextRecordsUrl!)
    expect(r.status).toBe(200)
    page = r.body
    expect(page.totalSize).toBe(total)
    rows.push(...page.records)
  }
  expect(page.nextRecordsUrl).toBeUndefined()
  expect(rows.length).toBe(total)
  return rows
}

let contacts: Array<Record<string, any>>
beforeAll(async () => {
  sim = await start()
  tok = await token(sim)
  contacts = await all('SELECT Id, Email, LeadSource, Birthdate, HasOptedOutOfEmail, CreatedDate, FirstName FROM Contact')
})
afterAll(() => sim?.close())

describe('paging', () => {
  it('locator pages concatenate to the full result in Id order, honouring batchSize', async () => {
    expect(contacts.length).toBe(750)
    const paged = await all('SELECT Id, Email, LeadSource, Birthdate, HasOptedOutOfEmail, CreatedDate, FirstName FROM Contact', 200)
    expect(paged).toEqual(contacts)
    const first = await ok('SELECT Id FROM Contact', { 'Sforce-Query-Options': 'batchSize=50' })
    expect(first.records.length).toBe(200) // clamped to the 200 minimum
  })

  it('keyset reads (WHERE Id > :last ORDER BY Id LIMIT n) return every record once, for any n', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 25, max: 400 }), async (n) => {
        const ids: string[] = []
        let last = '000000000000000AAA'
        for (;;) {
          const page = await ok(`SELECT Id FROM Contact WHERE Id > '${last}' ORDER BY Id LIMIT ${n}`)
          if (page.records.length === 0) break
          ids.push(...page.records.map((r) => r.Id))
          last = ids[ids.length - 1]
        }
        expect(ids).toEqual(contacts.map((c) => c.Id))
      }),
      { numRuns: 8 },
    )
  })

  it('sorted results page stably with ORDER BY on other fields, with OFFSET', async () => {
    const rows = await all('SELECT Id, Email FROM Contact ORDER BY Email DESC NULLS LAST, Id', 200)
    const emails = rows.map((r) => r.Email)
    const nonNull = emails.filter((e) => e !== null)
    const collator = new Intl.Collator('en-US', { sensitivity: 'accent' })
    for (let i = 1; i < nonNull.length; i++) expect(collator.compare(nonNull[i - 1], nonNull[i])).toBeGreaterThanOrEqual(0)
    expect(emails.slice(nonNull.length).every((e) => e === null)).toBe(true)
    const off = await ok('SELECT Id, Email FROM Contact ORDER BY Email DESC NULLS LAST, Id LIMIT 5 OFFSET 10')
    expect(off.records.map((r) => r.Id)).toEqual(rows.slice(10, 15).map((r) => r.Id))
  })

  it('rejects a tampered locator and a locator from another org', async () => {
    const page = await ok('SELECT Id FROM Contact', { 'Sforce-Query-Options': 'batchSize=200' })
    const loc = page.nextRecordsUrl!.split('/').pop()!
    const tampered = await api(sim, tok, `/services/data/v62.0/query/${loc.slice(0, -2)}xx`)
    expect(tampered.body[0].errorCode).toBe('INVALID_QUERY_LOCATOR')
    const sandboxTok = await token(sim, true)
    const other = await api(sim, sandboxTok, page.nextRecordsUrl!)
    expect(other.status).toBe(400)
    expect(other.body[0].errorCode).toBe('INVALID_QUERY_LOCATOR')
  })
})

// Independent oracle for the filter semantics.
type Cond = { field: string; op: string; lit: string; test: (v: any) => boolean }
const lower = (v: unknown) => String(v).toLowerCase()
const conds: fc.Arbitrary<Cond> = fc.oneof(
  fc.constantFrom('Web', 'Phone Inquiry', 'Other', 'Partner Referral').map((s) => ({ field: 'LeadSource', op: '=', lit: `'${s.toUpperCase()}'`, test: (v: any) => v !== null && lower(v) === lower(s) })),
  fc.constantFrom('Web', 'Other').map((s) => ({ field: 'LeadSource', op: '!=', lit: `'${s}'`, test: (v: any) => v === null || lower(v) !== lower(s) })),
  fc.constantFrom('%example.com', 'a%', '%.NET', '%1_@%').map((p) => ({
    field: 'Email', op: 'LIKE', lit: `'${p}'`,
    test: (v: any) => v !== null && new RegExp('^' + p.replace(/[.]/g, '\\.').replace(/%/g, '.*').replace(/_/g, '.') + '$', 'is').test(v),
  })),
  fc.constant({ field: 'Email', op: '=', lit: 'null', test: (v: any) => v === null }),
  fc.constant({ field: 'Birthdate', op: '!=', lit: 'null', test: (v: any) => v !== null }),
  fc.constantFrom('1970-01-01', '1985-06-15', '2000-01-01').map((d) => ({ field: 'Birthdate', op: '<', lit: d, test: (v: any) => v !== null && v < d })),
  fc.constantFrom('2020-01-01T00:00:00Z', '2023-06-30T12:00:00Z').map((d) => ({ field: 'CreatedDate', op: '>=', lit: d, test: (v: any) => Date.parse(v.replace('+0000', 'Z')) >= Date.parse(d) })),
  fc.boolean().map((b) => ({ field: 'HasOptedOutOfEmail', op: '=', lit: String(b), test: (v: any) => v === b })),
  fc.subarray(['Web', 'Other', 'Phone Inquiry'], { minLength: 1 }).map((l) => ({ field: 'LeadSource', op: 'IN', lit: `(${l.map((s) => `'${s}'`).join(',')})`, test: (v: any) => v !== null && l.some((s) => lower(s) === lower(v)) })),
)

describe('filters agree with an independent oracle', () => {
  it('AND / OR / NOT combinations', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(conds, { minLength: 1, maxLength: 3 }), fc.constantFrom('AND', 'OR'), fc.boolean(), async (cs, joiner, negate) => {
        const inner = cs.map((c) => `${c.field} ${c.op} ${c.lit}`).join(` ${joiner} `)
        const where = negate ? `NOT (${inner})` : inner
        const got = await all(`SELECT Id FROM Contact WHERE ${where}`)
        const expected = contacts.filter((r) => {
          const hits = cs.map((c) => c.test(r[c.field]))
          const v = joiner === 'AND' ? hits.every(Boolean) : hits.some(Boolean)
          return negate ? !v : v
        })
        expect(got.map((r) => r.Id), where).toEqual(expected.map((r) => r.Id))
      }),
      { numRuns: 40 },
    )
  })

  it('matches ids given with 15 or 18 characters, names case-insensitively', async () => {
    const id = contacts[5].Id as string
    expect((await ok(`select id, FIRSTNAME from CONTACT where ID = '${id.slice(0, 15)}'`)).records[0]).toMatchObject({ Id: id, FirstName: contacts[5].FirstName })
    expect((await ok(`SELECT Id FROM Contact WHERE Id IN ('${id}', '${contacts[6].Id}')`)).totalSize).toBe(2)
  })

  it('date literals', async () => {
    const r = await ok('SELECT Id, CreatedDate FROM Contact WHERE CreatedDate < LAST_N_YEARS:3 LIMIT 2000')
    const start = Date.UTC(new Date().getUTCFullYear() - 3, 0, 1)
    expect(r.records.every((x) => Date.parse(x.CreatedDate.replace('+0000', 'Z')) < start)).toBe(true)
    expect((await ok('SELECT COUNT() FROM Contact WHERE CreatedDate = TODAY')).totalSize).toBe(0)
  })
})

describe('unsupported SOQL is refused, never answered wrongly', () => {
  it.each([
    'SELECT Name, COUNT(Id) FROM Account GROUP BY Name',
    'SELECT SUM(AnnualRevenue) FROM Account',
    'SELECT Id FROM Account WHERE Id IN (SELECT AccountId FROM Contact)',
    'SELECT Id FROM Account FOR UPDATE',
    'SELECT Id FROM Account WITH SECURITY_ENFORCED',
    "SELECT Id FROM Account WHERE Name = 'a' AND Rating = 'Hot' OR Industry = 'Energy'",
    'SELECT Id FROM Account a',
    'SELECT toLabel(Industry) FROM Account',
    'SELECT FROM Account',
    'SELEKT Id FROM Account',
    "SELECT Id FROM Account WHERE CALENDAR_YEAR(CreatedDate) = 2020",
  ])('%s -> MALFORMED_QUERY', async (soql) => {
    const r = await q(soql)
    expect(r.status).toBe(400)
    expect(r.body[0].errorCode).toBe('MALFORMED_QUERY')
  })

  it.each([
    ['SELECT Nope__c FROM Account', 'INVALID_FIELD'],
    ["SELECT Id FROM Contact WHERE CreatedDate > '2020-01-01'", 'INVALID_FIELD'],
    ['SELECT Id, Nope.Name FROM Contact', 'INVALID_FIELD'],
    ['SELECT Id FROM Nope__c', 'INVALID_TYPE'],
    ['SELECT Id, (SELECT Id FROM Nopes) FROM Account', 'INVALID_TYPE'],
  ])('%s -> %s', async (soql, code) => {
    const r = await q(soql)
    expect(r.status).toBe(400)
    expect(r.body[0].errorCode).toBe(code)
  })
})

describe('ordering', () => {
  it('sorts picklists in their defined order and text case-insensitively', async () => {
    const rows = (await ok('SELECT Id, Rating, Name FROM Account ORDER BY Rating NULLS LAST, Name')).records
    const order = ['Hot', 'Warm', 'Cold']
    const ranks = rows.map((r) => (r.Rating === null ? 3 : order.indexOf(r.Rating)))
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks)
    const hot = rows.filter((r) => r.Rating === 'Hot').map((r) => r.Name as string)
    const collator = new Intl.Collator('en-US', { sensitivity: 'accent' })
    expect([...hot].sort(collator.compare)).toEqual(hot)
  })
})

describe('keyset templates', () => {
  it('substitute only the Id > literal, and read-ahead pages equal fresh ones', async () => {
    const zero = '000000000000000'
    const acc = (await ok('SELECT AccountId FROM Contact WHERE AccountId != null LIMIT 1')).records[0].AccountId
    for (const last of [zero, contacts[100].Id, contacts[700].Id]) {
      const soql = `SELECT Id, AccountId FROM Contact WHERE Id > '${last}' AND AccountId != '${acc}' AND AccountId != '${zero}' ORDER BY Id LIMIT 50`
      const got = (await ok(soql)).records.map((r) => r.Id)
      const all750 = await all('SELECT Id, AccountId FROM Contact')
      const expected = all750.filter((r) => r.Id.slice(0, 15) > last.slice(0, 15) && r.AccountId !== acc).slice(0, 50).map((r) => r.Id)
      expect(got).toEqual(expected)
      // The predicted next page (computed ahead) is the same as a fresh computation.
      const next = soql.replace(last, got[got.length - 1])
      const a = await ok(next)
      const b = await ok(next)
      expect(a).toEqual(b)
    }
  })
})

describe('LIKE', () => {
  it('treats \\% and \\_ as literals and _ as one character', async () => {
    const names = (await all('SELECT Id, LastName FROM Contact')).map((r) => r.LastName as string | null)
    const count = async (pattern: string) => (await ok(`SELECT COUNT() FROM Contact WHERE LastName LIKE '${pattern}'`)).totalSize
    expect(await count('\\%%')).toBe(names.filter((n) => n?.startsWith('%')).length)
    expect(await count('%\\\\backslash%')).toBe(names.filter((n) => n?.includes('\\backslash')).length)
    expect(await count('_mith')).toBe(names.filter((n) => n !== null && n.length === 5 && n.toLowerCase().endsWith('mith')).length)
    expect(await count('SMITH')).toBe(names.filter((n) => n?.toLowerCase() === 'smith').length)
  })
})

describe('thread order', () => {
  it('returns case comments ordered by ParentId, CreatedDate, Id across pages', async () => {
    const rows = await all('SELECT Id, ParentId, CommentBody, IsPublished, CreatedDate, CreatedById FROM CaseComment ORDER BY ParentId, CreatedDate, Id', 500)
    expect(rows.length).toBe(1400)
    const key = (r: Record<string, any>) => `${r.ParentId}|${r.CreatedDate}|${r.Id}`
    expect(rows.map(key)).toEqual([...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)).map(key))
    const desc = await all('SELECT Id, ParentId, CreatedDate FROM CaseComment ORDER BY ParentId DESC, CreatedDate, Id', 500)
    expect(new Set(desc.map((r) => r.Id)).size).toBe(1400)
    for (let i = 1; i < desc.length; i++) expect(desc[i - 1].ParentId >= desc[i].ParentId).toBe(true)
  })
})
