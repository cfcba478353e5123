/**
 * The splice that puts JSON the service holds as text into MCP replies (src/mcp/raw-json.ts): the
 * reply must read exactly as if the SDK had serialised the parsed value, for any text PostgreSQL can
 * return, and nothing but the placeholders it made may be replaced.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { RawJsonReplies } from '../../src/mcp/raw-json.ts'

/** What the SDK's transport does with a result: JSON-RPC envelope, JSON.stringify. */
const serialise = (results: unknown[]) => JSON.stringify(results.map((result, i) => ({ result, jsonrpc: '2.0', id: i + 1 })))

describe('RawJsonReplies', () => {
  it('replaces the text block with the JSON as a string and the structured content with the JSON itself', () => {
    const json = '{"name":"Quote \\" backslash \\\\ tab \\t","note":"línea\\nnueva ☃ 😀","n":[1,2.5,null,true]}'
    const replies = new RawJsonReplies()
    const body = replies.splice(serialise([replies.result(json)]))
    const [reply] = JSON.parse(body)
    expect(reply.result.content).toEqual([{ type: 'text', text: json }])
    expect(reply.result.structuredContent).toEqual(JSON.parse(json))
    // This text is compact, so the reply is byte for byte what the SDK would send for the parsed value.
    expect(body).toBe(serialise([{ content: [{ type: 'text', text: json }], structuredContent: JSON.parse(json) }]))
  })

  it('keeps several results of one reply apart, and JSON text with whitespace between tokens as it is', () => {
    const replies = new RawJsonReplies()
    const texts = ['{"a": 1}', '{\n  "b" : [ "x" ,\t"y" ]\r\n}', '{}']
    const body = replies.splice(serialise(texts.map((t) => replies.result(t))))
    const parsed = JSON.parse(body) as { result: { content: { text: string }[]; structuredContent: unknown } }[]
    expect(parsed.map((r) => r.result.content[0]!.text)).toEqual(texts)
    expect(parsed.map((r) => r.result.structuredContent)).toEqual(texts.map((t) => JSON.parse(t)))
  })

  it('never touches data that imitates a placeholder without the process nonce', () => {
    const replies = new RawJsonReplies()
    const placeholder = replies.result('{"real":true}')
    const forged = { content: [{ type: 'text', text: '$cairn:raw:0000:0' }], structuredContent: { '$cairn:raw:0000': 0, '$cairn:raw': 0 } }
    const body = replies.splice(serialise([forged, placeholder]))
    const [first, second] = JSON.parse(body)
    expect(first.result).toEqual(forged)
    expect(second.result.structuredContent).toEqual({ real: true })
  })

  it('round-trips any JSON object value (property test)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue()), (value) => {
        const json = JSON.stringify(value)
        const replies = new RawJsonReplies()
        const body = replies.splice(serialise([replies.result(json)]))
        // Byte for byte what the SDK would send for the parsed value (this text is compact).
        expect(body).toBe(serialise([{ content: [{ type: 'text', text: json }], structuredContent: JSON.parse(json) }]))
      }),
      { numRuns: 300 },
    )
  })
})
