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
import { random16, uuidText } from '../../shared/ids.ts'

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const DIGIT_VALUE = new Int8Array(128).fill(-1)
for (let i = 0; i < DIGITS.length; i++) DIGIT_VALUE[DIGITS.charCodeAt(i)] = i

const TWO_27 = 2 ** 27
const TWO_15 = 2 ** 15

/**
 * The 9-digit base-62 creation counter of a source id, or null when the id has another shape, as
 * the two parts the UUID takes: its bits above 42 (at most 12) and its low 42 bits. 62^9 < 2^54,
 * so it is accumulated in two 27-bit limbs, every step exact in a double (BigInt arithmetic here
 * showed in the import's profile).
 */
function sourceIdCounter(srcId: string): { high12: number; low42: number } | null {
  if (srcId.length !== 15 && srcId.length !== 18) return null
  let hi = 0
  let lo = 0
  for (let i = 6; i < 15; i++) {
    const c = srcId.charCodeAt(i)
    const d = c < 128 ? DIGIT_VALUE[c] : -1
    if (d < 0) return null
    lo = lo * 62 + d
    const carry = Math.floor(lo / TWO_27)
    lo -= carry * TWO_27
    hi = hi * 62 + carry
  }
  // counter = hi * 2^27 + lo, with hi < 2^27.
  return { high12: Math.floor(hi / TWO_15), low42: (hi % TWO_15) * TWO_27 + lo }
}

/** A UUIDv7 for an imported record: creation time, then the source's creation order, then randomness. */
export function importedRecordId(createdAt: Date, srcId: string): string {
  const bytes = random16()
  const ms = createdAt.getTime()
  bytes.writeUIntBE(Math.max(0, ms), 0, 6)
  const counter = sourceIdCounter(srcId)
  if (counter !== null) {
    bytes[6] = 0x70 | (counter.high12 >> 8)
    bytes[7] = counter.high12 & 0xff
    // rand_b (64 bits): the variant bits 10, the 42 low counter bits, then 20 random bits.
    const random20 = bytes.readUIntBE(13, 3) & 0xfffff
    bytes.writeUInt32BE(0x80000000 + Math.floor(counter.low42 / 4096), 8)
    bytes.writeUInt32BE((counter.low42 % 4096) * 2 ** 20 + random20, 12)
  } else {
    bytes[6] = 0x70 | (bytes[6] & 0x0f)
    bytes[8] = (bytes[8] & 0x3f) | 0x80
  }
  return uuidText(bytes)
}
