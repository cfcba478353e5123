// Owns stateless query locators: the query text and the position reached are encoded in the
// locator itself (base64url JSON behind a short HMAC), so pages cost no server memory, survive a
// simulator restart and never expire. Anything that does not verify is INVALID_QUERY_LOCATOR.
import { createHmac } from 'node:crypto'
import { invalidLocator } from '../errors.ts'

export interface LocatorState {
  /** SOQL text */
  q: string
  /** queryAll */
  all: boolean
  /** tooling API */
  t: boolean
  /** rows already returned */
  o: number
  /** scan position to resume at */
  p: number
  /** totalSize reported on every page */
  n: number
  /** page size */
  b: number
  /** org id: a locator only works in the org that made it */
  g: string
}

// Fixed key: locators only need to be tamper-evident, not secret, and must survive restarts.
const KEY = 'cairn-source-sim-locator'
const mac = (s: string) => createHmac('sha256', KEY).update(s).digest('base64url').slice(0, 10)

export function encodeLocator(s: LocatorState): string {
  const body = Buffer.from(JSON.stringify(s)).toString('base64url')
  return `${body}.${mac(body)}`
}

export function decodeLocator(locator: string, orgId: string): LocatorState {
  const [body, sig] = locator.split('.')
  if (!body || !sig || mac(body) !== sig) throw invalidLocator()
  try {
    const s = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as LocatorState
    if (typeof s.q !== 'string' || s.g !== orgId) throw invalidLocator()
    return s
  } catch {
    throw invalidLocator()
  }
}
