import { describe, expect, it } from 'vitest'
import { normalizeDomain, normalizeEmail } from '../../../src/migration/mapping/normalize.ts'
import { formatDecimal, parseDateTime } from '../../../src/migration/mapping/converters.ts'

describe('normalizeEmail', () => {
  it('ignores case and surrounding whitespace, and nothing else', () => {
    expect(normalizeEmail('  Ann.Lee+crm@Example.COM ')).toBe('ann.lee+crm@example.com')
    expect(normalizeEmail('ann.lee@example.com')).not.toBe(normalizeEmail('annlee@example.com'))
    expect(normalizeEmail('   ')).toBeNull()
    expect(normalizeEmail(null)).toBeNull()
  })
})

describe('normalizeDomain', () => {
  it('takes the host of what people type into a website field', () => {
    expect(normalizeDomain('https://WWW.Acme.com:443/about?x=1')).toBe('acme.com')
    expect(normalizeDomain('www.acme.co.uk')).toBe('acme.co.uk')
    expect(normalizeDomain('acme.com/contact')).toBe('acme.com')
    expect(normalizeDomain('http://user@shop.acme.com.')).toBe('shop.acme.com')
    expect(normalizeDomain('https://www.oscorpkk.example.com')).toBe('oscorpkk.example.com')
  })

  it('returns null for values with no plausible host', () => {
    expect(normalizeDomain('n/a')).toBeNull()
    expect(normalizeDomain('localhost')).toBeNull()
    expect(normalizeDomain('two words.com')).toBeNull()
    expect(normalizeDomain('')).toBeNull()
  })
})

describe('formatDecimal', () => {
  it('writes exact text with two decimals, rounding half away from zero on the written digits', () => {
    expect(formatDecimal(38541000)).toBe('38541000.00')
    expect(formatDecimal('12.5')).toBe('12.50')
    expect(formatDecimal(1.005)).toBe('1.01')
    expect(formatDecimal('-2.345')).toBe('-2.35')
    expect(formatDecimal('0.999')).toBe('1.00')
    expect(formatDecimal('-0.001')).toBe('0.00')
    expect(formatDecimal(1e-7)).toBe('0.00')
  })

  it('refuses what numeric(18,2) cannot hold or is not a number', () => {
    expect(formatDecimal('12345678901234567')).toBeNull()
    expect(formatDecimal(1e21)).toBeNull()
    expect(formatDecimal('12,5')).toBeNull()
    expect(formatDecimal(Number.NaN)).toBeNull()
  })
})

describe('parseDateTime', () => {
  it('reads the REST (+0000) and Bulk CSV (Z) forms and plain dates as UTC', () => {
    expect(parseDateTime('2019-01-06T01:45:42.857+0000')).toBe('2019-01-06T01:45:42.857Z')
    expect(parseDateTime('2019-01-06T01:45:42.000Z')).toBe('2019-01-06T01:45:42.000Z')
    expect(parseDateTime('2019-01-06T02:45:42+01:00')).toBe('2019-01-06T01:45:42.000Z')
    expect(parseDateTime('2019-01-06T01:45:42')).toBe('2019-01-06T01:45:42.000Z')
    expect(parseDateTime('2019-01-25')).toBe('2019-01-25T00:00:00.000Z')
    expect(parseDateTime('2019-02-30')).toBeNull()
    expect(parseDateTime('yesterday')).toBeNull()
  })
})
