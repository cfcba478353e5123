/**
 * Record and request ids (UUIDv7, RFC 9562 §5.7), minted into one reused buffer and written out
 * as text in place: the text must be the bytes' canonical form, and no id may share another's bytes.
 */
import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { random16, uuidText, uuidv7, uuidv7Time } from '../../src/shared/ids.ts'

describe('uuidText', () => {
  it('writes any 16 bytes in the canonical 8-4-4-4-12 lower-case form', () => {
    for (let i = 0; i < 1000; i++) {
      const bytes = crypto.randomBytes(16)
      const hex = bytes.toString('hex')
      expect(uuidText(bytes)).toBe(`${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`)
    }
    expect(uuidText(new Uint8Array(16).fill(0xff))).toBe('ffffffff-ffff-ffff-ffff-ffffffffffff')
  })
})

describe('uuidv7', () => {
  it('carries the time, version 7 and the variant, and counts up within one millisecond', () => {
    const at = Date.UTC(2026, 10, 24, 12, 0, 0, 123)
    const ids = Array.from({ length: 5000 }, () => uuidv7(at))
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      expect(uuidv7Time(id)).toBe(at)
    }
    // Within one millisecond the 12-bit counter keeps them in minting order until it runs out.
    const first = ids.slice(0, 100)
    expect([...first].sort()).toEqual(first)
  })

  it('draws fresh random bytes for every id, across pool refills', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 3 * 256 + 7; i++) seen.add(random16().toString('hex'))
    expect(seen.size).toBe(3 * 256 + 7)
  })
})
