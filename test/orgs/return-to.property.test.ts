import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { HOME, safeReturnTo } from '../../src/orgs/return-to.ts'

const SITE = 'http://localhost:3000'

/** What a browser does with a Location value: WHATWG URL drops tabs and newlines and trims C0/space. */
function browserTarget(location: string): URL {
  const cleaned = location.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '')
  return new URL(cleaned, SITE)
}

/** Pieces attackers combine: separators, controls browsers strip, encodings, schemes, hosts. */
const piece = fc.constantFrom(
  '/', '\\', '\t', '\n', '\r', '\u0000', '\u007f', '\u0085', '\u2028', ' ', '.', '..', '@', ':', '?', '#',
  '%2f', '%5c', '%09', '%0d%0a', 'http:', 'https:', 'javascript:', 'data:', 'evil.example', 'localhost:3000',
  'localhost:3001', 'app', 'é', '\uff0f', '%',
)
const crafted = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''))
const anything = fc.oneof(crafted, fc.string({ unit: 'binary', maxLength: 40 }), fc.webUrl(), fc.webPath())

describe('sign-in return_to', () => {
  it('always lands on this site, with a header-safe value, whatever the input (browser view included)', () => {
    fc.assert(
      fc.property(anything, (value) => {
        const out = safeReturnTo(value, SITE)
        expect(out).toMatch(/^[\u0021-\u007e]+$/) // no control character, nothing Node refuses in a header
        expect(new URL(out, SITE).origin).toBe(SITE)
        expect(browserTarget(out).origin).toBe(SITE)
      }),
      { numRuns: 5000 },
    )
  })

  it('keeps every same-site path, query and fragment it is given', () => {
    fc.assert(
      fc.property(fc.webPath(), fc.webQueryParameters(), fc.webFragments(), (path, query, fragment) => {
        const value = `/${path.replace(/^\/+/, '')}${query ? `?${query}` : ''}${fragment ? `#${fragment}` : ''}`
        expect(new URL(safeReturnTo(value, SITE), SITE).href).toBe(new URL(value, SITE).href)
      }),
      { numRuns: 2000 },
    )
  })

  it.each([
    ['/\t/evil.example'],
    ['/\n/evil.example'],
    ['/\r\n/evil.example'],
    ['\t//evil.example'],
    ['/\\evil.example'],
    ['\\\\evil.example'],
    [' //evil.example'],
    ['//evil.example'],
    ['https://evil.example/app'],
    ['http://localhost:3001/app'],
    ['javascript:alert(1)'],
    ['/app\u0000'],
    ['/app\r\nSet-Cookie: x=1'],
  ])('sends %j home', (value) => {
    expect(safeReturnTo(value, SITE)).toBe(HOME)
  })

  it('sends a same-origin path the parser normalises to // as an absolute URL on this site', () => {
    const out = safeReturnTo('/.//evil.example', SITE)
    expect(out).toBe('http://localhost:3000//evil.example')
    expect(browserTarget(out).origin).toBe(SITE)
  })

  it('accepts an absolute URL on this very origin, as a path', () => {
    expect(safeReturnTo('http://localhost:3000/app/contacts?x=1#top', SITE)).toBe('/app/contacts?x=1#top')
  })
})
