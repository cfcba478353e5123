/**
 * Tool results the service already holds as JSON text (a page or a record as PostgreSQL built it,
 * redacted), placed into the MCP reply without parsing them into objects only for the SDK to
 * serialise them again.
 *
 * Such a result goes out twice: as `structuredContent` and, because "a tool that returns structured
 * content SHOULD also return the serialized JSON in a TextContent block" (MCP 2025-06-18,
 * server/tools, "Structured Content"), as a text block. Both travel through the SDK as small
 * placeholders (a string and a one-key object), and the route swaps them for the text, escaped as a
 * JSON string, and for the JSON itself in the finished reply. Parsing a 50-record page, serialising
 * it twice and passing 40 kB through the web Response and back was most of what MCP cost over REST
 * (docs/benchmarks.md).
 *
 * Why data cannot forge a placeholder: both hold a random nonce made when the process starts, which
 * never leaves it (every placeholder is replaced before a reply is sent).
 */
import { randomBytes } from 'node:crypto'
import type { CallToolResult } from '@modelcontextprotocol/server'

const MARK = `$cairn:raw:${randomBytes(12).toString('hex')}`

/** The JSON results of one MCP request, waiting for its reply. */
export class RawJsonReplies {
  private readonly held: string[] = []

  /** A successful tool result for `json` (JSON text of an object), as placeholders until `splice`. */
  result(json: string): CallToolResult {
    const n = this.held.push(json) - 1
    return { content: [{ type: 'text', text: `${MARK}:${n}` }], structuredContent: { [MARK]: n } }
  }

  /** `body` (the reply as the SDK serialised it) with every placeholder replaced by what it stands for. */
  splice(body: string): string {
    this.held.forEach((json, n) => {
      body = replaceOnce(body, `"${MARK}:${n}"`, JSON.stringify(json))
      body = replaceOnce(body, `{"${MARK}":${n}}`, json)
    })
    return body
  }
}

function replaceOnce(body: string, placeholder: string, value: string): string {
  const at = body.indexOf(placeholder)
  return at < 0 ? body : body.slice(0, at) + value + body.slice(at + placeholder.length)
}
