/**
 * Ids of imported records. Like every record id they are UUIDv7 whose timestamp is the record's
 * created_at (here the source's CreatedDate), so lists page in creation order. The source's
 * CreatedDate often has whole seconds only, and a case's comments may share one: to keep a thread
 * in the source's order whatever order pages are read in (Bulk results come unordered), the bits
 * after the timestamp carry the source id's creation counter, then randomness.
 *
 * A source id is 3 key-prefix characters, 2 pod characters, '0', and 9 base-62 digits counting up
 * in creation order (then a 3-character case-safe suffix). 62^9 < 2^54, so the counter fits in
 * UUIDv7's 12-bit rand_a and the top 42 bits of its 62-bit rand_b, leaving 20 random bits.
 */
import { random16 } from '../../shared/ids.ts'

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const DIGIT_VALUE = new Int8Array(128).fill(-1)
for (let i = 0; i < DIGITS.length; i++) DIGIT_VALUE[DIGITS.charCodeAt(i)] = i

/** The 9-digit base-62 creation counter of a source id, or null when the id has another shape. */
export function sourceIdCounter(srcId: string): bigint | null {
  if (srcId.length !== 15 && srcId.length !== 18) return null
  let n = 0n
  for (let i = 6; i < 15; i++) {
    const c = srcId.charCodeAt(i)
    const d = c < 128 ? DIGIT_VALUE[c] : -1
    if (d < 0) return null
    n = n * 62n + BigInt(d)
  }
  return n
}

const MASK_42 = (1n << 42n) - 1n

/** A UUIDv7 for an imported record: creation time, then the source's creation order, then randomness. */
export function importedRecordId(createdAt: Date, srcId: string): string {
  const bytes = random16()
  const ms = createdAt.getTime()
  bytes.writeUIntBE(Math.max(0, ms), 0, 6)
  const counter = sourceIdCounter(srcId)
  if (counter !== null) {
    const randA = Number(counter >> 42n) & 0xfff
    const high42 = counter & MASK_42
    bytes[6] = 0x70 | (randA >> 8)
    bytes[7] = randA & 0xff
    // rand_b: 2 variant bits, then the 42 counter bits, then 20 random bits.
    const b = (high42 << 20n) | BigInt(bytes.readUIntBE(13, 3) & 0xfffff)
    const v = (2n << 62n) | b
    for (let i = 15; i >= 8; i--) bytes[i] = Number((v >> BigInt((15 - i) * 8)) & 0xffn)
  } else {
    bytes[6] = 0x70 | (bytes[6] & 0x0f)
    bytes[8] = (bytes[8] & 0x3f) | 0x80
  }
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
