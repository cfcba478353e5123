/**
 * The strict readers of outside text (src/shared/strict-text.ts) against references: the nesting
 * scan against the depth of the parsed value, on random JSON whose strings are full of brackets,
 * quotes and backslashes; the UTF-8 check against the platform's fatal decoder, on random bytes.
 * And the walk that finds unstorable text keeps its own stack: 100,000 levels overflowed it.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { decodeUtf8, firstInvalidUtf8, MAX_JSON_DEPTH, NestedTooDeep, nestsDeeperThan, NotUtf8, parseJsonStrictly } from '../../src/shared/strict-text.ts'
import { findUnstorableText } from '../../src/shared/storable-text.ts'

/** Arrays and objects from the outside in, counted without recursion. */
function depthOf(value: unknown): number {
  let deepest = 0
  const stack: Array<[unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [v, d] = stack.pop()!
    if (v === null || typeof v !== 'object') continue
    deepest = Math.max(deepest, d + 1)
    for (const child of Object.values(v)) stack.push([child, d + 1])
  }
  return deepest
}

const tricky = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', ',', ':', 'é', '😀') })
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', maxDepth: 12 }, tricky, fc.integer(), fc.constant(null), fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(tricky, tie('value'), { maxKeys: 3 })),
})).value

describe('strict text', () => {
  it('judges nesting as the parsed value has it, whatever its strings hold', () => {
    fc.assert(
      fc.property(json, fc.nat(14), (value, limit) => {
        const text = JSON.stringify(value)
        expect(nestsDeeperThan(text, limit)).toBe(depthOf(value) > limit)
      }),
      { numRuns: 3000 },
    )
  })

  it('refuses 100,000 levels in constant stack, and parses 64', () => {
    expect(() => parseJsonStrictly(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toThrow(NestedTooDeep)
    expect(() => parseJsonStrictly(`${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`)).toThrow(NestedTooDeep)
    expect(depthOf(parseJsonStrictly(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`))).toBe(MAX_JSON_DEPTH)
  })

  it('finds the first byte that is not UTF-8 exactly where the fatal decoder fails (random bytes)', () => {
    const fatal = new TextDecoder('utf-8', { fatal: true })
    const keepingBom = new TextDecoder('utf-8', { ignoreBOM: true })
    const bytes = fc.array(fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0x80, max: 0xff }), fc.constantFrom(0xc2, 0xe0, 0xed, 0xf0, 0xf4, 0xbf, 0x80, 0xef, 0xbb)), { maxLength: 12 }).map((a) => Uint8Array.from(a))
    fc.assert(
      fc.property(bytes, (b) => {
        const at = firstInvalidUtf8(b)
        let valid = true
        try {
          fatal.decode(b)
        } catch {
          valid = false
        }
        expect(at === -1).toBe(valid)
        if (valid) expect(decodeUtf8(b, 'keep')).toBe(keepingBom.decode(b))
        if (at >= 0) {
          // Everything before it decodes; the decoder fails from there on.
          expect(() => fatal.decode(b.subarray(0, at))).not.toThrow()
          expect(() => decodeUtf8(b)).toThrow(NotUtf8)
        }
      }),
      { numRuns: 20_000 },
    )
  })

  it('finds unstorable text 100,000 levels down, naming its path', () => {
    let value: unknown = { name: 'a\u0000b' }
    for (let i = 0; i < 100_000; i++) value = i % 2 === 0 ? [value] : { x: value }
    const found = findUnstorableText(value)
    expect(found?.message).toBe('must not contain the NUL character (U+0000)')
    expect(found?.field).toBe(`${'x[0].'.repeat(50_000)}name`)
    expect(findUnstorableText({ records: [{ name: 'ok' }, { custom_fields: { 'k\ud800': 1 } }] })).toEqual({ field: 'records[1].custom_fields', message: 'has a key that must be valid Unicode text (it holds a lone surrogate, U+D800-U+DFFF)' })
  })
})
