// Owns Salesforce-style record ids: 3-char key prefix + 2-char pod + '0' + 9 base62 digits + 3-char
// case-safe suffix. Digits use '0-9A-Za-z' (ASCII order), so ids of one object sort in creation
// order with a plain string comparison: that is what makes `WHERE Id > :last ORDER BY Id` keyset
// paging a binary search instead of a scan, and lets an id map back to its record index.

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const SUFFIX = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345'
const WIDTH = 9

/** The real platform's 3-char suffix: one char per 5-char chunk, bit i set if char i is upper case. */
export function idSuffix(id15: string): string {
  let out = ''
  for (let chunk = 0; chunk < 3; chunk++) {
    let bits = 0
    for (let i = 0; i < 5; i++) {
      const c = id15.charCodeAt(chunk * 5 + i)
      if (c >= 65 && c <= 90) bits |= 1 << i
    }
    out += SUFFIX[bits]
  }
  return out
}

/** Id of record `index` (0-based) of an object; `pod` is 2 chars and differs per org. */
export function makeId(prefix: string, pod: string, index: number): string {
  // The low 2 digits come from a table (ids are made for every record served: a hot path).
  const n = index + 1
  const low = n % 3844 // 62^2
  let hd = ''
  let h = Math.floor(n / 3844)
  for (let i = 0; i < WIDTH - 2; i++) {
    hd = DIGITS[h % 62] + hd
    h = Math.floor(h / 62)
  }
  const id15 = prefix + pod + '0' + hd + LOW2[low]
  return id15 + idSuffix(id15)
}

const LOW2: string[] = []
for (let a = 0; a < 62; a++) for (let b = 0; b < 62; b++) LOW2.push(DIGITS[a] + DIGITS[b])

/** Record index encoded in an id made by makeId, or -1 if the id is not one of ours for that prefix/pod. */
export function indexOfId(id: string, prefix: string, pod: string): number {
  if ((id.length !== 15 && id.length !== 18) || !id.startsWith(prefix) || id.slice(3, 5) !== pod || id[5] !== '0') return -1
  let n = 0
  for (let i = 6; i < 15; i++) {
    const d = DIGITS.indexOf(id[i])
    if (d < 0) return -1
    n = n * 62 + d
  }
  if (id.length === 18 && id.slice(15) !== idSuffix(id.slice(0, 15))) return -1
  return n - 1
}

/** 15-char ids are accepted wherever 18-char ones are (as on the real platform). */
export function to18(id: string): string {
  return id.length === 15 ? id + idSuffix(id) : id
}

export function looksLikeId(v: string): boolean {
  return /^[a-zA-Z0-9]{15}(?:[A-Z0-5]{3})?$/.test(v)
}

/**
 * makeId for one object, faster for runs of nearby indices (serving pages): the 6-char head and
 * the high digits with their case bits are reused while only the 2 low digits change.
 */
export class IdMaker {
  private readonly head: string
  private readonly headBits: number
  private lastHigh = -1
  private highDigits = ''
  private highBits = 0

  constructor(prefix: string, pod: string) {
    this.head = prefix + pod + '0'
    this.headBits = caseBits(this.head)
  }

  id(index: number): string {
    const n = index + 1
    const high = Math.floor(n / 3844)
    if (high !== this.lastHigh) {
      let hd = ''
      let h = high
      for (let i = 0; i < WIDTH - 2; i++) {
        hd = DIGITS[h % 62] + hd
        h = Math.floor(h / 62)
      }
      this.lastHigh = high
      this.highDigits = hd
      this.highBits = caseBits(hd) << 6
    }
    const low = n % 3844
    // Bits of the 15 chars (bit k = char k is upper case), split into three 5-bit suffix chars.
    const bits = this.headBits | this.highBits | (LOW2_BITS[low] << 13)
    return this.head + this.highDigits + LOW2[low] + SUFFIX[bits & 31] + SUFFIX[(bits >> 5) & 31] + SUFFIX[(bits >> 10) & 31]
  }
}

function caseBits(s: string): number {
  let b = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 65 && c <= 90) b |= 1 << i
  }
  return b
}

const LOW2_BITS: number[] = LOW2.map(caseBits)
