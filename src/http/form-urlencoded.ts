/**
 * application/x-www-form-urlencoded text (form bodies, and the query strings under /api/v1 for their
 * UTF-8 check) read as the WHATWG URL standard reads it (§5.1), except that a name or value whose
 * bytes, once percent-decoded, are not UTF-8 is refused instead of holding U+FFFD.
 */
import { decodeUtf8, NotUtf8 } from '../shared/strict-text.ts'

/** A name or value that is not UTF-8: the name it belongs to (null: the name itself), and why. */
export class FormTextNotUtf8 extends Error {
  readonly parameter: string | null
  readonly notUtf8: NotUtf8
  constructor(parameter: string | null, notUtf8: NotUtf8) {
    super(parameter === null ? `a parameter name ${notUtf8.message}` : `${parameter} ${notUtf8.message}`)
    this.parameter = parameter
    this.notUtf8 = notUtf8
  }
}

const AMPERSAND = 0x26
const EQUALS = 0x3d
const PLUS = 0x2b
const PERCENT = 0x25
const SPACE = 0x20

/**
 * The parameters, in order of first appearance. A name sent twice gets an array of its values, as
 * @fastify/formbody answered (the OAuth endpoints refuse repeated parameters by that).
 */
export function parseForm(bytes: Uint8Array): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null)
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let start = 0
  while (start < body.length) {
    let end = body.indexOf(AMPERSAND, start)
    if (end < 0) end = body.length
    if (end > start) {
      const pair = body.subarray(start, end)
      const eq = pair.indexOf(EQUALS)
      const name = formText(eq < 0 ? pair : pair.subarray(0, eq), null)
      const value = eq < 0 ? '' : formText(pair.subarray(eq + 1), name)
      const earlier = out[name]
      out[name] = earlier === undefined ? value : Array.isArray(earlier) ? [...earlier, value] : [earlier, value]
    }
    start = end + 1
  }
  return out
}

/** '+' is a space; %XX is a byte, a '%' not followed by two hex digits stays itself; then UTF-8. */
function formText(bytes: Buffer, nameOfValue: string | null): string {
  let decoded: Buffer = bytes
  if (bytes.includes(PLUS) || bytes.includes(PERCENT)) {
    decoded = Buffer.allocUnsafe(bytes.length)
    let n = 0
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]
      const high = b === PERCENT && i + 2 < bytes.length ? hexValue(bytes[i + 1]) : -1
      const low = high >= 0 ? hexValue(bytes[i + 2]) : -1
      if (low >= 0) {
        decoded[n++] = high * 16 + low
        i += 2
      } else decoded[n++] = b === PLUS ? SPACE : b
    }
    decoded = decoded.subarray(0, n)
  }
  try {
    // A value's byte-order mark is text of the value, not a mark to drop.
    return decodeUtf8(decoded, 'keep')
  } catch (err) {
    throw new FormTextNotUtf8(nameOfValue, err as NotUtf8)
  }
}

function hexValue(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30
  if (b >= 0x41 && b <= 0x46) return b - 0x37
  if (b >= 0x61 && b <= 0x66) return b - 0x57
  return -1
}
