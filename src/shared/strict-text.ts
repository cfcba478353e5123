/**
 * Text and JSON from outside the service (request bodies, an import's text parts, a client's
 * metadata document), read strictly. Its bytes must be UTF-8: Node's decoding (Buffer#toString,
 * a default TextDecoder) turns a bad sequence into U+FFFD without a word, so two different inputs
 * would be stored as one, as lone surrogates would (storable-text.ts). And JSON may nest at most
 * MAX_JSON_DEPTH arrays and objects, judged on the text before anything parses it: every walk over a
 * parsed value (ours, Ajv's, JSON.stringify, PostgreSQL's jsonb parser) goes one call deeper per
 * level, and 8,000 levels overflowed the stack and answered 500 (docs/api.md, Errors).
 */
import { isUtf8 } from 'node:buffer'

/** The deepest nesting of arrays and objects a JSON value may have; this API's deepest is about 5. */
export const MAX_JSON_DEPTH = 64

/** Bytes that are not UTF-8, with where the first bad sequence starts. */
export class NotUtf8 extends Error {
  readonly offset: number
  constructor(offset: number) {
    super(`is not valid UTF-8 (the bytes from offset ${offset} do not encode a character)`)
    this.offset = offset
  }
}

/** JSON text nested deeper than MAX_JSON_DEPTH. */
export class NestedTooDeep extends Error {
  constructor() {
    super(`nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`)
  }
}

/**
 * The text the bytes encode as UTF-8, or NotUtf8. A leading byte-order mark is dropped from a whole
 * document (JSON text, as Fastify's parser drops it) and kept in a value (`bom: 'keep'`). Node's
 * isUtf8 check and then its decoding: together about half the time of a fatal TextDecoder.
 */
export function decodeUtf8(bytes: Uint8Array, bom: 'drop' | 'keep' = 'drop'): string {
  if (!isUtf8(bytes)) throw new NotUtf8(firstInvalidUtf8(bytes))
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
  return bom === 'drop' && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}

/**
 * Where the first sequence that is not UTF-8 starts (RFC 3629 §4: no overlong forms, no surrogates,
 * nothing past U+10FFFF); -1 when there is none. Only run once decoding has failed.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0
  while (i < bytes.length) {
    const b = bytes[i]
    if (b < 0x80) {
      i++
      continue
    }
    // Each lead byte allows its first continuation byte a narrower range than 80-BF.
    let length: number
    let low = 0x80
    let high = 0xbf
    if (b >= 0xc2 && b <= 0xdf) length = 2
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3
      if (b === 0xe0) low = 0xa0
      if (b === 0xed) high = 0x9f
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4
      if (b === 0xf0) low = 0x90
      if (b === 0xf4) high = 0x8f
    } else return i
    if (i + length > bytes.length) return i
    if (bytes[i + 1] < low || bytes[i + 1] > high) return i
    for (let k = 2; k < length; k++) if (bytes[i + k] < 0x80 || bytes[i + k] > 0xbf) return i
    i += length
  }
  return -1
}

const QUOTE = 34
const BACKSLASH = 92
const OPEN_BRACKET = 91
const CLOSE_BRACKET = 93
const OPEN_BRACE = 123
const CLOSE_BRACE = 125

/**
 * Whether JSON text nests arrays and objects deeper than `limit`: a scan of its characters that
 * skips strings (brackets in them are text), with no recursion, so any depth is judged in constant
 * stack. Text that is not JSON at all is left to the parser.
 */
export function nestsDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0
  const n = text.length
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) {
      // To the closing quote: the next quote not escaped by an odd run of backslashes.
      for (;;) {
        const q = text.indexOf('"', i + 1)
        if (q < 0) return false
        let slashes = 0
        while (text.charCodeAt(q - 1 - slashes) === BACKSLASH) slashes++
        i = q
        if (slashes % 2 === 0) break
      }
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > limit) return true
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      depth--
    }
  }
  return false
}

/**
 * JSON text parsed once it is known to be UTF-8 and nested at most MAX_JSON_DEPTH levels. Throws
 * NotUtf8, NestedTooDeep, or JSON.parse's SyntaxError.
 */
export function parseJsonStrictly(input: Uint8Array | string): unknown {
  const text = typeof input === 'string' ? input : decodeUtf8(input)
  if (nestsDeeperThan(text)) throw new NestedTooDeep()
  return JSON.parse(text)
}
