// The pure parts of the source client: CSV of Bulk result pages, typing CSV values like the REST
// JSON, classification of what jsforce throws, secrets kept out of messages, and the retry policy.
import { describe, expect, it } from 'vitest'
import { parseCsv, rowConverter, typedValue } from '../../../src/migration/source/bulk-csv.ts'
import { classifySourceError, redactSecrets, SourceAuthFailed, SourceQuotaExceeded, SourceRequestFailed, SourceTransient, SourceUnreachable } from '../../../src/migration/source/source-errors.ts'
import { OutboundRefused } from '../../../src/shared/outbound/guarded-request.ts'
import { backoffMs, withRetry } from '../../../src/migration/source/with-retry.ts'
import { orgIdOfToken, to18 } from '../../../src/migration/source/source-connection.ts'

const rows = (text: string) => {
  const out: Array<Array<string | null>> = []
  parseCsv(text, (r) => out.push([...r]))
  return out
}

/** What jsforce throws for a platform error body [{errorCode, message}]. */
const platformError = (errorCode: string, message: string) => Object.assign(new Error(message), { name: errorCode, errorCode })
/** What undici's fetch throws when the socket fails. */
const socketError = (code: string) => new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) })

describe('Bulk CSV (RFC 4180)', () => {
  it('parses quoted values with commas, doubled quotes and line breaks; empty values are null', () => {
    expect(rows('"Id","Name","Description"\n"001","Acme, ""Inc""","line 1\r\nline 2"\n"002","",\n')).toEqual([
      ['Id', 'Name', 'Description'],
      ['001', 'Acme, "Inc"', 'line 1\r\nline 2'],
      ['002', null, null],
    ])
  })

  it('accepts CRLF line ends, unquoted values and a missing final line break', () => {
    expect(rows('Id,N\r\n001,x\r\n002,y')).toEqual([['Id', 'N'], ['001', 'x'], ['002', 'y']])
    expect(rows('')).toEqual([])
  })

  it('gives every row its own width, a short row after a long one included (the cells array is reused)', () => {
    expect(rows('a,b,c\n1,2,3\n4\n5,6,7,8\n')).toEqual([['a', 'b', 'c'], ['1', '2', '3'], ['4'], ['5', '6', '7', '8']])
  })

  it('converts rows of many columns, each record its own object, missing cells null', () => {
    const header = Array.from({ length: 46 }, (_, i) => `Field${i}__c`)
    const convert = rowConverter(header, { Field1__c: 'int' })
    const a = convert(header.map((_, i) => `a${i}`))
    const b = convert(['b0', '7'])
    expect(Object.keys(a)).toEqual(header)
    expect(a.Field45__c).toBe('a45')
    expect(b).toEqual({ ...Object.fromEntries(header.map((h) => [h, null])), Field0__c: 'b0', Field1__c: 7 })
    expect(a.Field0__c).toBe('a0')
  })

  it('refuses a quoted value that never ends', () => {
    expect(() => rows('"Id"\n"001')).toThrow(/quoted value does not end/)
  })

  it('types values from the describe: booleans, numbers; dates and the rest stay strings', () => {
    expect(typedValue('true', 'boolean')).toBe(true)
    expect(typedValue('false', 'boolean')).toBe(false)
    expect(typedValue('12', 'int')).toBe(12)
    expect(typedValue('1234.5', 'currency')).toBe(1234.5)
    expect(typedValue('-0.25', 'percent')).toBe(-0.25)
    expect(typedValue('2024-02-29', 'date')).toBe('2024-02-29')
    expect(typedValue('2024-02-29T10:00:00.000+0000', 'datetime')).toBe('2024-02-29T10:00:00.000+0000')
    expect(typedValue('00123', 'string')).toBe('00123')
    expect(typedValue(null, 'int')).toBeNull()
  })

  it('nests parent columns, and a parent with no values is null as in REST', () => {
    const convert = rowConverter(['Id', 'Account.Name', 'Account.Owner.Email', 'IsDeleted'], { IsDeleted: 'boolean' })
    expect(convert(['003', 'Acme', 'a@x.org', 'false'])).toEqual({ Id: '003', Account: { Name: 'Acme', Owner: { Email: 'a@x.org' } }, IsDeleted: false })
    expect(convert(['003', 'Acme', null, 'true'])).toEqual({ Id: '003', Account: { Name: 'Acme', Owner: null }, IsDeleted: true })
    expect(convert(['003', null, null, null])).toEqual({ Id: '003', Account: null, IsDeleted: null })
  })

  it('matches field types case-insensitively to the header', () => {
    expect(rowConverter(['isdeleted'], { IsDeleted: 'boolean' })(['true'])).toEqual({ isdeleted: true })
  })
})

describe('classifying what the platform client throws', () => {
  it.each([
    [platformError('REQUEST_LIMIT_EXCEEDED', 'TotalRequests Limit exceeded.'), SourceQuotaExceeded],
    [platformError('INVALID_SESSION_ID', 'Session expired or invalid'), SourceAuthFailed],
    [new Error('Unable to refresh session due to: expired access/refresh token'), SourceAuthFailed],
    [Object.assign(new Error('expired authorization code'), { name: 'invalid_grant' }), SourceAuthFailed],
    [platformError('REQUEST_LIMIT_EXCEEDED', 'ConcurrentPerOrgLongTxn Limit exceeded.'), SourceTransient],
    [platformError('LIMIT_EXCEEDED', 'Max bulk v2 query jobs (10000) per 24 hrs'), SourceQuotaExceeded],
    [platformError('SERVER_UNAVAILABLE', 'Server is temporarily unavailable.'), SourceTransient],
    [platformError('UNKNOWN_EXCEPTION', 'An unexpected error occurred.'), SourceTransient],
    [platformError('QUERY_TIMEOUT', 'Your query request was running for too long.'), SourceTransient],
    [platformError('ERROR_HTTP_502', '<html>Bad gateway</html>'), SourceTransient],
    [socketError('ECONNRESET'), SourceTransient],
    [socketError('UND_ERR_SOCKET'), SourceTransient],
    [socketError('ECONNREFUSED'), SourceTransient],
    [new TypeError('fetch failed', { cause: new OutboundRefused('src_instance_url resolves to a private or reserved address (10.0.0.1)') }), SourceUnreachable],
    [platformError('INVALID_FIELD', "No such column 'Nope' on entity 'Account'"), SourceRequestFailed],
    [platformError('MALFORMED_QUERY', 'unexpected token'), SourceRequestFailed],
    [new Error('something else'), SourceRequestFailed],
  ])('%s', (err, kind) => {
    expect(classifySourceError(err)).toBeInstanceOf(kind)
  })

  it('keeps the platform errorCode and message, and says what was being done', () => {
    const e = classifySourceError(platformError('INVALID_FIELD', "No such column 'Nope' on entity 'Account'\nmore lines"), { what: 'reading Account records' })
    expect(e).toBeInstanceOf(SourceRequestFailed)
    expect(e.errorCode).toBe('INVALID_FIELD')
    expect(e.message).toBe("reading Account records: INVALID_FIELD: No such column 'Nope' on entity 'Account'")
  })

  it('never lets a token into a message', () => {
    const access = '00D5g000000ABCD!AR8QAMNaXyz.abc_DEF-1234567890abcdef'
    const refresh = '5AepXyz0123456789abcdefghijklmnop'
    const e = classifySourceError(platformError('INVALID_SESSION_ID', `token ${access} and ${refresh} and Bearer abcdefghijklmnopqrstuvwxyz and ?oauth_token=zzz`), { secrets: ['a-custom-secret-value'] })
    expect(e.message).not.toContain('AR8QAMNaXyz')
    expect(e.message).not.toContain(refresh)
    expect(e.message).not.toContain('abcdefghijklmnopqrstuvwxyz')
    expect(e.message).not.toContain('zzz')
    expect(redactSecrets('x a-custom-secret-value y', ['a-custom-secret-value'])).toBe('x [redacted] y')
  })
})

describe('retry policy', () => {
  it('backs off exponentially with jitter, capped', () => {
    const opts = { baseMs: 1000, maxMs: 30_000 }
    expect(backoffMs(1, opts, () => 0)).toBe(500)
    expect(backoffMs(1, opts, () => 0.999999)).toBe(1000)
    expect(backoffMs(3, opts, () => 0)).toBe(2000)
    expect(backoffMs(10, opts, () => 1)).toBe(30_000)
    // The default policy waits at most about 31 s in total over its 6 attempts.
    const worst = [1, 2, 3, 4, 5].reduce((sum, n) => sum + backoffMs(n, opts, () => 1), 0)
    expect(worst).toBe(31_000)
  })

  it('retries SourceTransient until it succeeds', async () => {
    let calls = 0
    const seen: number[] = []
    const value = await withRetry(async () => {
      if (++calls < 3) throw platformError('SERVER_UNAVAILABLE', 'busy')
      return 'ok'
    }, { baseMs: 1, maxMs: 2, onRetry: ({ attempt }) => seen.push(attempt) })
    expect(value).toBe('ok')
    expect(seen).toEqual([1, 2])
  })

  it('never retries quota, auth or request errors', async () => {
    for (const err of [platformError('REQUEST_LIMIT_EXCEEDED', 'x'), platformError('INVALID_SESSION_ID', 'x'), platformError('INVALID_FIELD', 'x')]) {
      let calls = 0
      await expect(withRetry(async () => {
        calls++
        throw err
      }, { baseMs: 1 })).rejects.toThrow()
      expect(calls).toBe(1)
    }
  })

  it('gives up after the last attempt: server errors stay SourceTransient, no answer at all becomes SourceUnreachable', async () => {
    await expect(withRetry(async () => {
      throw platformError('SERVER_UNAVAILABLE', 'busy')
    }, { attempts: 3, baseMs: 1 })).rejects.toBeInstanceOf(SourceTransient)
    const err = await withRetry(async () => {
      throw socketError('ECONNRESET')
    }, { attempts: 3, baseMs: 1 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(SourceUnreachable)
    expect((err as Error).message).toMatch(/connection reset.*gave up after 3 attempts/)
  })
})

describe('org ids', () => {
  it('reads the 18-character org id from an access token', () => {
    expect(to18('001A0000006Vm9r')).toBe('001A0000006Vm9rIAC')
    expect(orgIdOfToken('00D5g000000ABCD!AR8QA.xyz')).toBe('00D5g000000ABCDEA4')
    expect(orgIdOfToken('not-a-token')).toBeNull()
  })
})
