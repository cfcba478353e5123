/**
 * Ids of imported records: UUIDv7 carrying the source's CreatedDate, then the source id's base-62
 * creation counter (so a thread keeps the source's order within one second), then randomness.
 */
import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { importedRecordId } from '../../src/migration/import/record-ids.ts'

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

function randomSourceId(prefix = '00a'): string {
  let digits = ''
  for (let i = 0; i < 9; i++) digits += DIGITS[crypto.randomInt(62)]
  return `${prefix}5g0${digits}AAA`.slice(0, crypto.randomInt(2) ? 15 : 18)
}

/** The counter as the id's digits say it (BigInt: the reference, however slow). */
function counterOf(srcId: string): bigint {
  let n = 0n
  for (const c of srcId.slice(6, 15)) n = n * 62n + BigInt(DIGITS.indexOf(c))
  return n
}

/** What the UUID carries: its time, version, variant, and the counter bits (12 in rand_a, 42 in rand_b). */
function decode(uuid: string) {
  const hex = uuid.replaceAll('-', '')
  const bits = BigInt(`0x${hex}`)
  return {
    ms: Number(bits >> 80n),
    version: Number((bits >> 76n) & 0xfn),
    variant: Number((bits >> 62n) & 0x3n),
    counter: (((bits >> 64n) & 0xfffn) << 42n) | ((bits >> 20n) & ((1n << 42n) - 1n)),
  }
}

describe('importedRecordId', () => {
  it('carries the creation time, version 7, the RFC 9562 variant and the source counter, for any counter', () => {
    const extremes = ['00a5g0000000000AAA', '00a5g0zzzzzzzzzAAA', '00a5g0000000001', '00a5g0zzzzzzzzy']
    const ids = [...extremes, ...Array.from({ length: 2000 }, () => randomSourceId())]
    for (const srcId of ids) {
      const at = new Date(Date.UTC(2019, 4, 1) + crypto.randomInt(2 ** 40))
      const uuid = importedRecordId(at, srcId)
      expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      const d = decode(uuid)
      expect(d.ms).toBe(at.getTime())
      expect(d.version).toBe(7)
      expect(d.variant).toBe(2)
      expect(d.counter, srcId).toBe(counterOf(srcId))
    }
  })

  it('orders records created in the same millisecond by their source counter', () => {
    const at = new Date('2024-03-01T10:00:00Z')
    const srcIds = Array.from({ length: 500 }, () => randomSourceId('00b')).sort((a, b) => (counterOf(a) < counterOf(b) ? -1 : counterOf(a) > counterOf(b) ? 1 : 0))
    const uuids = srcIds.map((s) => importedRecordId(at, s))
    expect(new Set(srcIds.map((s) => counterOf(s))).size).toBe(srcIds.length)
    expect([...uuids].sort()).toEqual(uuids)
  })

  it('is random after the timestamp for ids of another shape', () => {
    const at = new Date('2024-03-01T10:00:00Z')
    const a = importedRecordId(at, 'not-a-source-id')
    const b = importedRecordId(at, 'not-a-source-id')
    expect(a).not.toBe(b)
    expect(decode(a).ms).toBe(at.getTime())
    expect(a[14]).toBe('7')
  })
})
