/**
 * Every identifier and secret the service mints comes from here.
 * Record ids are UUIDv7 (RFC 9562 §5.7): 48 bits of Unix milliseconds, then randomness. The
 * timestamp is the record's `created_at`, so ordering by id equals ordering by created_at with the
 * id breaking ties, and a keyset cursor keeps its place even after its record is deleted.
 */
import crypto from 'node:crypto'

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function isUuid(value: string): boolean {
  return UUID_RE.test(value)
}

let lastMs = -1
let lastRandA = 0

// Every request id and record id is a UUIDv7; one getrandom() call per id showed in profiles, so
// random bytes are drawn 4 KB at a time (as crypto.randomUUID does) and each id copies its 16.
const POOL_BYTES = 4096
let pool = Buffer.alloc(0)
let poolOffset = POOL_BYTES

/**
 * The 16 bytes of the id being minted. Ids are minted synchronously, one at a time, so one buffer
 * serves them all: a Buffer per id was a fifth of what an import allocated per record.
 */
const scratch = Buffer.alloc(16)

/** Fills the scratch bytes with 16 fresh random bytes from the pool and returns them (valid until the next call). */
export function random16(): Buffer {
  if (poolOffset + 16 > pool.length) {
    pool = crypto.randomBytes(POOL_BYTES)
    poolOffset = 0
  }
  pool.copy(scratch, 0, poolOffset, poolOffset + 16)
  poolOffset += 16
  return scratch
}

// The 36 characters of the canonical text form, written in place and read out as one string.
const HEX = new TextEncoder().encode('0123456789abcdef')
const text = Buffer.from('00000000-0000-0000-0000-000000000000', 'latin1')
const TEXT_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34]

/** The canonical text of 16 bytes (8-4-4-4-12 lower-case hex digits). */
export function uuidText(bytes: Uint8Array): string {
  for (let i = 0; i < 16; i++) {
    const b = bytes[i]
    text[TEXT_AT[i]] = HEX[b >> 4]
    text[TEXT_AT[i] + 1] = HEX[b & 15]
  }
  return text.toString('latin1')
}

/** A UUIDv7 for the given creation time (default now), monotonic within one process. */
export function uuidv7(at: Date | number = Date.now()): string {
  const ms = typeof at === 'number' ? at : at.getTime()
  const bytes = random16()
  // RFC 9562 §6.2 method 1: within one millisecond, count up in the 12-bit rand_a field so ids
  // minted by this process stay in creation order.
  let randA: number
  if (ms === lastMs && lastRandA < 0xfff) {
    randA = lastRandA + 1
  } else {
    randA = ((bytes[6] & 0x07) << 8) | bytes[7] // leave headroom to count up
  }
  lastMs = ms
  lastRandA = randA
  bytes.writeUIntBE(ms, 0, 6)
  bytes[6] = 0x70 | (randA >> 8)
  bytes[7] = randA & 0xff
  bytes[8] = (bytes[8] & 0x3f) | 0x80
  return uuidText(bytes)
}

/** The millisecond timestamp a UUIDv7 carries. */
export function uuidv7Time(id: string): number {
  return parseInt(id.replace(/-/g, '').slice(0, 12), 16)
}

/** A secret of `bytes` random bytes in base64url (unreserved characters only, RFC 3986 §2.3). */
export function randomSecret(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url')
}

export function sha256(value: string): Buffer {
  return crypto.createHash('sha256').update(value).digest()
}

/** Compares two secrets without leaking, through timing, how much of them matched. */
export function constantTimeEqual(a: string, b: string): boolean {
  const ha = sha256(a)
  const hb = sha256(b)
  return crypto.timingSafeEqual(ha, hb)
}
